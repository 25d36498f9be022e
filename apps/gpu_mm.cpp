// gpu-mm: matrix products over three semirings, on the GPU (the classical
// kernel, cuBLAS, Strassen, Winograd) or with --cpu on the CPU reference
// (ijk, cache-aware ikj, OpenMP, Strassen, Winograd). This file parses the
// command line and reads the .npy inputs; the engine (semiring/benchmark.hpp)
// runs and checks the products; io/mm_writer.hpp writes the rows.
#include <optional>
#include <string>
#include <utility>

#include "common/tool_main.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/timer.hpp"
#include "core/tune.hpp"
#include "io/mm_writer.hpp"
#include "io/npy.hpp"
#include "semiring/benchmark.hpp"

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
keeps the fastest of R runs. --devices 0,1 (or all) spreads the work over
several GPUs, the product the same bits as on one: a batch in parts, one
product by blocks of C's rows, or for strassen and winograd by the seven
products of the recursion's top level. Where cuBLAS ran in the same command, the
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
  gpu-mm --devices all --n 32768 --algo cublas    # one product over every GPU
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

template <class T>
void run_typed(const MmOptions& o, const gdp::app::CommonOptions& common, const sr::BenchmarkOptions& options,
               gdp::io::MmFormat format, const NpyInputs& files, gdp::TimingReport& report) {
  gdp::Timer timer;
  sr::BenchmarkInputs<T> inputs;
  if (files.a) {
    inputs.a.push_back(matrix_of<T>(*files.a, o.a_path));
    inputs.b.push_back(matrix_of<T>(*files.b, o.b_path));
    inputs.a_name = o.a_path, inputs.b_name = o.b_path, inputs.names = o.a_path + " and " + o.b_path;
  } else {
    inputs.m = o.m, inputs.k = o.k, inputs.n = o.n, inputs.batch = o.batch, inputs.seed = o.seed;
  }
  const double convert_seconds = timer.seconds();
  const sr::BenchmarkResult<T> result = sr::run_benchmark(std::move(inputs), options);
  options.progress->clear();
  report.add_phase("read", files.read_seconds + convert_seconds + result.prepare_seconds);
  report.add_phase("compute", result.compute_seconds);
  report.work = result.operations;
  report.inputs = {{"m", static_cast<double>(result.m)}, {"k", static_cast<double>(result.k)},
                   {"n", static_cast<double>(result.n)}, {"batch", static_cast<double>(result.batch)}};

  timer.restart();
  const sr::Matrix<T>& c = result.product;
  if (!o.out_path.empty()) gdp::io::write_npy(o.out_path, gdp::io::dtype_of<T>(), c.rows, c.cols, c.data.data());
  gdp::OutputFile out(common.output);
  gdp::io::write_mm_rows(format, out.stream(),
                         {.type = gdp::io::dtype_of<T>(),
                          .semiring = options.semiring,
                          .m = result.m,
                          .k = result.k,
                          .n = result.n,
                          .batch = o.batch},
                         result.rows);
  out.commit();
  report.add_phase("write", timer.seconds());
}

// Refuses (InputError, exit 2) a CPU product whose inputs, product and
// --check reference cannot fit in the host memory available now.
void check_host_memory(gdp::io::DType type, std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t batch,
                       bool check) {
  const double item = type == gdp::io::DType::f64 ? 8 : 4;
  const double need = static_cast<double>(batch) * (static_cast<double>(m) * static_cast<double>(k) * item +
                                                    static_cast<double>(k) * static_cast<double>(n) * item +
                                                    static_cast<double>(m) * static_cast<double>(n) * (item + (check ? 8 : 0)));
  const std::uint64_t available = gdp::available_memory_bytes();
  if (available > 0 && need > static_cast<double>(available))
    throw gdp::InputError(std::to_string(m) + " x " + std::to_string(k) + " by " + std::to_string(k) + " x " +
                          std::to_string(n) + (batch > 1 ? ", " + std::to_string(batch) + " times," : "") +
                          " needs " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                          " MiB of host memory; " + std::to_string(available >> 20) + " MiB are available");
}

void run(MmOptions o, const gdp::app::CommonOptions& common) {
  sr::BenchmarkTuning tuning;
  gdp::apply_tune(tuning, sr::benchmark_tune_keys, common.tune);
  const sr::Semiring s = sr::parse_semiring(o.semiring);
  const gdp::io::MmFormat format = gdp::io::parse_mm_format(o.format);
  if (o.levels < 1 || o.levels > 4) throw gdp::InputError("--levels takes 1 to 4");
  if (o.a_path.empty() != o.b_path.empty()) throw gdp::InputError("--a and --b go together");
  if (o.out_path == "-")
    throw gdp::InputError("--out - would mix the product's .npy bytes with the table on standard output: give a file name");
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

  const std::vector<int> devices = gdp::app::chosen_devices(common);
  const auto choice = gdp::app::choose_run_device(common, devices);
  if (!choice.use_gpu && !choice.reason.empty()) spdlog::info("{}", choice.reason);
  if (!choice.use_gpu) {  // the GPU's runs check the device's memory (semiring/benchmark.cpp)
    const std::int64_t m = files.a ? files.a->rows : o.m, k = files.a ? files.a->cols : o.k,
                       n = files.b ? files.b->cols : o.n, batch = files.a ? 1 : o.batch;
    check_host_memory(type, m, k, n, batch, o.check);
  }
  gdp::Progress progress(tool, 0, !common.quiet);  // run_benchmark sets the total
  const sr::BenchmarkOptions options{.semiring = s,
                                     .algo = o.algo,
                                     .base = o.base,
                                     .levels = o.levels,
                                     .repeat = o.repeat,
                                     .check = o.check,
                                     .gpu = choice.use_gpu,
                                     .device = choice.use_gpu ? choice.gpu.id : 0,
                                     .devices = devices,
                                     .threads = common.thread_count(),
                                     .progress = &progress};
  gdp::TimingReport report;
  report.tool = tool;
  report.work_unit = "operations";
  switch (type) {
    case gdp::io::DType::f32: run_typed<float>(o, common, options, format, files, report); break;
    case gdp::io::DType::f64: run_typed<double>(o, common, options, format, files, report); break;
    case gdp::io::DType::i32: run_typed<std::int32_t>(o, common, options, format, files, report); break;
  }
  if (!common.report.empty()) {
    report.backend = (choice.use_gpu ? "gpu-" : "cpu-") + (o.algo.empty() ? std::string("default") : o.algo);
    gdp::app::report_devices(report, choice.use_gpu, devices, choice.gpu.name);
    report.threads = options.threads;
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
  app.add_option("--m", o.m, "Random A's rows (default: --n)")->check(gdp::app::at_least(1));
  app.add_option("--k", o.k, "Random A's columns and B's rows (default: --n)")->check(gdp::app::at_least(1));
  app.add_option("--n", o.n, "Random B's columns (and m and k when they are not given)")->check(gdp::app::at_least(1));
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
  gdp::app::add_devices_option(app, common, "GPUs to spread the products over");
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
