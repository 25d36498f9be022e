// gpu-fold's GPU engine: every cell of its filled matrix equals CPU2's, on
// lengths around the 128-base block and across several diagonals of
// blocks, every --min-loop, with and without G-U; and the structures it
// gives are the oracle's. [gpu]: skipped without a GPU (gpu_test.hpp).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/build.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "fold/fold.hpp"
#include "fold/table.hpp"
#include "gpu_test.hpp"

using namespace gdp;
using namespace gdp::fold;

namespace {

// Options with `rules` and `threads`, the rest as they default.
Options options_of(const Rules& rules, int threads = 1) {
  Options o;
  o.rules = rules;
  o.threads = threads;
  return o;
}

std::string random_rna(std::mt19937& rng, std::size_t n, bool gc_rich) {
  std::uniform_int_distribution<int> d(0, gc_rich ? 5 : 3);
  std::string s(n, 'A');
  for (auto& c : s) c = "ACGUGC"[d(rng)];
  return s;
}

}  // namespace

TEST_CASE("GPU Nussinov fills every cell as the CPU does", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {  // fill_gpu and fill_gpu_batch exist only with CUDA
    std::mt19937 rng(17);
    int round = 0;
    for (std::size_t n : {0, 1, 2, 5, 97, 127, 128, 129, 255, 256, 257, 383, 384, 385, 509, 640, 1021, 1500})
      for (int min_loop : {0, 1, 3, 4}) {
        ++round;
        const std::string s = random_rna(rng, n, round % 3 == 0);
        const Rules r{round % 2 == 0, min_loop};
        INFO("n " << n << " min loop " << min_loop << " gu " << r.gu);
        FoldTiming timing;
        const Table gpu = fill_gpu(s, options_of(r), timing);
        const Table cpu = fill_cpu(s, Engine::omp2, options_of(r, 4));
        REQUIRE(gpu.n == cpu.n);
        for (std::size_t i = 0; i < s.size(); ++i)
          for (std::size_t j = i + 1; j < s.size(); ++j) {
            INFO("cell " << i << ", " << j);
            REQUIRE(gpu.at(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j)) ==
                    cpu.at(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j)));
          }
        const Structure a = fold_rna(s, Engine::gpu, options_of(r)), b = fold_rna(s, Engine::cpu2, options_of(r));
        REQUIRE(a.pairs == b.pairs);
        REQUIRE(a.dot_bracket == b.dot_bracket);
      }
  }
}

TEST_CASE("GPU Nussinov on many short records at once fills every cell as the CPU does", "[gpu][fold]") {
  // One block a record with its table in shared memory, up to about 480
  // bases on an H100; longer records of the batch take the blocked path.
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {  // fill_gpu and fill_gpu_batch exist only with CUDA
    std::mt19937 rng(20);
    for (int min_loop : {0, 1, 3, 4})
      for (bool gu : {true, false}) {
        const Rules r{gu, min_loop};
        std::vector<std::string> rnas;
        for (std::size_t n : {0, 1, 2, 3, 5, 31, 100, 127, 128, 129, 200, 300, 400, 470, 479, 480, 481, 511, 600})
          rnas.push_back(random_rna(rng, n, n % 2 == 1));
        const std::vector<std::string_view> views(rnas.begin(), rnas.end());
        double seconds = 0;
        const std::vector<Table> tables = fill_gpu_batch(views, options_of(r), seconds);
        const std::vector<Structure> structures = fold_rnas_gpu(views, options_of(r, 4));
        REQUIRE(tables.size() == rnas.size());
        REQUIRE(structures.size() == rnas.size());
        for (std::size_t x = 0; x < rnas.size(); ++x) {
          const Table cpu = fill_cpu(rnas[x], Engine::cpu2, options_of(r));
          INFO("n " << rnas[x].size() << " min loop " << min_loop << " gu " << gu);
          REQUIRE(tables[x].n == cpu.n);
          std::int64_t differ = 0;
          for (std::int64_t i = 0; i < cpu.n; ++i)
            for (std::int64_t j = i + 1; j < cpu.n; ++j) differ += tables[x].at(i, j) != cpu.at(i, j);
          REQUIRE(differ == 0);
          const Structure want = fold_rna(rnas[x], Engine::cpu2, options_of(r));
          REQUIRE(structures[x].pairs == want.pairs);
          REQUIRE(structures[x].dot_bracket == want.dot_bracket);
        }
      }
  }
}

TEST_CASE("GPU Nussinov on more short records than one launch holds", "[gpu][fold]") {
  // 2,800 records of 470 bases: 309 million cells, two launches of at most 2^28.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(21);
  std::vector<std::string> rnas;
  for (int x = 0; x < 2800; ++x) rnas.push_back(random_rna(rng, 470, x % 3 == 0));
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  const Rules r{true, 3};
  const std::vector<Structure> gpu = fold_rnas_gpu(views, options_of(r, 16));
  std::vector<int> cpu_pairs(rnas.size());
#pragma omp parallel for schedule(dynamic)
  for (std::size_t x = 0; x < rnas.size(); ++x) cpu_pairs[x] = fold_rna(rnas[x], Engine::cpu2, options_of(r)).pairs;
  for (std::size_t x = 0; x < rnas.size(); ++x) {
    INFO("record " << x);
    REQUIRE(gpu[x].pairs == cpu_pairs[x]);
  }
}

TEST_CASE("GPU Nussinov on a longer RNA equals OMP2", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(18);
  const std::string s = random_rna(rng, 4000, true);
  const Rules r{true, 3};
  FoldTiming timing;
  const Structure gpu = fold_rna(s, Engine::gpu, options_of(r), &timing);
  const Structure cpu = fold_rna(s, Engine::omp2, options_of(r, 8));
  REQUIRE(gpu.pairs == cpu.pairs);
  REQUIRE(gpu.dot_bracket == cpu.dot_bracket);
  REQUIRE(timing.fill_seconds > 0);
}

TEST_CASE("GPU Nussinov's packed 16-bit table, copied in pieces of rows, equals its full table", "[gpu][fold]") {
  // 12,000 bases: 72 million cells, two pieces of rows of at most 2^26.
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {  // fill_gpu and fill_gpu_batch exist only with CUDA
    std::mt19937 rng(19);
    const std::string s = random_rna(rng, 12000, false);
    const Rules r{true, 1};
    FoldTiming timing, full_timing;
    const Table packed = fill_gpu(s, options_of(r), timing);
    const Table full = fill_gpu(s, options_of(r), full_timing, false);
    REQUIRE(packed.packed);
    REQUIRE(full.c);
    REQUIRE(timing.copy_seconds > 0);
    std::int64_t differ = 0;
    for (std::int64_t i = 0; i < packed.n; ++i)
      for (std::int64_t j = i + 1; j < packed.n; ++j) differ += packed.at(i, j) != full.at(i, j);
    REQUIRE(differ == 0);
    REQUIRE(packed.at(0, packed.n - 1) > 0);
  }
}

TEST_CASE("GPU Nussinov refuses a sequence too long for the device, saying how long would fit", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {  // fill_gpu and fill_gpu_batch exist only with CUDA
    const std::string s(400000, 'A');  // 640 GB of matrix: more than any GPU has
    FoldTiming timing;
    REQUIRE_THROWS_WITH(fill_gpu(s, {}, timing),
                        Catch::Matchers::Contains("a sequence of 400000 bases needs") &&
                            Catch::Matchers::Contains("enough for about"));
  }
}

TEST_CASE("GPU Nussinov's table is the same however finely k is sliced (GpuTuning)", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(22);
    const std::string s = random_rna(rng, 2500, true);
    const Rules r{true, 3};
    const Table cpu = fill_cpu(s, Engine::omp2, options_of(r, 8));
    for (const GpuTuning tuning : {GpuTuning{}, GpuTuning{1, 16}, GpuTuning{64, 16}, GpuTuning{2, 4096}}) {
      INFO("rounds " << tuning.rounds << " min slice " << tuning.min_slice);
      FoldTiming timing;
      Options options = options_of(r);
      options.tuning = tuning;
      const Table gpu = fill_gpu(s, options, timing);
      std::int64_t differ = 0;
      for (std::int64_t i = 0; i < cpu.n; ++i)
        for (std::int64_t j = i + 1; j < cpu.n; ++j) differ += gpu.at(i, j) != cpu.at(i, j);
      REQUIRE(differ == 0);
    }
  }
}

TEST_CASE("fold_all on the GPU: long records alone, short ones many a launch, as the CPU folds them", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(23);
  std::vector<std::string> rnas;
  for (std::size_t n : {1, 700, 20, 511, 512, 130, 2})
    rnas.push_back(random_rna(rng, n, n % 2 == 0));
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  const Options options = options_of(Rules{false, 1}, 4);
  for (const bool asked : {false, true}) {
    AllOptions all;
    all.options = options;
    all.use_gpu = true;
    if (asked) all.engine = Engine::gpu;
    const AllResult got = fold_all(views, all);
    REQUIRE(got.backend == "gpu");
    REQUIRE(got.gpu_started);
    REQUIRE(got.gpu.fill_seconds > 0);
    for (std::size_t x = 0; x < rnas.size(); ++x) {
      INFO("record " << x << " engine asked " << asked);
      REQUIRE(got.structures[x].dot_bracket == fold_rna(rnas[x], Engine::cpu2, options).dot_bracket);
    }
  }
}

// Spread over devices: GPU 0 twice (two host threads on one GPU) where
// there is one, and every GPU found; the same structures as on one.
TEST_CASE("fold_all over several GPUs: each record to the least loaded, the structures as on one", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(29);
  std::vector<std::string> rnas;
  for (std::size_t n : {700, 20, 511, 512, 1300, 130, 2, 90, 600, 45, 1})
    rnas.push_back(random_rna(rng, n, n % 3 == 0));
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  const Options options = options_of(Rules{true, 3}, 4);
  std::vector<int> every;
  for (const GpuInfo& g : list_gpus()) every.push_back(g.id);
  for (const std::vector<int>& devices : {std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}, every}) {
    AllOptions all;
    all.options = options;
    all.use_gpu = true;
    all.devices = devices;
    const AllResult got = fold_all(views, all);
    REQUIRE(got.backend == "gpu");
    REQUIRE(got.gpu.fill_seconds > 0);
    for (std::size_t x = 0; x < rnas.size(); ++x) {
      INFO("record " << x << " over " << devices.size() << " devices");
      REQUIRE(got.structures[x].dot_bracket == fold_rna(rnas[x], Engine::cpu2, options).dot_bracket);
    }
  }
}

TEST_CASE("GPU Nussinov reads N and the other IUPAC codes as bases that pair with nothing, as the CPU does", "[gpu][fold]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(23);
  std::vector<std::string> rnas;
  for (const std::size_t n : {5, 40, 300, 511, 512, 700}) {
    std::string s = random_rna(rng, n, n % 2 == 0);
    for (std::size_t x = 1; x < n; x += 3) s[x] = kUnpairedBases[x % kUnpairedBases.size()];
    rnas.push_back(s);
  }
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  const Rules r{true, 3};
  const std::vector<Structure> batch = fold_rnas_gpu(views, options_of(r, 4));
  for (std::size_t x = 0; x < rnas.size(); ++x) {
    INFO(rnas[x].size() << " bases");
    const Structure cpu = fold_rna(rnas[x], Engine::cpu1, options_of(r));
    CHECK(batch[x].dot_bracket == cpu.dot_bracket);
    CHECK(fold_rna(rnas[x], Engine::gpu, options_of(r)).dot_bracket == cpu.dot_bracket);
  }
}
