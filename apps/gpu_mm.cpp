// gpu-mm: matrix products over three semirings, on the GPU (the classical
// kernel, cuBLAS, Strassen, Winograd) or with --cpu on the CPU reference
// (ijk, cache-aware ikj, OpenMP, Strassen, Winograd).
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/tool_main.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/report.hpp"
#include "core/timer.hpp"
#include "io/npy.hpp"
#include "semiring/gpu.hpp"
#include "semiring/semiring.hpp"

namespace {

namespace sr = gdp::semiring;
constexpr const char* tool = "gpu-mm";

constexpr const char* description = R"(gpu-mm: matrix multiply over the semirings plus-times, max-plus and min-plus.

C = A (x) B, where C(i,j) combines A(i,k) (x) B(k,j) over k: plus-times sums
products; max-plus takes the maximum of sums (the tropical product of RNA
folding); min-plus the minimum of sums. Inputs are NumPy .npy files (2-D,
C order; float32, float64 or int32) or random matrices (--n, or --m --k --n).
Integer max-plus and min-plus take values within +-(2^30 - 1).

On the GPU (the default where one is found): --algo classic (the
register-blocked kernel on CUDA cores, any semiring), cublas (cuBLAS GEMM,
plus-times on f32 and f64), strassen or winograd (recursive, --levels
deep, plus-times only; base products by --base classic or cublas), or all.
Times are device times with the inputs already on the GPU; --repeat R
keeps the fastest of R runs. Where cuBLAS ran in the same command, the
table gives each algorithm's speed relative to it.

With --cpu, or without a GPU: --algo ijk (textbook loops), ikj
(cache-aware order), openmp (ikj on all cores), strassen or winograd (base
products by openmp), or all.

Examples:
  gpu-mm --n 8192 --algo all --type f32 --check   # benchmark table
  gpu-mm --a A.npy --b B.npy --out C.npy --semiring max-plus
  gpu-mm --a A.npy --b B.npy --out C.npy --algo strassen --levels 2 --check
  gpu-mm --batch 50 --n 512 --semiring max-plus   # a column of products
  gpu-mm --m 300 --k 200 --n 100 --type i32 --semiring min-plus --format tsv
  gpu-mm --cpu --n 1024 --algo all --check        # the CPU reference
)";

struct MmOptions {
  std::string a_path, b_path, out_path;
  std::int64_t m = 0, k = 0, n = 0;
  unsigned seed = 1;
  std::string type, semiring = "plus-times", algo, base = "classic", format = "table";
  int batch = 1;
  int levels = 1;
  int repeat = 1;
  bool check = false;
};

// One algorithm of --algo: on the CPU a classical order or a recursive
// product; on the GPU a GpuAlgo (the recursive ones on a base product).
struct Algo {
  std::string name;
  bool gpu = false;
  sr::CpuAlgo order = sr::CpuAlgo::openmp;
  sr::GpuRequest request;
  int levels = 0;  // > 0: Strassen or Winograd
  bool winograd = false;
};

// The algorithms --algo names on this device; T decides whether cuBLAS has
// the product (for all and for --base).
template <class T>
std::vector<Algo> parse_algos(const MmOptions& o, sr::Semiring s, bool gpu, int device) {
  const std::string name = o.algo.empty() ? (gpu ? "classic" : "openmp") : o.algo;
  const bool recursive = name == "strassen" || name == "winograd";
  if (recursive && s != sr::Semiring::plus_times)
    throw gdp::InputError("--algo " + name + " needs subtraction: it runs plus-times only, not " +
                          std::string(sr::to_string(s)));
  if (o.base != "classic" && o.base != "cublas") throw gdp::InputError("unknown --base '" + o.base + "' (use classic or cublas)");
  if (!gpu) {
    if (name == "classic" || name == "cublas")
      throw gdp::InputError("--algo " + name + " runs on the GPU; on the CPU use ijk, ikj, openmp, strassen or winograd");
    if (o.base != "classic") throw gdp::InputError("--base is for the GPU's strassen and winograd");
    const Algo strassen{"strassen", false, sr::CpuAlgo::openmp, {}, o.levels, false};
    const Algo winograd{"winograd", false, sr::CpuAlgo::openmp, {}, o.levels, true};
    std::vector<Algo> algos;
    if (name == "all") {
      for (sr::CpuAlgo a : {sr::CpuAlgo::ijk, sr::CpuAlgo::ikj, sr::CpuAlgo::openmp})
        algos.push_back({std::string(sr::to_string(a)), false, a, {}, 0, false});
      if (s == sr::Semiring::plus_times) algos.insert(algos.end(), {strassen, winograd});
      return algos;
    }
    if (recursive) return {name == "strassen" ? strassen : winograd};
    const sr::CpuAlgo a = sr::parse_cpu_algo(name);
    return {{std::string(sr::to_string(a)), false, a, {}, 0, false}};
  }
  const bool cublas = sr::cublas_has<T>(s);
  auto gpu_algo = [&](sr::GpuAlgo a, bool cublas_base) {
    Algo algo;
    algo.gpu = true;
    algo.request.semiring = s;
    algo.request.algo = a;
    algo.request.levels = o.levels;
    algo.request.cublas_base = cublas_base;
    algo.request.device = device;
    algo.request.repeat = o.repeat;
    algo.name = std::string(sr::to_string(a));
    if (a == sr::GpuAlgo::strassen || a == sr::GpuAlgo::winograd) {
      algo.levels = o.levels;
      algo.name += cublas_base ? "+cublas" : "+classic";
    }
    return algo;
  };
  if (name == "all") {
    std::vector<Algo> algos{gpu_algo(sr::GpuAlgo::classic, false)};
    if (cublas) algos.push_back(gpu_algo(sr::GpuAlgo::cublas, false));
    if (s == sr::Semiring::plus_times)
      for (sr::GpuAlgo a : {sr::GpuAlgo::strassen, sr::GpuAlgo::winograd}) {
        algos.push_back(gpu_algo(a, false));
        if (cublas) algos.push_back(gpu_algo(a, true));
      }
    return algos;
  }
  if (name == "classic") return {gpu_algo(sr::GpuAlgo::classic, false)};
  if (name == "cublas" || (recursive && o.base == "cublas")) {
    if (!cublas)
      throw gdp::InputError("cuBLAS has plus-times on f32 and f64 only, not " + std::string(sr::to_string(s)) + " on " +
                            (std::is_integral_v<T> ? "i32" : "this type"));
  }
  if (name == "cublas") return {gpu_algo(sr::GpuAlgo::cublas, false)};
  if (recursive) return {gpu_algo(name == "strassen" ? sr::GpuAlgo::strassen : sr::GpuAlgo::winograd, o.base == "cublas")};
  throw gdp::InputError("unknown GPU algorithm '" + name + "' (use classic, cublas, strassen, winograd or all; " +
                        "ijk, ikj and openmp take --cpu)");
}

struct Row {
  std::string algo;
  int levels = 0;
  double ms = 0, gops = 0;
  double vs_cublas = 0;  // cuBLAS's time over this one's; 0: cuBLAS did not run
  bool checked = false;
  double max_error = 0, avg_error = 0;
};

template <class T>
sr::Matrix<T> random_matrix(std::mt19937& rng, std::int64_t rows, std::int64_t cols) {
  sr::Matrix<T> m(rows, cols);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> d(-100, 100);
    for (auto& x : m.data) x = d(rng);
  } else {
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto& x : m.data) x = static_cast<T>(d(rng));
  }
  return m;
}

// The .npy inputs, each read from disk once (empty for random inputs).
struct NpyInputs {
  std::optional<gdp::io::NpyArray> a, b;
  double read_seconds = 0;
};

template <class T>
sr::Matrix<T> matrix_of(const gdp::io::NpyArray& a, const std::string& path) {
  sr::Matrix<T> m;
  m.rows = a.rows;
  m.cols = a.cols;
  m.data = gdp::io::items<T>(a, path);
  return m;
}

// Largest and mean absolute difference from the reference: exact for
// integers and for max-plus and min-plus; float64 for plus-times on floats.
template <class T>
std::pair<double, double> errors(const sr::Matrix<T>& c, const std::vector<double>& reference) {
  double worst = 0, sum = 0;
  for (std::size_t i = 0; i < c.data.size(); ++i) {
    const double got = static_cast<double>(c.data[i]), want = reference[i];
    const double e = got == want ? 0.0 : std::fabs(got - want);
    worst = std::max(worst, e);
    sum += e;
  }
  return {worst, c.data.empty() ? 0.0 : sum / static_cast<double>(c.data.size())};
}

// The reference --check compares with: float64 for plus-times on floats
// (cuBLAS DGEMM on the GPU when one is in use, else the OpenMP product),
// else the exact OpenMP product (max, min and wrapping integer sums do not
// depend on the order).
template <class T>
std::vector<double> reference_of(const sr::Matrix<T>& a, const sr::Matrix<T>& b, sr::Semiring s, int threads,
                                 int device) {
  if (std::is_floating_point_v<T> && s == sr::Semiring::plus_times) {
    sr::Matrix<double> a64(a.rows, a.cols), b64(b.rows, b.cols);
    for (std::size_t i = 0; i < a.data.size(); ++i) a64.data[i] = static_cast<double>(a.data[i]);
    for (std::size_t i = 0; i < b.data.size(); ++i) b64.data[i] = static_cast<double>(b.data[i]);
    if (device >= 0) {
      sr::GpuRequest r;
      r.algo = sr::GpuAlgo::cublas;
      r.device = device;
      double seconds = 0;
      return sr::multiply_gpu<double>({a64}, {b64}, r, seconds)[0].data;
    }
    return sr::multiply_cpu(a64, b64, s, sr::CpuAlgo::openmp, threads).data;
  }
  const auto c = sr::multiply_cpu(a, b, s, sr::CpuAlgo::openmp, threads);
  return {c.data.begin(), c.data.end()};
}

void write_rows(const std::vector<Row>& rows, const MmOptions& o, gdp::io::DType type, sr::Semiring s,
                std::int64_t m, std::int64_t k, std::int64_t n, std::ostream& out) {
  const std::string shape = std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
  auto error_text = [](const Row& r, double v) {
    if (!r.checked) return std::string("-");
    std::ostringstream text;
    text << v;
    return text.str();
  };
  auto ratio_text = [](const Row& r) {
    if (r.vs_cublas <= 0) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", r.vs_cublas);
    return std::string(text);
  };
  if (o.format == "json") {
    for (const Row& r : rows) {
      nlohmann::ordered_json j;
      j["algorithm"] = r.algo;
      j["type"] = gdp::io::to_string(type);
      j["semiring"] = sr::to_string(s);
      j["m"] = m, j["k"] = k, j["n"] = n, j["batch"] = o.batch, j["levels"] = r.levels;
      j["ms"] = r.ms;
      j["gops"] = r.gops;
      j["vs_cublas"] = r.vs_cublas > 0 ? nlohmann::ordered_json(r.vs_cublas) : nlohmann::ordered_json();
      j["max_error"] = r.checked ? nlohmann::ordered_json(r.max_error) : nlohmann::ordered_json();
      j["avg_error"] = r.checked ? nlohmann::ordered_json(r.avg_error) : nlohmann::ordered_json();
      out << j.dump() << "\n";
    }
    return;
  }
  if (o.format == "tsv") {
    out << "#algorithm\ttype\tsemiring\tm\tk\tn\tbatch\tlevels\tms\tgops\tvs_cublas\tmax_error\tavg_error\n";
    for (const Row& r : rows)
      out << r.algo << '\t' << gdp::io::to_string(type) << '\t' << sr::to_string(s) << '\t' << m << '\t' << k << '\t'
          << n << '\t' << o.batch << '\t' << r.levels << '\t' << r.ms << '\t' << r.gops << '\t' << ratio_text(r) << '\t'
          << error_text(r, r.max_error) << '\t' << error_text(r, r.avg_error) << '\n';
    return;
  }
  char line[300];
  std::snprintf(line, sizeof line, "%-16s %-5s %-10s %-20s %6s %6s %12s %12s %10s %12s %12s\n", "algorithm", "type",
                "semiring", "shape", "batch", "levels", "ms", "G ops/s", "vs cuBLAS", "max error", "avg error");
  out << line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof line, "%-16s %-5s %-10s %-20s %6d %6d %12.3f %12.3f %10s %12s %12s\n", r.algo.c_str(),
                  std::string(gdp::io::to_string(type)).c_str(), std::string(sr::to_string(s)).c_str(),
                  shape.c_str(), o.batch, r.levels, r.ms, r.gops, ratio_text(r).c_str(),
                  error_text(r, r.max_error).c_str(), error_text(r, r.avg_error).c_str());
    out << line;
  }
}

template <class T>
void run_typed(const MmOptions& o, const gdp::app::CommonOptions& common, sr::Semiring s, bool gpu, int device,
               const NpyInputs& files, gdp::TimingReport& report) {
  const std::vector<Algo> algos = parse_algos<T>(o, s, gpu, device);
  gdp::Timer timer;
  std::vector<sr::Matrix<T>> as, bs;
  const std::string a_name = o.a_path.empty() ? "A" : o.a_path, b_name = o.b_path.empty() ? "B" : o.b_path;
  // Too large for the device's memory: one line naming the inputs, exit
  // status 2, before any random input is made. (Running out of memory
  // later, in a recursion's temporaries, is exit status 1.)
  const std::string inputs = o.a_path.empty() ? "the random inputs" : o.a_path + " and " + o.b_path;
  auto check_fits = [&](std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t batch) {
    if (!gpu) return;
    const double need = static_cast<double>(batch) * static_cast<double>(m * k + k * n + m * n) * sizeof(T);
    const std::size_t free_bytes = sr::gpu_free_memory(device);
    if (need > static_cast<double>(free_bytes))
      throw gdp::InputError(inputs + ": the product needs " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                          " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free");
  };
  if (!o.a_path.empty()) {
    as.push_back(matrix_of<T>(*files.a, o.a_path));
    bs.push_back(matrix_of<T>(*files.b, o.b_path));
  } else {
    check_fits(o.m, o.k, o.n, o.batch);
    std::mt19937 rng(o.seed);
    for (int i = 0; i < o.batch; ++i) {
      as.push_back(random_matrix<T>(rng, o.m, o.k));
      bs.push_back(random_matrix<T>(rng, o.k, o.n));
    }
  }
  if (as[0].cols != bs[0].rows)
    throw gdp::InputError(b_name, 0, "has " + std::to_string(bs[0].rows) + " rows, but " + a_name + " has " +
                                         std::to_string(as[0].cols) + " columns: the shapes do not chain");
  sr::check_range(as[0], s, a_name);
  sr::check_range(bs[0], s, b_name);
  check_fits(as[0].rows, as[0].cols, bs[0].cols, static_cast<std::int64_t>(as.size()));
  report.add_phase("read", files.read_seconds + timer.seconds());

  const int threads = common.thread_count();
  const std::int64_t m = as[0].rows, k = as[0].cols, n = bs[0].cols;
  const double ops = 2.0 * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
  std::vector<Row> rows;
  sr::Matrix<T> last;
  std::vector<double> reference;  // computed once, for the first --check
  double compute = 0;
  for (const Algo& algo : algos) {
    timer.restart();
    double seconds = 0;
    if (algo.gpu) {
      try {
        last = std::move(sr::multiply_gpu(as, bs, algo.request, seconds).back());
      } catch (const gdp::RunError& e) {  // name the inputs
        throw gdp::RunError(inputs + ": " + algo.name + ": " + e.what());
      } catch (const gdp::InputError& e) {
        throw gdp::InputError(inputs + ": " + algo.name + ": " + e.what());
      }
    } else {
      for (std::size_t i = 0; i < as.size(); ++i)
        last = algo.levels > 0 ? sr::multiply_recursive_cpu(as[i], bs[i], algo.winograd, algo.levels, algo.order, threads)
                               : sr::multiply_cpu(as[i], bs[i], s, algo.order, threads);
      seconds = timer.seconds();
    }
    compute += seconds;
    Row r;
    r.algo = algo.name;
    r.levels = algo.levels;
    r.ms = seconds * 1e3 / static_cast<double>(as.size());
    r.gops = seconds > 0 ? ops * static_cast<double>(as.size()) / seconds / 1e9 : 0.0;
    if (o.check) {  // against the last product of the batch
      if (reference.empty()) reference = reference_of(as.back(), bs.back(), s, threads, device);
      std::tie(r.max_error, r.avg_error) = errors(last, reference);
      r.checked = true;
    }
    rows.push_back(r);
  }
  for (std::size_t i = 0; i < algos.size(); ++i)  // speeds relative to cuBLAS in this run
    if (algos[i].gpu && algos[i].request.algo == sr::GpuAlgo::cublas)
      for (Row& r : rows)
        if (r.ms > 0) r.vs_cublas = rows[i].ms / r.ms;
  report.add_phase("compute", compute);
  report.work = ops * static_cast<double>(as.size() * algos.size());
  report.inputs = {{"m", static_cast<double>(m)}, {"k", static_cast<double>(k)}, {"n", static_cast<double>(n)},
                   {"batch", static_cast<double>(as.size())}};

  timer.restart();
  if (!o.out_path.empty()) gdp::io::write_npy(o.out_path, gdp::io::dtype_of<T>(), last.rows, last.cols, last.data.data());
  gdp::OutputFile out(common.output);
  write_rows(rows, o, gdp::io::dtype_of<T>(), s, m, k, n, out.stream());
  out.commit();
  report.add_phase("write", timer.seconds());
}

void run(MmOptions o, const gdp::app::CommonOptions& common) {
  const sr::Semiring s = sr::parse_semiring(o.semiring);
  if (o.format != "table" && o.format != "tsv" && o.format != "json")
    throw gdp::InputError("unknown format '" + o.format + "' (use table, tsv or json)");
  if (o.levels < 1 || o.levels > 4) throw gdp::InputError("--levels takes 1 to 4");
  if (o.a_path.empty() != o.b_path.empty()) throw gdp::InputError("--a and --b go together");
  gdp::io::DType type = o.type.empty() ? gdp::io::DType::f32 : gdp::io::parse_dtype(o.type);
  NpyInputs files;
  if (!o.a_path.empty()) {
    if (o.m || o.k || o.n) throw gdp::InputError("--m, --k and --n are for random inputs; --a and --b bring their own");
    if (o.batch != 1) throw gdp::InputError("--batch takes random inputs (--n, or --m --k --n)");
    gdp::Timer read_timer;
    files.a = gdp::io::read_npy(o.a_path);
    files.b = gdp::io::read_npy(o.b_path);
    files.read_seconds = read_timer.seconds();
    const gdp::io::DType ta = files.a->dtype, tb = files.b->dtype;
    if (ta != tb)
      throw gdp::InputError(o.b_path, 0, "holds " + std::string(gdp::io::to_string(tb)) + " but " + o.a_path +
                                             " holds " + std::string(gdp::io::to_string(ta)));
    if (!o.type.empty() && type != ta)
      throw gdp::InputError(o.a_path, 0, "holds " + std::string(gdp::io::to_string(ta)) + ", not --type " + o.type);
    type = ta;
  } else {
    if (o.n <= 0) throw gdp::InputError("give the inputs: --a A.npy --b B.npy, or a size: --n N (or --m M --k K --n N)");
    if (!o.m && !o.k) o.m = o.k = o.n;
    if (o.m <= 0 || o.k <= 0) throw gdp::InputError("--m and --k go together with --n, each positive");
    if (o.batch > 1 && !o.out_path.empty()) throw gdp::InputError("--out writes one product: leave out --batch");
  }

  if (o.repeat < 1) throw gdp::InputError("--repeat takes 1 or more");

  const auto choice = gdp::choose_device(common.cpu, common.device);
  if (!choice.use_gpu && !choice.reason.empty()) spdlog::info("{}", choice.reason);
  const int device = choice.use_gpu ? choice.gpu.id : -1;
  gdp::TimingReport report;
  report.tool = tool;
  report.work_unit = "operations";
  switch (type) {
    case gdp::io::DType::f32: run_typed<float>(o, common, s, choice.use_gpu, device, files, report); break;
    case gdp::io::DType::f64: run_typed<double>(o, common, s, choice.use_gpu, device, files, report); break;
    case gdp::io::DType::i32: run_typed<std::int32_t>(o, common, s, choice.use_gpu, device, files, report); break;
  }
  if (!common.report.empty()) {
    report.backend = (choice.use_gpu ? "gpu-" : "cpu-") + (o.algo.empty() ? std::string("default") : o.algo);
    report.device = choice.use_gpu ? choice.gpu.name : gdp::cpu_name();
    report.threads = common.thread_count();
    gdp::write_report(report, common.report);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{description, tool};
  app.get_formatter()->column_width(34);
  MmOptions o;
  gdp::app::CommonOptions common;
  app.add_option("--a", o.a_path, "Left matrix A (.npy, m x k)");
  app.add_option("--b", o.b_path, "Right matrix B (.npy, k x n)");
  app.add_option("--out", o.out_path, "Write the product C to this .npy file");
  app.add_option("--m", o.m, "Random A's rows (default: --n)");
  app.add_option("--k", o.k, "Random A's columns and B's rows (default: --n)");
  app.add_option("--n", o.n, "Random B's columns (and m and k when they are not given)");
  app.add_option("--seed", o.seed, "Seed of the random inputs")->capture_default_str();
  app.add_option("--type", o.type, "f32 | f64 | i32 (default f32, or the files' type)");
  app.add_option("--semiring", o.semiring, "plus-times | max-plus | min-plus")->capture_default_str();
  app.add_option("--algo", o.algo,
                 "GPU: classic | cublas | strassen | winograd | all (default classic); "
                 "CPU: ijk | ikj | openmp | strassen | winograd | all (default openmp)");
  app.add_option("--levels", o.levels, "Recursion levels of strassen and winograd, 1 to 4")->capture_default_str();
  app.add_option("--base", o.base, "Base products of the GPU's strassen and winograd: classic | cublas")->capture_default_str();
  app.add_option("--repeat", o.repeat, "GPU: run each product this many times and keep the fastest")->capture_default_str();
  app.add_option("--batch", o.batch, "Independent products of random inputs")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_flag("--check", o.check,
               "Compare with the reference: float64 for plus-times on floats (cuBLAS DGEMM on the GPU), else exact");
  app.add_option("--format", o.format, "table | tsv | json")->capture_default_str();
  gdp::app::add_common_options(app, common);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
