// gpu-align3's GPU pass against the CPU's on many shapes: lengths 0, 1, 2,
// a chunk's sides (16 rows of a, 32 columns of b) and one either side,
// primes, one sequence far longer than the others, related and unrelated
// sequences; the alignment with its passes on the GPU against the oracle. Without a GPU they report
// themselves skipped.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "align3/align3.hpp"
#include "align3/cpu/passes.hpp"
#include "align3/cuda/gpu_pass.hpp"
#include "align3_traced_cube.hpp"
#include "gpu_test.hpp"
#include "random_inputs.hpp"

using namespace gdp;

namespace {

using Seq = std::vector<std::uint8_t>;

struct Trio {
  Seq a, b, c;
};

// Three sequences of these lengths, related where `related` (b and c
// mutated from a's letters, then cut or padded to length).
Trio make_trio(std::mt19937& rng, std::size_t la, std::size_t lb, std::size_t lc, int alphabet, bool related) {
  Trio t;
  t.a = test::random_ranks(rng, la, alphabet);
  auto from_a = [&](std::size_t len) {
    Seq s = related ? test::mutate(rng, t.a, alphabet, 0.15) : test::random_ranks(rng, len, alphabet);
    s.resize(len);  // padded with letter 0
    return s;
  };
  t.b = from_a(lb);
  t.c = from_a(lc);
  return t;
}

}  // namespace

TEST_CASE("align3 GPU pass: the last layer equals the CPU's on many shapes", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme();
  std::mt19937 rng(2026);
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {0, 0, 0},   {1, 1, 1},    {0, 5, 7},    {5, 0, 3},   {4, 6, 0},    {2, 2, 2},    {31, 32, 33},
      {32, 32, 32}, {33, 31, 1},  {64, 65, 10}, {1, 100, 100}, {100, 1, 100}, {100, 100, 1}, {97, 89, 83},
      {70, 70, 70}, {5, 200, 3},  {129, 63, 40}, {15, 33, 40}, {16, 31, 9}, {17, 64, 50}, {48, 96, 33}};
  for (const auto& [la, lb, lc] : shapes)
    for (const bool related : {true, false})
      for (const int gap : {0, 4, 9}) {
        const Trio t = make_trio(rng, la, lb, lc, 4, related);
        INFO("lengths " << la << " x " << lb << " x " << lc << ", related " << related << ", gap " << gap);
        const auto cpu = align3::last_layer(t.a, t.b, t.c, dna, gap, 2);
        const auto gpu = align3::last_layer_gpu(t.a, t.b, t.c, dna, gap, 0);
        REQUIRE(gpu.size() == cpu.size());
        CHECK(gpu == cpu);
      }
}

TEST_CASE("align3 GPU pass: protein under BLOSUM62", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme prot = test::protein_scheme();
  std::mt19937 rng(17);
  for (const auto& [la, lb, lc] : std::vector<std::array<std::size_t, 3>>{{40, 50, 45}, {33, 64, 96}}) {
    const Trio t = make_trio(rng, la, lb, lc, prot.dim, true);
    CHECK(align3::last_layer_gpu(t.a, t.b, t.c, prot, 8, 0) == align3::last_layer(t.a, t.b, t.c, prot, 8, 2));
  }
}

TEST_CASE("align3 GPU split: the point equals the host's scan of the CPU's layers, ties included", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme();
  std::mt19937 rng(31);
  for (const int gap : {0, 4}) {  // gap 0: many equal sums
    const align3::SplitPass gpu = align3::gpu_split_pass(dna, gap, 0);
    const align3::SplitPass cpu = align3::split_by_layers(
        [&](align3::Residues x, align3::Residues y, align3::Residues z) { return align3::last_layer(x, y, z, dna, gap, 2); });
    for (const auto& [la, lb, lc] : std::vector<std::array<std::size_t, 3>>{
             {2, 0, 0}, {2, 5, 0}, {3, 1, 40}, {40, 33, 17}, {64, 70, 65}, {31, 100, 3}, {120, 90, 100}})
      for (const bool related : {true, false}) {
        const Trio t = make_trio(rng, la, lb, lc, 4, related);
        const std::size_t mid = la / 2;
        const align3::Residues a(t.a);
        INFO("lengths " << la << " x " << lb << " x " << lc << ", related " << related << ", gap " << gap);
        const align3::SplitPoint g = gpu(a.first(mid), a.subspan(mid), t.b, t.c);
        const align3::SplitPoint c = cpu(a.first(mid), a.subspan(mid), t.b, t.c);
        CHECK(g.j == c.j);
        CHECK(g.k == c.k);
        CHECK(g.sum == c.sum);
      }
  }
}

TEST_CASE("align3 on two devices: the split's two passes side by side give one device's point, score and alignment",
          "[gpu][align3][devices]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme(), prot = test::protein_scheme();
  std::mt19937 rng(37);
  std::vector<std::pair<int, int>> pairs{{0, 0}};  // GPU 0 twice: two threads, two sets of buffers
  if (list_gpus().size() >= 2) pairs.push_back({0, 1});
  for (const auto& [first, second] : pairs) {
    const align3::SplitPass one = align3::gpu_split_pass(dna, 0, 0);  // gap 0: many equal sums
    const align3::SplitPass two = align3::gpu_split_pass_on_two(dna, 0, first, second);
    for (const auto& [la, lb, lc] : std::vector<std::array<std::size_t, 3>>{
             {2, 0, 0}, {3, 1, 40}, {40, 33, 17}, {64, 70, 65}, {120, 90, 100}}) {
      const Trio t = make_trio(rng, la, lb, lc, 4, true);
      const align3::Residues a(t.a);
      INFO("lengths " << la << " x " << lb << " x " << lc << ", GPUs " << first << " and " << second);
      const align3::SplitPoint x = one(a.first(la / 2), a.subspan(la / 2), t.b, t.c);
      const align3::SplitPoint y = two(a.first(la / 2), a.subspan(la / 2), t.b, t.c);
      CHECK(x.j == y.j);
      CHECK(x.k == y.k);
      CHECK(x.sum == y.sum);
      CHECK(y.sum == align3::score_scalar(t.a, t.b, t.c, dna, 0));
    }
    align3::Options single;
    single.backend = align3::Backend::gpu;
    single.min_gpu_cells = 0;
    single.gap = 8;
    single.gpu_face_bytes = 1 << 14;  // small: the cube divided before it is chained
    for (const auto& [la, lb, lc] : std::vector<std::array<std::size_t, 3>>{{1, 50, 60}, {90, 80, 70}, {150, 40, 130}}) {
      const Trio t = make_trio(rng, la, lb, lc, 20, true);
      INFO("lengths " << la << " x " << lb << " x " << lc << ", GPUs " << first << " and " << second);
      align3::Options spread = single;
      spread.devices = {first, second};
      for (const bool score_only : {true, false}) {
        single.score_only = spread.score_only = score_only;
        const align3::Alignment want = align3::align(t.a, t.b, t.c, prot, single);
        const align3::Alignment got = align3::align(t.a, t.b, t.c, prot, spread);
        CHECK(got.score == want.score);
        CHECK(got.moves == want.moves);
      }
    }
  }
}

TEST_CASE("align3 on the GPU: the score and the linear-space alignment equal the oracle's", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme();
  std::mt19937 rng(99);
  align3::Options gpu;
  gpu.backend = align3::Backend::gpu;
  gpu.min_gpu_cells = 0;
  gpu.gap = 4;
  for (const auto& [la, lb, lc] : std::vector<std::array<std::size_t, 3>>{{60, 70, 80}, {1, 90, 90}, {45, 33, 70}}) {
    const Trio t = make_trio(rng, la, lb, lc, 4, true);
    INFO("lengths " << la << " x " << lb << " x " << lc);
    const int oracle = align3::score_scalar(t.a, t.b, t.c, dna, 4);
    gpu.score_only = true;
    CHECK(align3::align(t.a, t.b, t.c, dna, gpu).score == oracle);
    const align3::LayerPass layer = [&](align3::Residues x, align3::Residues y, align3::Residues z) {
      return align3::last_layer_gpu(x, y, z, dna, 4, 0);
    };
    const align3::Alignment aln = align3::align_linear(t.a, t.b, t.c, dna, 4, layer, 1 << 12);
    CHECK(aln.score == oracle);
    CHECK(align3::rescore(aln, t.a, t.b, t.c, dna, 4) == oracle);
    gpu.score_only = false;
    const align3::Alignment whole = align3::align(t.a, t.b, t.c, dna, gpu);  // every pass on the GPU, one workspace
    CHECK(whole.score == oracle);
    CHECK(align3::rescore(whole, t.a, t.b, t.c, dna, 4) == oracle);
  }
  // Past the default 2^24 cells: the parts down to 2^13 cells on the GPU.
  const Trio t = make_trio(rng, 260, 250, 270, 4, true);
  align3::Options defaults;
  defaults.backend = align3::Backend::gpu;
  const int oracle = align3::score_scalar(t.a, t.b, t.c, dna, defaults.gap);
  const align3::Alignment whole = align3::align(t.a, t.b, t.c, dna, defaults);
  CHECK(whole.score == oracle);
  CHECK(align3::rescore(whole, t.a, t.b, t.c, dna, defaults.gap) == oracle);
  CHECK(align3::gpu_stats().passes > 0);
}

TEST_CASE("align3 GPU chain: the traced pass's chain equals the host's traced cube", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme(), prot = test::protein_scheme();
  std::mt19937 rng(2027);
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {0, 0, 0},   {1, 1, 1},    {0, 40, 7},  {40, 0, 9},   {20, 40, 0},  {16, 32, 5},  {15, 31, 6},
      {17, 33, 4}, {31, 64, 40}, {32, 65, 33}, {47, 95, 31}, {1, 100, 60}, {100, 1, 60}, {97, 89, 83},
      {64, 64, 1}, {130, 40, 20}, {20, 200, 15}, {15, 98, 22}, {47, 69, 19}, {31, 130, 9}};
  for (const auto& [la, lb, lc] : shapes)
    for (const bool related : {true, false})
      for (const int gap : {0, 4}) {
        const Trio t = make_trio(rng, la, lb, lc, 4, related);
        INFO("lengths " << la << " x " << lb << " x " << lc << ", related " << related << ", gap " << gap);
        const auto gpu = align3::gpu_chain_pass(dna, gap, 0, 0)(t.a, t.b, t.c);
        REQUIRE(gpu.has_value());
        CHECK(*gpu == test::traced_cube_chain(t.a, t.b, t.c, dna, gap));
      }
  const Trio t = make_trio(rng, 40, 70, 50, prot.dim, true);
  CHECK(align3::gpu_chain_pass(prot, 8, 0, 0)(t.a, t.b, t.c) == test::traced_cube_chain(t.a, t.b, t.c, prot, 8));
  // Faces past the limit: declined.
  CHECK_FALSE(align3::gpu_chain_pass(dna, 4, 0, 1024)(t.a, t.b, t.c).has_value());
}

TEST_CASE("align3 on the GPU: the three-phase alignment, whole and after division, equals the oracle", "[gpu][align3]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme dna = test::dna_scheme();
  std::mt19937 rng(100);
  align3::Options gpu;
  gpu.backend = align3::Backend::gpu;
  gpu.min_gpu_cells = 0;
  for (const std::size_t face_bytes : {std::size_t{0}, std::size_t{1} << 20})  // whole; divided down to 1 MiB of faces
    for (const auto& [la, lb, lc] :
         std::vector<std::array<std::size_t, 3>>{{160, 150, 170}, {33, 300, 200}, {250, 20, 120}, {90, 90, 700}}) {
      const Trio t = make_trio(rng, la, lb, lc, 4, true);
      INFO("lengths " << la << " x " << lb << " x " << lc << ", faces up to " << face_bytes << " bytes");
      gpu.gpu_face_bytes = face_bytes;
      const int oracle = align3::score_scalar(t.a, t.b, t.c, dna, gpu.gap);
      const align3::Alignment aln = align3::align(t.a, t.b, t.c, dna, gpu);
      CHECK(aln.score == oracle);
      CHECK(align3::rescore(aln, t.a, t.b, t.c, dna, gpu.gap) == oracle);
    }
}
