// gpu-mm: matrix products over three semirings. This version runs on the
// CPU (ijk, cache-aware ikj, OpenMP, Strassen, Winograd); the GPU kernels
// and cuBLAS come with the next version.
#include <cmath>
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

This version runs on the CPU: --algo ijk (textbook loops), ikj (cache-aware
order), openmp (ikj on all cores), strassen or winograd (recursive, --levels
deep, plus-times only; base products by openmp), or all. The GPU kernels
and cuBLAS come with the next version.

Examples:
  gpu-mm --n 1024 --algo all --check              # timing and error table
  gpu-mm --a A.npy --b B.npy --out C.npy --semiring max-plus
  gpu-mm --m 300 --k 200 --n 100 --type i32 --semiring min-plus --format tsv
  gpu-mm --batch 50 --n 128 --semiring max-plus   # 50 independent products
  gpu-mm --n 2048 --algo winograd --levels 2 --check
)";

struct MmOptions {
  std::string a_path, b_path, out_path;
  std::int64_t m = 0, k = 0, n = 0;
  unsigned seed = 1;
  std::string type, semiring = "plus-times", algo = "openmp", format = "table";
  int batch = 1;
  int levels = 1;
  bool check = false;
};

// One algorithm of --algo: a classical CPU order, or a recursive product.
struct Algo {
  std::string name;
  sr::CpuAlgo order = sr::CpuAlgo::openmp;
  int levels = 0;  // > 0: Strassen or Winograd
  bool winograd = false;
};

std::vector<Algo> parse_algos(const std::string& name, int levels, sr::Semiring s) {
  const Algo strassen{"strassen", sr::CpuAlgo::openmp, levels, false}, winograd{"winograd", sr::CpuAlgo::openmp, levels, true};
  std::vector<Algo> algos;
  if (name == "all") {
    for (sr::CpuAlgo a : {sr::CpuAlgo::ijk, sr::CpuAlgo::ikj, sr::CpuAlgo::openmp})
      algos.push_back({std::string(sr::to_string(a)), a, 0, false});
    if (s == sr::Semiring::plus_times) algos.insert(algos.end(), {strassen, winograd});
    return algos;
  }
  if (name == "strassen" || name == "winograd") {
    if (s != sr::Semiring::plus_times)
      throw gdp::InputError("--algo " + name + " needs subtraction: it runs plus-times only, not " +
                            std::string(sr::to_string(s)));
    return {name == "strassen" ? strassen : winograd};
  }
  const sr::CpuAlgo a = sr::parse_cpu_algo(name);
  return {{std::string(sr::to_string(a)), a, 0, false}};
}

struct Row {
  std::string algo;
  int levels = 0;
  double ms = 0, gops = 0;
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

template <class T>
sr::Matrix<T> load(const std::string& path) {
  const gdp::io::NpyArray a = gdp::io::read_npy(path);
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

template <class T>
std::vector<double> reference_of(const sr::Matrix<T>& a, const sr::Matrix<T>& b, sr::Semiring s, int threads) {
  if (std::is_floating_point_v<T> && s == sr::Semiring::plus_times) {
    sr::Matrix<double> a64(a.rows, a.cols), b64(b.rows, b.cols);
    for (std::size_t i = 0; i < a.data.size(); ++i) a64.data[i] = static_cast<double>(a.data[i]);
    for (std::size_t i = 0; i < b.data.size(); ++i) b64.data[i] = static_cast<double>(b.data[i]);
    return sr::multiply_cpu(a64, b64, s, sr::CpuAlgo::openmp, threads).data;
  }
  const auto c = sr::multiply_cpu(a, b, s, sr::CpuAlgo::ijk);
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
  if (o.format == "json") {
    for (const Row& r : rows) {
      nlohmann::ordered_json j;
      j["algorithm"] = r.algo;
      j["type"] = gdp::io::to_string(type);
      j["semiring"] = sr::to_string(s);
      j["m"] = m, j["k"] = k, j["n"] = n, j["batch"] = o.batch, j["levels"] = r.levels;
      j["ms"] = r.ms;
      j["gops"] = r.gops;
      j["max_error"] = r.checked ? nlohmann::ordered_json(r.max_error) : nlohmann::ordered_json();
      j["avg_error"] = r.checked ? nlohmann::ordered_json(r.avg_error) : nlohmann::ordered_json();
      out << j.dump() << "\n";
    }
    return;
  }
  if (o.format == "tsv") {
    out << "#algorithm\ttype\tsemiring\tm\tk\tn\tbatch\tlevels\tms\tgops\tmax_error\tavg_error\n";
    for (const Row& r : rows)
      out << r.algo << '\t' << gdp::io::to_string(type) << '\t' << sr::to_string(s) << '\t' << m << '\t' << k << '\t'
          << n << '\t' << o.batch << '\t' << r.levels << '\t' << r.ms << '\t' << r.gops << '\t' << error_text(r, r.max_error) << '\t'
          << error_text(r, r.avg_error) << '\n';
    return;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%-10s %-5s %-10s %-20s %6s %6s %12s %12s %12s %12s\n", "algorithm", "type",
                "semiring", "shape", "batch", "levels", "ms", "G ops/s", "max error", "avg error");
  out << line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof line, "%-10s %-5s %-10s %-20s %6d %6d %12.3f %12.3f %12s %12s\n", r.algo.c_str(),
                  std::string(gdp::io::to_string(type)).c_str(), std::string(sr::to_string(s)).c_str(),
                  shape.c_str(), o.batch, r.levels, r.ms, r.gops, error_text(r, r.max_error).c_str(),
                  error_text(r, r.avg_error).c_str());
    out << line;
  }
}

template <class T>
void run_typed(const MmOptions& o, const gdp::app::CommonOptions& common, sr::Semiring s,
               const std::vector<Algo>& algos, gdp::TimingReport& report) {
  gdp::Timer timer;
  std::vector<sr::Matrix<T>> as, bs;
  const std::string a_name = o.a_path.empty() ? "A" : o.a_path, b_name = o.b_path.empty() ? "B" : o.b_path;
  if (!o.a_path.empty()) {
    as.push_back(load<T>(o.a_path));
    bs.push_back(load<T>(o.b_path));
  } else {
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
  report.add_phase("read", timer.seconds());

  const int threads = common.thread_count();
  const std::int64_t m = as[0].rows, k = as[0].cols, n = bs[0].cols;
  const double ops = 2.0 * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
  std::vector<Row> rows;
  sr::Matrix<T> last;
  double compute = 0;
  for (const Algo& algo : algos) {
    timer.restart();
    for (std::size_t i = 0; i < as.size(); ++i)
      last = algo.levels > 0 ? sr::multiply_recursive_cpu(as[i], bs[i], algo.winograd, algo.levels, algo.order, threads)
                             : sr::multiply_cpu(as[i], bs[i], s, algo.order, threads);
    const double seconds = timer.seconds();
    compute += seconds;
    Row r;
    r.algo = algo.name;
    r.levels = algo.levels;
    r.ms = seconds * 1e3 / static_cast<double>(as.size());
    r.gops = seconds > 0 ? ops * static_cast<double>(as.size()) / seconds / 1e9 : 0.0;
    if (o.check) {  // against the last product of the batch
      std::tie(r.max_error, r.avg_error) = errors(last, reference_of(as.back(), bs.back(), s, threads));
      r.checked = true;
    }
    rows.push_back(r);
  }
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
  const std::vector<Algo> algos = parse_algos(o.algo, o.levels, s);
  if (o.a_path.empty() != o.b_path.empty()) throw gdp::InputError("--a and --b go together");
  gdp::io::DType type = o.type.empty() ? gdp::io::DType::f32 : gdp::io::parse_dtype(o.type);
  if (!o.a_path.empty()) {
    if (o.m || o.k || o.n) throw gdp::InputError("--m, --k and --n are for random inputs; --a and --b bring their own");
    if (o.batch != 1) throw gdp::InputError("--batch takes random inputs (--n, or --m --k --n)");
    const gdp::io::DType ta = gdp::io::read_npy(o.a_path).dtype, tb = gdp::io::read_npy(o.b_path).dtype;
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

  gdp::app::run_on_cpu_for_now(tool, common);

  gdp::TimingReport report;
  report.tool = tool;
  report.work_unit = "operations";
  switch (type) {
    case gdp::io::DType::f32: run_typed<float>(o, common, s, algos, report); break;
    case gdp::io::DType::f64: run_typed<double>(o, common, s, algos, report); break;
    case gdp::io::DType::i32: run_typed<std::int32_t>(o, common, s, algos, report); break;
  }
  if (!common.report.empty()) {
    report.backend = "cpu-" + o.algo;
    report.device = gdp::cpu_name();
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
  app.add_option("--algo", o.algo, "ijk | ikj | openmp | strassen | winograd | all")->capture_default_str();
  app.add_option("--levels", o.levels, "Recursion levels of strassen and winograd, 1 to 4")->capture_default_str();
  app.add_option("--batch", o.batch, "Independent products of random inputs")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_flag("--check", o.check, "Compare with the reference: float64 for plus-times on floats, else exact");
  app.add_option("--format", o.format, "table | tsv | json")->capture_default_str();
  gdp::app::add_common_options(app, common);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
