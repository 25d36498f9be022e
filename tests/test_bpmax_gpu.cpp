// gpu-fold --interact's GPU engine: the products' score and structure
// (which are the oracle's: test_bpmax.cpp) on pairs of many shapes, around
// the 128-base block and across several diagonals of blocks, both strand
// orders, N bases and other weights; every structure weighs its score; a
// pair too large for the device is refused. [gpu]: skipped without a GPU
// (gpu_test.hpp).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/build.hpp"
#include "core/error.hpp"
#include "fold/bpmax.hpp"
#include "gpu_test.hpp"

using namespace gdp;

namespace {

std::string random_strand(std::mt19937& rng, std::size_t n, bool with_n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGUN"[rng() % (with_n ? 5 : 4)];
  return s;
}

}  // namespace

TEST_CASE("BPMax on the GPU gives the products' score and structure", "[gpu][bpmax]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {  // interact_gpu exists only with CUDA
    std::mt19937 rng(404);
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
        {1, 1},   {1, 2},   {2, 1},   {4, 5},   {5, 4},   {1, 127}, {1, 128}, {1, 129}, {2, 255},
        {3, 256}, {2, 257}, {4, 130}, {130, 3}, {6, 300}, {8, 260}, {3, 385}, {12, 40}, {5, 640}};
    for (std::size_t trial = 0; trial < shapes.size() + 12; ++trial) {
      const auto [la, lb] = trial < shapes.size() ? shapes[trial]
                                                  : std::pair<std::size_t, std::size_t>{1 + rng() % 10, 1 + rng() % 300};
      const std::string a = random_strand(rng, la, trial % 4 == 1), b = random_strand(rng, lb, trial % 5 == 2);
      const fold::PairWeights w = trial % 3 == 0 ? fold::PairWeights{1, 1, 1} : fold::PairWeights{};
      INFO("trial " << trial << ": " << la << " x " << lb);
      fold::InteractionTiming timing;
      const fold::Interaction gpu = fold::interact_gpu(a, b, w, 0, &timing);
      const fold::Interaction cpu = fold::interact_products(a, b, w, 4);
      REQUIRE(gpu.score == cpu.score);
      REQUIRE(gpu.structure == cpu.structure);
      REQUIRE(gpu.pairs == cpu.pairs);
      REQUIRE(fold::structure_weight(a, b, gpu.pairs, w) == gpu.score);
      CHECK(timing.traced_tiles > 0);
    }
  }
}

TEST_CASE("BPMax on the GPU with a window gives the products' score and structure", "[gpu][bpmax]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(505);
    // (strand 1, strand 2, window on 1, window on 2): bands of one to five
    // blocks, edges either side of a block, rows narrower than the matrix
    // (a stride of the band) and as wide, the longer strand first, windows
    // longer than the strands, and none at all on one strand.
    struct Shape {
      std::size_t la, lb;
      long long w1, w2;
    };
    const std::vector<Shape> shapes = {
        {1, 1, 0, 0},     {3, 200, 2, 0},   {3, 300, 2, 4},     {4, 640, 3, 100},  {5, 640, 2, 127},
        {5, 640, 4, 128}, {3, 640, 2, 129}, {4, 700, 3, 255},   {3, 700, 2, 256},  {6, 520, 3, 257},
        {8, 600, 5, 60},  {640, 6, 90, 4}, {7, 300, 100, 1000}, {6, 385, fold::InteractionWindow::kWhole, 200},
        {12, 90, 4, fold::InteractionWindow::kWhole}};
    for (std::size_t trial = 0; trial < shapes.size() + 10; ++trial) {
      const Shape shape = trial < shapes.size() ? shapes[trial]
                                                : Shape{1 + rng() % 8, 1 + rng() % 500, static_cast<long long>(rng() % 8),
                                                        static_cast<long long>(rng() % 300)};
      const std::string a = random_strand(rng, shape.la, trial % 4 == 1), b = random_strand(rng, shape.lb, trial % 5 == 2);
      const fold::PairWeights w = trial % 3 == 0 ? fold::PairWeights{1, 1, 1} : fold::PairWeights{};
      const fold::InteractionWindow window{shape.w1, shape.w2};
      INFO("trial " << trial << ": " << shape.la << " x " << shape.lb << ", window " << shape.w1 << "," << shape.w2);
      const fold::Interaction gpu = fold::interact_gpu(a, b, w, 0, nullptr, window);
      const fold::Interaction cpu = fold::interact_products(a, b, w, 4, window);
      REQUIRE(gpu.score == cpu.score);
      REQUIRE(gpu.structure == cpu.structure);
      REQUIRE(gpu.pairs == cpu.pairs);
      REQUIRE(fold::structure_weight(a, b, gpu.pairs, w) == gpu.score);
    }
  }
}

TEST_CASE("BPMax on the GPU: the original program's scores", "[gpu][bpmax]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    const fold::PairWeights w;  // halves
    CHECK(fold::interact_gpu("ACGU", "ACGU", w, 0).score == 16);
    CHECK(fold::interact_gpu("GGGAAACCC", "GGGUUUCCC", w, 0).score == 42);
    CHECK(fold::interact_gpu("ACCGCCGUCUUCGAGGAAAG", "CCCGGCUGCUAGCUAGGAGAAAUCGCGCAUUU", w, 0).score == 104);
    CHECK(fold::interact_gpu("CGCGCUGGAUAAAUAUAGGACCAGGAAU", "GCUCGGAUAGAGCUAGGAGAAAUCGCGCCGCUAGA", w, 0).score == 105);
  }
}

TEST_CASE("BPMax on the GPU refuses a pair too large for the device, saying how much it needs", "[gpu][bpmax]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    const std::string a(2000, 'G'), b(60000, 'C');  // 2e6 matrices of 60,032^2 ints
    try {
      fold::interact_gpu(a, b, fold::PairWeights{}, 0);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains("GB of GPU memory"));
    }
  }
}
