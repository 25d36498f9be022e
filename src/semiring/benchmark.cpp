// gpu-mm's engine (benchmark.hpp): the registry of --algo names, random
// inputs, the timed products and the reference they are checked against.
#include "semiring/benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/build.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"

namespace gdp::semiring {
namespace {

// The base products of the GPU's Strassen and Winograd (--base).
enum class Base { classic, cublas };
constexpr EnumNames<Base, 2> base_names{{{Base::classic, "classic"}, {Base::cublas, "cublas"}}};

// Random input number `index` of a run. Each block of rows (of 2^16
// cells or more) has a generator of its own, seeded by (seed, index,
// block), so that the blocks fill in parallel and the same seed gives the
// same matrix on any number of threads.
template <class T>
Matrix<T> random_matrix(unsigned seed, unsigned index, std::int64_t rows, std::int64_t cols, int threads) {
  Matrix<T> m(rows, cols);
  const std::int64_t block_rows = std::max<std::int64_t>(1, (std::int64_t{1} << 16) / std::max<std::int64_t>(cols, 1));
#pragma omp parallel for schedule(static) num_threads(std::max(threads, 1))
  for (std::int64_t block = 0; block < (rows + block_rows - 1) / block_rows; ++block) {
    std::seed_seq seeds{seed, index, static_cast<unsigned>(block), static_cast<unsigned>(block >> 32)};
    std::mt19937 rng(seeds);
    T* row = m.data.data() + block * block_rows * cols;
    const std::int64_t cells = (std::min(rows, (block + 1) * block_rows) - block * block_rows) * cols;
    // Plain arithmetic on the generator's 32 bits: the standard
    // distributions take several times as long, and inputs of 10^9 cells
    // are made here.
    for (std::int64_t c = 0; c < cells; ++c) {
      if constexpr (std::is_integral_v<T>)
        row[c] = static_cast<T>(rng() % 201) - 100;
      else
        row[c] = static_cast<T>(-1.0 + static_cast<double>(rng()) * 0x1p-31);
    }
  }
  return m;
}

// Largest and mean absolute difference from the reference.
template <class T>
std::pair<double, double> errors(const Matrix<T>& c, const std::vector<double>& reference) {
  double worst = 0, sum = 0;
  for (std::size_t i = 0; i < c.data.size(); ++i) {
    const double got = static_cast<double>(c.data[i]), want = reference[i];
    // A NaN on either side is no agreement: the errors are NaN, not skipped.
    if (std::isnan(got) || std::isnan(want)) return {std::nan(""), std::nan("")};
    const double e = got == want ? 0.0 : std::fabs(got - want);
    worst = std::max(worst, e);
    sum += e;
  }
  return {worst, c.data.empty() ? 0.0 : sum / static_cast<double>(c.data.size())};
}

// The reference of --check: float64 for plus-times on floats (cuBLAS DGEMM
// on the GPU when one is in use, else the OpenMP product), else the exact
// OpenMP product (max, min and wrapping integer sums do not depend on the
// order).
template <class T>
std::vector<double> reference_of(const Matrix<T>& a, const Matrix<T>& b, const BenchmarkOptions& o) {
  const std::uint64_t ops = product_operations(a.rows, a.cols, b.cols);
  if (std::is_floating_point_v<T> && o.semiring == Semiring::plus_times) {
    Matrix<double> a64(a.rows, a.cols), b64(b.rows, b.cols);
    for (std::size_t i = 0; i < a.data.size(); ++i) a64.data[i] = static_cast<double>(a.data[i]);
    for (std::size_t i = 0; i < b.data.size(); ++i) b64.data[i] = static_cast<double>(b.data[i]);
    if constexpr (have_cuda) {
      if (o.gpu) {
        double seconds = 0;
        auto c = multiply_gpu<double>({a64}, {b64}, {.algo = GpuAlgo::cublas, .device = o.device}, seconds)[0].data;
        if (o.progress) o.progress->add(ops);
        return c;
      }
    }
    return multiply_cpu(a64, b64, o.semiring, CpuAlgo::openmp, o.threads, o.progress).data;
  }
  const auto c = multiply_cpu(a, b, o.semiring, CpuAlgo::openmp, o.threads, o.progress);
  return {c.data.begin(), c.data.end()};
}

// Too large for a device's memory: one line naming the inputs (exit
// status 2), before any random input is made. Running out of memory later,
// in a recursion's temporaries, is a RunError. Over several devices each
// holds its share of a batch, or all of one product's inputs (as a spread
// recursion does).
template <class T>
void check_fits(const BenchmarkOptions& o, const std::string& names, std::int64_t m, std::int64_t k, std::int64_t n,
                std::int64_t batch) {
  if (!o.gpu) return;
  if constexpr (have_cuda) {
    const std::vector<int> devices = o.devices.size() > 1 ? o.devices : std::vector<int>{o.device};
    const auto count = static_cast<std::int64_t>(devices.size());
    const std::int64_t share = (batch + count - 1) / count;
    const double need = static_cast<double>(share) * static_cast<double>(m * k + k * n + m * n) * sizeof(T);
    for (const int device : devices) {
      const std::size_t free_bytes = gpu_free_memory(device);
      if (need > static_cast<double>(free_bytes))
        throw InputError(names + ": the product needs " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                         " MiB of GPU memory" + (count > 1 ? " on GPU " + std::to_string(device) : std::string()) +
                         "; " + std::to_string(free_bytes >> 20) + " MiB are free");
    }
  }
}

}  // namespace

template <class T>
std::vector<Algorithm> plan_algorithms(const BenchmarkOptions& o) {
  const Semiring s = o.semiring;
  const std::string name = o.algo.empty() ? (o.gpu ? "classic" : "openmp") : o.algo;
  const bool recursive = name == "strassen" || name == "winograd";
  if (recursive && s != Semiring::plus_times)
    throw InputError("--algo " + name + " needs subtraction: it runs plus-times only, not " + std::string(to_string(s)));
  const Base base = parse_enum(base_names, o.base, "--base");
  if (!o.gpu) {
    if (name == "classic" || name == "cublas")
      throw InputError("--algo " + name + " runs on the GPU; on the CPU use ijk, ikj, openmp, strassen or winograd");
    if (base != Base::classic) throw InputError("--base is for the GPU's strassen and winograd");
    const Algorithm strassen{.name = "strassen", .levels = o.levels};
    const Algorithm winograd{.name = "winograd", .levels = o.levels, .winograd = true};
    auto classical = [](CpuAlgo a) { return Algorithm{.name = std::string(to_string(a)), .order = a}; };
    if (name == "all") {
      std::vector<Algorithm> algos;
      for (CpuAlgo a : {CpuAlgo::ijk, CpuAlgo::ikj, CpuAlgo::openmp}) algos.push_back(classical(a));
      if (s == Semiring::plus_times) algos.insert(algos.end(), {strassen, winograd});
      return algos;
    }
    if (recursive) return {name == "strassen" ? strassen : winograd};
    return {classical(parse_cpu_algo(name))};
  }
  const bool cublas = cublas_has<T>(s);
  auto gpu_algo = [&](GpuAlgo a, bool cublas_base) {
    Algorithm algo{.name = std::string(to_string(a)),
                   .gpu = true,
                   .request = {.semiring = s,
                               .algo = a,
                               .levels = o.levels,
                               .cublas_base = cublas_base,
                               .device = o.device,
                               .repeat = o.repeat}};
    if (a == GpuAlgo::strassen || a == GpuAlgo::winograd) {
      algo.levels = o.levels;
      algo.name += cublas_base ? "+cublas" : "+classic";
    }
    return algo;
  };
  if (name == "all") {
    std::vector<Algorithm> algos{gpu_algo(GpuAlgo::classic, false)};
    if (cublas) algos.push_back(gpu_algo(GpuAlgo::cublas, false));
    if (s == Semiring::plus_times)
      for (GpuAlgo a : {GpuAlgo::strassen, GpuAlgo::winograd}) {
        algos.push_back(gpu_algo(a, false));
        if (cublas) algos.push_back(gpu_algo(a, true));
      }
    return algos;
  }
  if (name == "classic") return {gpu_algo(GpuAlgo::classic, false)};
  if ((name == "cublas" || (recursive && base == Base::cublas)) && !cublas)
    throw InputError("cuBLAS has plus-times on f32 and f64 only, not " + std::string(to_string(s)) + " on " +
                     (std::is_integral_v<T> ? "i32" : "this type"));
  if (name == "cublas") return {gpu_algo(GpuAlgo::cublas, false)};
  if (recursive) return {gpu_algo(name == "strassen" ? GpuAlgo::strassen : GpuAlgo::winograd, base == Base::cublas)};
  throw InputError("unknown GPU algorithm '" + name + "' (use classic, cublas, strassen, winograd or all; " +
                   "ijk, ikj and openmp take --cpu)");
}

template <class T>
BenchmarkResult<T> run_benchmark(BenchmarkInputs<T> in, const BenchmarkOptions& o) {
  if (o.gpu && !have_cuda) throw RunError(no_cuda_message);
  const std::vector<Algorithm> algos = plan_algorithms<T>(o);
  Timer timer;
  std::vector<Matrix<T>>& as = in.a;
  std::vector<Matrix<T>>& bs = in.b;
  if (as.empty()) {
    check_fits<T>(o, in.names, in.m, in.k, in.n, in.batch);
    for (int i = 0; i < in.batch; ++i) {
      as.push_back(random_matrix<T>(in.seed, 2 * static_cast<unsigned>(i), in.m, in.k, o.threads));
      bs.push_back(random_matrix<T>(in.seed, 2 * static_cast<unsigned>(i) + 1, in.k, in.n, o.threads));
    }
  }
  if (as[0].cols != bs[0].rows)
    throw InputError(in.b_name, 0, "has " + std::to_string(bs[0].rows) + " rows, but " + in.a_name + " has " +
                                       std::to_string(as[0].cols) + " columns: the shapes do not chain");
  check_range(as[0], o.semiring, in.a_name);
  check_range(bs[0], o.semiring, in.b_name);
  check_fits<T>(o, in.names, as[0].rows, as[0].cols, bs[0].cols, static_cast<std::int64_t>(as.size()));

  BenchmarkResult<T> result;
  result.prepare_seconds = timer.seconds();
  result.m = as[0].rows, result.k = as[0].cols, result.n = bs[0].cols;
  result.batch = static_cast<std::int64_t>(as.size());
  const std::uint64_t product_ops = product_operations(result.m, result.k, result.n);
  const auto ops = static_cast<double>(product_ops);
  const double products = static_cast<double>(as.size());
  if (o.progress) o.progress->set_total(product_ops * (as.size() * algos.size() + (o.check ? 1 : 0)));
  std::vector<double> reference;  // computed once, for the first check
  for (const Algorithm& algo : algos) {
    timer.restart();
    double seconds = 0;
    if (algo.gpu) {
      if constexpr (have_cuda) {
        try {
          result.product = std::move((o.devices.size() > 1 ? multiply_gpus(as, bs, algo.request, o.devices, seconds)
                                                           : multiply_gpu(as, bs, algo.request, seconds))
                                         .back());
          if (o.progress) o.progress->add(product_ops * as.size());
        } catch (const RunError& e) {
          throw RunError(in.names + ": " + algo.name + ": " + e.what());
        } catch (const InputError& e) {
          throw InputError(in.names + ": " + algo.name + ": " + e.what());
        }
      }
    } else {
      for (std::size_t i = 0; i < as.size(); ++i)
        result.product = algo.levels > 0
                             ? multiply_recursive_cpu(as[i], bs[i], algo.winograd, algo.levels, algo.order, o.threads,
                                                      o.progress)
                             : multiply_cpu(as[i], bs[i], o.semiring, algo.order, o.threads, o.progress);
      seconds = timer.seconds();
    }
    result.compute_seconds += seconds;
    BenchmarkRow r{.algo = algo.name,
                   .levels = algo.levels,
                   .ms = seconds * 1e3 / products,
                   .gops = seconds > 0 ? ops * products / seconds / 1e9 : 0.0};
    if (o.check) {  // against the last product of the batch
      if (reference.empty()) reference = reference_of(as.back(), bs.back(), o);
      std::tie(r.max_error, r.avg_error) = errors(result.product, reference);
      r.checked = true;
    }
    result.rows.push_back(r);
  }
  for (std::size_t i = 0; i < algos.size(); ++i)  // speeds relative to cuBLAS in this run
    if (algos[i].gpu && algos[i].request.algo == GpuAlgo::cublas)
      for (BenchmarkRow& r : result.rows)
        if (r.ms > 0) r.vs_cublas = result.rows[i].ms / r.ms;
  result.operations = ops * products * static_cast<double>(algos.size());
  return result;
}

template std::vector<Algorithm> plan_algorithms<float>(const BenchmarkOptions&);
template std::vector<Algorithm> plan_algorithms<double>(const BenchmarkOptions&);
template std::vector<Algorithm> plan_algorithms<std::int32_t>(const BenchmarkOptions&);
template BenchmarkResult<float> run_benchmark(BenchmarkInputs<float>, const BenchmarkOptions&);
template BenchmarkResult<double> run_benchmark(BenchmarkInputs<double>, const BenchmarkOptions&);
template BenchmarkResult<std::int32_t> run_benchmark(BenchmarkInputs<std::int32_t>, const BenchmarkOptions&);

}  // namespace gdp::semiring
