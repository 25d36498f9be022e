// gpu-mm's engine and writers without the executable: the algorithms each
// --algo name stands for, a CPU run checked against its reference, the
// enum names, and the three output formats byte for byte.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "core/build.hpp"
#include "core/error.hpp"
#include "io/mm_writer.hpp"
#include "io/npy.hpp"
#include "semiring/benchmark.hpp"

using namespace gdp;
using namespace gdp::semiring;
using Catch::Matchers::Equals;
using Catch::Matchers::Message;

namespace {

template <class T>
std::vector<std::string> names(const BenchmarkOptions& o) {
  std::vector<std::string> v;
  for (const Algorithm& a : plan_algorithms<T>(o)) v.push_back(a.name);
  return v;
}

}  // namespace

TEST_CASE("gpu-mm's --algo names: every algorithm the side, type and semiring allow", "[mm]") {
  using V = std::vector<std::string>;
  CHECK(names<float>({.algo = "all"}) == V{"ijk", "ikj", "openmp", "strassen", "winograd"});
  CHECK(names<std::int32_t>({.semiring = Semiring::max_plus, .algo = "all"}) == V{"ijk", "ikj", "openmp"});
  CHECK(names<double>({}) == V{"openmp"});
  CHECK(names<float>({.algo = "all", .gpu = true}) == V{"classic", "cublas", "strassen+classic", "strassen+cublas",
                                                        "winograd+classic", "winograd+cublas"});
  CHECK(names<std::int32_t>({.algo = "all", .gpu = true}) == V{"classic", "strassen+classic", "winograd+classic"});
  CHECK(names<std::int32_t>({.semiring = Semiring::min_plus, .algo = "all", .gpu = true}) == V{"classic"});
  CHECK(names<float>({.gpu = true}) == V{"classic"});
  CHECK(names<double>({.algo = "winograd", .base = "cublas", .gpu = true}) == V{"winograd+cublas"});

  const auto strassen = plan_algorithms<float>({.algo = "strassen", .levels = 3, .repeat = 5, .gpu = true, .device = 2});
  REQUIRE(strassen.size() == 1);
  CHECK(strassen[0].levels == 3);
  CHECK(strassen[0].request.algo == GpuAlgo::strassen);
  CHECK(strassen[0].request.levels == 3);
  CHECK(strassen[0].request.repeat == 5);
  CHECK(strassen[0].request.device == 2);
  CHECK_FALSE(strassen[0].request.cublas_base);
  const auto winograd = plan_algorithms<float>({.algo = "winograd", .levels = 2});
  CHECK((winograd[0].winograd && winograd[0].levels == 2 && !winograd[0].gpu));
}

TEST_CASE("gpu-mm's --algo names refused, each with its message", "[mm]") {
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.algo = "fast"}), InputError,
                       Message("unknown CPU algorithm 'fast' (use ijk, ikj or openmp)"));
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.algo = "fast", .gpu = true}), InputError,
                       Message("unknown GPU algorithm 'fast' (use classic, cublas, strassen, winograd or all; ijk, "
                               "ikj and openmp take --cpu)"));
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.algo = "strassen", .base = "fast", .gpu = true}), InputError,
                       Message("unknown --base 'fast' (use classic or cublas)"));
  CHECK_THROWS_MATCHES(plan_algorithms<std::int32_t>({.algo = "cublas", .gpu = true}), InputError,
                       Message("cuBLAS has plus-times on f32 and f64 only, not plus-times on i32"));
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.semiring = Semiring::max_plus, .algo = "winograd"}), InputError,
                       Message("--algo winograd needs subtraction: it runs plus-times only, not max-plus"));
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.algo = "classic"}), InputError,
                       Message("--algo classic runs on the GPU; on the CPU use ijk, ikj, openmp, strassen or winograd"));
  CHECK_THROWS_MATCHES(plan_algorithms<float>({.algo = "strassen", .base = "cublas"}), InputError,
                       Message("--base is for the GPU's strassen and winograd"));
}

TEST_CASE("gpu-mm's engine on the CPU: given and random inputs, checked", "[mm]") {
  // A = [[1, 2], [3, 4]], B = [[10, 0], [0, 10]]: C(i,j) = max_k A(i,k) + B(k,j).
  BenchmarkInputs<std::int32_t> given;
  given.a = {Matrix<std::int32_t>(2, 2)};
  given.b = {Matrix<std::int32_t>(2, 2)};
  given.a[0].data = {1, 2, 3, 4};
  given.b[0].data = {10, 0, 0, 10};
  const auto r = run_benchmark(given, {.semiring = Semiring::max_plus, .algo = "all", .check = true});
  CHECK(r.product.data == std::vector<std::int32_t>{11, 12, 13, 14});
  REQUIRE(r.rows.size() == 3);
  for (const BenchmarkRow& row : r.rows) CHECK((row.checked && row.max_error == 0 && row.avg_error == 0));
  CHECK((r.m == 2 && r.k == 2 && r.n == 2 && r.batch == 1));
  CHECK(r.operations == 3 * 2.0 * 8);

  // The same seed gives the same inputs, so the same exact product.
  const BenchmarkInputs<std::int32_t> random{.m = 9, .k = 7, .n = 5, .batch = 2, .seed = 4};
  const auto r1 = run_benchmark(random, {.algo = "ijk"});
  const auto r2 = run_benchmark(random, {.algo = "winograd", .levels = 2, .check = true, .threads = 2});
  CHECK(r1.product.data == r2.product.data);
  CHECK((r2.rows[0].checked && r2.rows[0].max_error == 0));
  CHECK_FALSE(r1.rows[0].checked);
  CHECK(r2.batch == 2);

  BenchmarkInputs<float> unchained{.a_name = "A.npy", .b_name = "B.npy"};
  unchained.a = {Matrix<float>(2, 2)};
  unchained.b = {Matrix<float>(3, 2)};
  CHECK_THROWS_MATCHES(run_benchmark(unchained, {}), InputError,
                       Message("B.npy: has 3 rows, but A.npy has 2 columns: the shapes do not chain"));
  if constexpr (!have_cuda) CHECK_THROWS_MATCHES(run_benchmark(random, {.gpu = true}), RunError, Message(no_cuda_message));
}

TEST_CASE("gpu-mm's enum names, both ways", "[mm]") {
  CHECK(to_string(Semiring::min_plus) == "min-plus");
  CHECK(parse_semiring("max-plus") == Semiring::max_plus);
  CHECK_THROWS_MATCHES(parse_semiring("max-times"), InputError,
                       Message("unknown semiring 'max-times' (use plus-times, max-plus or min-plus)"));
  CHECK(to_string(CpuAlgo::ikj) == "ikj");
  CHECK(parse_cpu_algo("openmp") == CpuAlgo::openmp);
  CHECK(to_string(GpuAlgo::winograd) == "winograd");
  CHECK(io::to_string(io::DType::f64) == "f64");
  CHECK(io::parse_dtype("i32") == io::DType::i32);
  CHECK_THROWS_MATCHES(io::parse_dtype("f16"), InputError, Message("unknown type 'f16' (use f32, f64 or i32)"));
  CHECK(io::parse_mm_format("json") == io::MmFormat::json);
  CHECK_THROWS_MATCHES(io::parse_mm_format("csv"), InputError, Message("unknown format 'csv' (use table, tsv or json)"));
}

TEST_CASE("gpu-mm's writers: table, TSV and JSON, byte for byte", "[mm][writers]") {
  const io::MmRun run{.type = io::DType::f32, .semiring = Semiring::plus_times, .m = 300, .k = 200, .n = 100, .batch = 3};
  const std::vector<BenchmarkRow> rows = {
      {.algo = "openmp", .ms = 1.5, .gops = 2.25},
      {.algo = "strassen+cublas",
       .levels = 2,
       .ms = 0.125,
       .gops = 1000,
       .vs_cublas = 1.23456,
       .checked = true,
       .max_error = 2.5e-7,
       .avg_error = 0}};
  auto written = [&](io::MmFormat format) {
    std::ostringstream out;
    io::write_mm_rows(format, out, run, rows);
    return out.str();
  };
  CHECK_THAT(written(io::MmFormat::table),
             Equals("algorithm        type  semiring   shape                 batch levels           ms      G ops/s  "
                    "vs cuBLAS    max error    avg error\n"
                    "openmp           f32   plus-times 300x200x100               3      0        1.500        2.250  "
                    "        -            -            -\n"
                    "strassen+cublas  f32   plus-times 300x200x100               3      2        0.125     1000.000  "
                    "    1.235      2.5e-07            0\n"));
  CHECK_THAT(written(io::MmFormat::tsv),
             Equals("#algorithm\ttype\tsemiring\tm\tk\tn\tbatch\tlevels\tms\tgops\tvs_cublas\tmax_error\tavg_error\n"
                    "openmp\tf32\tplus-times\t300\t200\t100\t3\t0\t1.5\t2.25\t-\t-\t-\n"
                    "strassen+cublas\tf32\tplus-times\t300\t200\t100\t3\t2\t0.125\t1000\t1.235\t2.5e-07\t0\n"));
  CHECK_THAT(written(io::MmFormat::json),
             Equals("{\"algorithm\":\"openmp\",\"type\":\"f32\",\"semiring\":\"plus-times\",\"m\":300,\"k\":200,"
                    "\"n\":100,\"batch\":3,\"levels\":0,\"ms\":1.5,\"gops\":2.25,\"vs_cublas\":null,"
                    "\"max_error\":null,\"avg_error\":null}\n"
                    "{\"algorithm\":\"strassen+cublas\",\"type\":\"f32\",\"semiring\":\"plus-times\",\"m\":300,"
                    "\"k\":200,\"n\":100,\"batch\":3,\"levels\":2,\"ms\":0.125,\"gops\":1000.0,"
                    "\"vs_cublas\":1.23456,\"max_error\":2.5e-07,\"avg_error\":0.0}\n"));
}
