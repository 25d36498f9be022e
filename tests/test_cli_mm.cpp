// End-to-end tests of gpu-mm: the real binary, in a fresh directory, with
// --cpu so that no message depends on the machine's GPUs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>
#include <sstream>

#include "cli_run.hpp"
#include "gpu_test.hpp"
#include "io/npy.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("mm") {}
  gdp::test::RunResult run(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return gdp::test::run_program(GPU_MM_EXE, args, dir());
  }
  template <class T>
  std::string npy(const std::string& name, std::int64_t rows, std::int64_t cols, const std::vector<T>& v) const {
    gdp::io::write_npy(path(name), gdp::io::dtype_of<T>(), rows, cols, v.data());
    return path(name);
  }
};

std::vector<std::vector<std::string>> tsv_rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream l(line);
    for (std::string c; std::getline(l, c, '\t');) cols.push_back(c);
    rows.push_back(cols);
  }
  return rows;
}

}  // namespace

TEST_CASE("gpu-mm: max-plus of two .npy files, worked by hand", "[cli][mm]") {
  Sandbox box;
  // A = [[1, 2], [3, 4]], B = [[10, 0], [0, 10]]: C(i,j) = max_k A(i,k) + B(k,j).
  const std::string a = box.npy<std::int32_t>("A.npy", 2, 2, {1, 2, 3, 4});
  const std::string b = box.npy<std::int32_t>("B.npy", 2, 2, {10, 0, 0, 10});
  const auto r = box.run({"--a", a, "--b", b, "--semiring", "max-plus", "--out", box.path("C.npy"), "--check",
                          "--format", "tsv"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto c = gdp::io::items<std::int32_t>(gdp::io::read_npy(box.path("C.npy")), "C.npy");
  REQUIRE(c == std::vector<std::int32_t>{11, 12, 13, 14});
  const auto rows = tsv_rows(r.out);
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0][0] == "openmp");
  REQUIRE(rows[0][1] == "i32");
  REQUIRE(rows[0][11] == "0");  // max error: exact
}

TEST_CASE("gpu-mm --check: a NaN in the inputs makes the errors NaN, not 0", "[cli][mm]") {
  Sandbox box;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::string a = box.npy<float>("A.npy", 2, 2, {1.0f, nan, 3.0f, 4.0f});
  const std::string b = box.npy<float>("B.npy", 2, 2, {1.0f, 0.0f, 0.0f, 1.0f});
  const auto r = box.run({"--a", a, "--b", b, "--check", "--format", "tsv"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = tsv_rows(r.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][11] == "nan");
  CHECK(rows[0][12] == "nan");
}

TEST_CASE("gpu-mm: every CPU algorithm on random inputs, table, TSV and JSON", "[cli][mm]") {
  Sandbox box;
  const auto table = box.run({"--m", "40", "--k", "30", "--n", "20", "--algo", "all", "--check"});
  INFO(table.err);
  REQUIRE(table.status == 0);
  REQUIRE_THAT(table.out, Contains("algorithm") && Contains("ijk") && Contains("ikj") && Contains("openmp") &&
                              Contains("strassen") && Contains("winograd") && Contains("40x30x20"));
  const auto tsv = box.run({"--n", "16", "--type", "f64", "--semiring", "min-plus", "--algo", "ikj", "--batch", "3",
                            "--format", "tsv", "--check"});
  REQUIRE(tsv.status == 0);
  const auto rows = tsv_rows(tsv.out);
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0][1] == "f64");
  REQUIRE(rows[0][2] == "min-plus");
  REQUIRE(rows[0][6] == "3");
  REQUIRE(rows[0][11] == "0");
  const auto json = box.run({"--n", "8", "--format", "json"});
  REQUIRE(json.status == 0);
  REQUIRE_THAT(json.out, Contains("\"algorithm\":\"openmp\"") && Contains("\"max_error\":null"));
}

TEST_CASE("gpu-mm: Strassen and Winograd on int32 equal the classical product", "[cli][mm]") {
  Sandbox box;
  for (const std::string algo : {"strassen", "winograd"}) {
    const auto r = box.run({"--m", "33", "--k", "20", "--n", "17", "--type", "i32", "--algo", algo, "--levels", "3",
                            "--check", "--format", "tsv"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto rows = tsv_rows(r.out);
    REQUIRE(rows[0][0] == algo);
    REQUIRE(rows[0][7] == "3");
    REQUIRE(rows[0][11] == "0");
  }
}

TEST_CASE("gpu-mm: float plus-times is checked against float64", "[cli][mm]") {
  Sandbox box;
  const auto r = box.run({"--n", "64", "--check", "--format", "tsv"});
  REQUIRE(r.status == 0);
  const double max_error = std::stod(tsv_rows(r.out)[0][11]);
  REQUIRE(max_error > 0);     // float32 rounding shows
  REQUIRE(max_error < 1e-4);  // and stays small
}

TEST_CASE("gpu-mm: bad input is one line, exit 2, and no output file", "[cli][mm]") {
  Sandbox box;
  const std::string a = box.npy<float>("A.npy", 2, 3, std::vector<float>(6, 1.0f));
  const std::string b = box.npy<float>("B.npy", 2, 2, std::vector<float>(4, 1.0f));
  const std::string i = box.npy<std::int32_t>("I.npy", 3, 2, std::vector<std::int32_t>(6, 1));
  const std::string big = box.npy<std::int32_t>("big.npy", 3, 2, std::vector<std::int32_t>(6, 1 << 30));
  const std::string a32 = box.npy<std::int32_t>("A32.npy", 2, 3, std::vector<std::int32_t>(6, 1));
  box.write("text.npy", "not an array\n");
  fs::create_directory(box.path("dir"));
  struct Case {
    std::vector<std::string> args;
    std::string words;
  };
  const std::vector<Case> cases = {
      {{"--a", a, "--b", b}, "do not chain"},
      {{"--a", a, "--b", i}, "holds i32 but"},
      {{"--a", box.path("text.npy"), "--b", b}, "not a NumPy"},
      {{"--a", box.path("missing.npy"), "--b", b}, "cannot open: no such file"},
      {{"--a", box.path("dir"), "--b", b}, box.path("dir") + ": cannot read: is a directory"},
      {{"--n", "0"}, "--n: must be at least 1, not 0"},
      {{"--n", "2000000"}, "2000000 x 2000000 by 2000000 x 2000000 needs 45776367 MiB of host memory"},  // 48 TB
      {{"--m", "-3", "--n", "4"}, "--m: must be at least 1, not -3"},
      {{"--a", a32, "--b", big, "--semiring", "max-plus"}, "2^30"},
      {{"--a", a, "--b", b, "--type", "f64"}, "not --type f64"},
      {{"--n", "4", "--semiring", "max-times"}, "unknown semiring"},
      {{"--n", "4", "--algo", "fast"}, "unknown CPU algorithm"},
      {{"--n", "4", "--algo", "strassen", "--semiring", "max-plus"}, "plus-times only"},
      {{"--n", "4", "--algo", "winograd", "--levels", "5"}, "--levels takes 1 to 4"},
      {{"--n", "4", "--algo", "classic"}, "runs on the GPU"},
      {{"--n", "4", "--algo", "strassen", "--base", "cublas"}, "--base is for the GPU"},
      {{"--n", "4", "--repeat", "0"}, "--repeat takes 1 or more"},
      {{"--a", a}, "go together"},
      {{}, "give the inputs"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--out", box.path("C.npy")});
    const auto r = box.run(args);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("gpu-mm: error: ") && Contains(c.words));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(box.path("C.npy")));
  }
  // The product's .npy bytes and the table would share standard output.
  const auto r = box.run({"--n", "4", "--out", "-"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("gpu-mm: error: --out - would mix"));
  CHECK(r.out.empty());
}

TEST_CASE("gpu-mm on the GPU: every algorithm checked, and the CPU's product", "[cli][mm][gpu]") {
  if (gdp::test::skip_without_gpu()) return;
  Sandbox box;
  auto gpu_run = [&](std::vector<std::string> args) { return gdp::test::run_program(GPU_MM_EXE, args, box.dir()); };
  const auto all = gpu_run({"--n", "150", "--algo", "all", "--levels", "2", "--check", "--format", "tsv"});
  INFO(all.err);
  REQUIRE(all.status == 0);
  const auto rows = tsv_rows(all.out);
  REQUIRE(rows.size() == 6);
  std::vector<std::string> names;
  for (const auto& r : rows) {
    names.push_back(r[0]);
    CHECK(std::stod(r[11]) < 1e-3);  // max error against float64
  }
  CHECK(names == std::vector<std::string>{"classic", "cublas", "strassen+classic", "strassen+cublas", "winograd+classic",
                                          "winograd+cublas"});
  CHECK(rows[1][10] == "1.000");  // cuBLAS against itself

  const auto tropical = gpu_run({"--m", "70", "--k", "45", "--n", "33", "--type", "i32", "--semiring", "max-plus",
                                 "--algo", "all", "--check", "--format", "tsv", "--batch", "3"});
  REQUIRE(tropical.status == 0);
  REQUIRE(tsv_rows(tropical.out).size() == 1);  // classic only: no cuBLAS, no recursion for max-plus
  CHECK(tsv_rows(tropical.out)[0][11] == "0");

  std::vector<std::int32_t> av(13 * 7), bv(7 * 9);
  for (std::size_t x = 0; x < av.size(); ++x) av[x] = static_cast<std::int32_t>(x * 37 % 101) - 50;
  for (std::size_t x = 0; x < bv.size(); ++x) bv[x] = static_cast<std::int32_t>(x * 53 % 89) - 44;
  const std::string a = box.npy<std::int32_t>("A.npy", 13, 7, av), b = box.npy<std::int32_t>("B.npy", 7, 9, bv);
  REQUIRE(gpu_run({"--a", a, "--b", b, "--semiring", "min-plus", "--out", box.path("gpu.npy")}).status == 0);
  REQUIRE(box.run({"--a", a, "--b", b, "--semiring", "min-plus", "--out", box.path("cpu.npy")}).status == 0);
  CHECK(box.read("gpu.npy") == box.read("cpu.npy"));
  const auto bad = gpu_run({"--n", "8", "--type", "i32", "--algo", "cublas"});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("cuBLAS has plus-times on f32 and f64 only"));
  const auto huge = gpu_run({"--n", "200000", "--out", box.path("huge.npy")});  // 480 GB: refused before it is made
  CHECK(huge.status == 2);
  CHECK_THAT(huge.err, Contains("gpu-mm: error: the random inputs: the product needs") && Contains("MiB of GPU memory"));
  CHECK_FALSE(fs::exists(box.path("huge.npy")));
}

TEST_CASE("gpu-mm --devices: refused with --cpu, with --device, and for a list it cannot read", "[cli][mm][devices]") {
  Sandbox box;
  auto check_refused = [](const gdp::test::RunResult& r, const std::string& words) {
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("gpu-mm: error: ") && Contains(words));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  check_refused(box.run({"--n", "8", "--devices", "0"}), "--cpu and --devices cannot be used together");
  auto gpu_run = [&](std::vector<std::string> args) { return gdp::test::run_program(GPU_MM_EXE, args, box.dir()); };
  check_refused(gpu_run({"--n", "8", "--devices", "0", "--device", "0"}), "--device excludes --devices");
  check_refused(gpu_run({"--n", "8", "--devices", "0,x"}), "--devices 0,x: ");  // no GPU, or no GPU x
}

TEST_CASE("gpu-mm --devices: every algorithm's product the same bytes as on one GPU", "[cli][mm][gpu][devices]") {
  if (gdp::test::skip_without_gpu()) return;
  Sandbox box;
  auto gpu_run = [&](std::vector<std::string> args) { return gdp::test::run_program(GPU_MM_EXE, args, box.dir()); };
  const std::size_t gpus = gdp::list_gpus().size();
  for (const std::string algo : {"classic", "cublas", "strassen", "winograd"}) {
    INFO(algo);
    const std::vector<std::string> product{"--m", "9000", "--k", "300", "--n", "2048", "--algo", algo, "--levels", "2"};
    auto one = product, all = product;
    one.insert(one.end(), {"--out", box.path("one.npy"), "--device", "0"});
    all.insert(all.end(), {"--out", box.path("all.npy"), "--devices", "all", "--report", box.path("report.json")});
    REQUIRE(gpu_run(one).status == 0);
    const auto r = gpu_run(all);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(box.read("one.npy") == box.read("all.npy"));
    if (gpus > 1)
      CHECK_THAT(box.read("report.json"), Contains("\"device\": \"" + std::to_string(gpus) + " x ") &&
                                              Contains("\"devices\": " + std::to_string(gpus)));
  }
}

TEST_CASE("gpu-mm has no --tune knobs: any key is one line and exit 2", "[cli][mm]") {
  Sandbox box;
  const auto r = box.run({"--n", "4", "--tune", "tile=64"});
  CHECK(r.status == 2);
  CHECK(r.err == "gpu-mm: error: --tune: unknown key 'tile' (known: none)\n");
  CHECK(r.out.empty());
  const auto bare = box.run({"--n", "4", "--tune", "tile"});
  CHECK(bare.status == 2);
  CHECK_THAT(bare.err, Contains("--tune takes key=value, not 'tile'"));
}

TEST_CASE("gpu-mm loads cuBLAS only when --algo or --base asks for it: it starts at once", "[cli][mm]") {
  Sandbox box;
  const std::string libs = gdp::test::libraries_of(GPU_MM_EXE, box.dir());
  CHECK_THAT(libs, Contains("libc.so"));  // ldd listed them
  CHECK_THAT(libs, !Contains("libcublas"));
}
