// The syntenic GPU score pass (the strip engine with the syntenic cell)
// equals the scalar oracle: S and H of the last cell, on many shapes, both
// ends rules, every hand-over, and a target in pieces. Tagged [gpu]:
// without a GPU they report themselves skipped.
#include <catch2/catch.hpp>

#include <optional>
#include <random>

#include "gpu_test.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "random_inputs.hpp"
#include "syntenic/cpu/passes.hpp"
#include "syntenic/cuda/gpu_pass.hpp"
#include "syntenic/syntenic.hpp"
#include "syntenic/syntenic_cell.hpp"

using namespace gdp;
using namespace gdp::syntenic;

namespace {

using Seq = std::vector<std::uint8_t>;

// Lengths around the warp (32), the 8-row batches, a warp's strip (256 or
// 512 columns), primes, and very unequal pairs.
std::vector<std::pair<std::size_t, std::size_t>> gpu_shapes() {
  return {{1, 1},     {1, 2},     {2, 1},     {2, 2},     {7, 9},     {31, 31},   {32, 32},   {33, 33},
          {1, 300},   {300, 1},   {255, 255}, {256, 256}, {257, 257}, {255, 257}, {511, 512}, {513, 511},
          {97, 1009}, {1009, 97}, {20, 2000}, {2000, 20}, {45, 4099}, {100, 10000}};
}

// a, and b either unrelated or homologous with an unrelated stretch inside,
// so that difference blocks occur.
std::pair<Seq, Seq> pair_of(std::mt19937& rng, std::size_t m, std::size_t n, bool homologous) {
  Seq a = test::random_ranks(rng, m, 4);
  if (!homologous || m < 40) return {a, test::random_ranks(rng, n, 4)};
  Seq b = test::mutate(rng, Seq(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(m / 2)), 4, 0.05);
  const Seq junk = test::random_ranks(rng, n > m ? n - m : 30, 4);
  b.insert(b.end(), junk.begin(), junk.end());
  const Seq rest = test::mutate(rng, Seq(a.begin() + static_cast<std::ptrdiff_t>(m / 2), a.end()), 4, 0.05);
  b.insert(b.end(), rest.begin(), rest.end());
  return {a, b};
}

void require_same(const Seq& a, const Seq& b, const ScoringScheme& s, const Costs& c, const pairwise::GpuTuning& t) {
  const LastCell want = score_scalar(a, b, s, c);
  const LastCell got = score_pass_gpu(a, b, s, c, 0, t);
  REQUIRE(got.s == want.s);
  REQUIRE(got.h == want.h);
}

}  // namespace

TEST_CASE("syntenic GPU pass equals the oracle on many shapes", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(71);
  const ScoringScheme dna = test::dna_scheme(), wide = test::dna_scheme(300, -200, 50, 20);
  for (const auto& [m, n] : gpu_shapes())
    for (const bool homologous : {false, true})
      for (const bool charged : {true, false})
        for (const int columns : {8, 16}) {
          const auto [a, b] = pair_of(rng, m, n, homologous);
          const ScoringScheme& s = columns == 16 ? dna : wide;  // 16 columns need 8-bit scores
          const Costs c{s.gap_open + s.gap_extend, s.gap_extend, charged ? 40 : 25, charged};
          pairwise::GpuTuning t;
          t.lane_columns = columns;
          INFO(a.size() << " x " << b.size() << " homologous " << homologous << " charged " << charged << " columns "
                        << columns);
          require_same(a, b, s, c, t);
        }
}

TEST_CASE("syntenic GPU pass: every hand-over, and a target in pieces", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(72);
  const ScoringScheme s = test::dna_scheme();
  const Costs c{s.gap_open + s.gap_extend, s.gap_extend, 40, true};
  for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{300, 5000}, {1000, 3000}, {64, 20000}}) {
    const auto [a, b] = pair_of(rng, m, n, true);
    for (const int group : {1, 4})
      for (const long long slots : {0LL, 2LL})
        for (const long long piece : {0LL, 700LL}) {
          pairwise::GpuTuning t;
          t.group = group;
          t.max_slots = slots;
          t.piece_columns = piece;
          INFO(m << " x " << n << " group " << group << " slots " << slots << " piece " << piece);
          require_same(a, b, s, c, t);
        }
  }
}

TEST_CASE("syntenic GPU pass: ring slots that hold a window of rows", "[gpu][syntenic]") {
  // The ring of a query too long for slots of whole columns (pairwise's
  // strip_plan.hpp: GridPlan::ring_rows), forced on small pairs.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(74);
  const ScoringScheme s = test::dna_scheme();
  const Costs c{s.gap_open + s.gap_extend, s.gap_extend, 40, true};
  for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{300, 5000}, {3000, 9000}, {6000, 700}}) {
    const auto [a, b] = pair_of(rng, m, n, true);
    for (const int group : {1, 4})
      for (const long long window : {64LL, 512LL}) {
        pairwise::GpuTuning t;
        t.group = group;
        t.ring_rows = window;
        INFO(m << " x " << n << " group " << group << " window " << window);
        require_same(a, b, s, c, t);
      }
  }
}

TEST_CASE("syntenic GPU pass: a protein pair under BLOSUM62", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(73);
  const ScoringScheme s = test::protein_scheme();
  const Costs c{s.gap_open + s.gap_extend, s.gap_extend, 50, true};
  for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{150, 2500}, {700, 700}}) {
    const Seq a = test::random_ranks(rng, m, 20);
    const Seq b = test::random_ranks(rng, n, 20);
    require_same(a, b, s, c, {});
  }
}

TEST_CASE("syntenic GPU pass: every entry's borders, row m whole", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(74);
  const ScoringScheme s = test::dna_scheme();
  const Costs c{s.gap_open + s.gap_extend, s.gap_extend, 40, true};
  for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 700}, {300, 1}, {257, 3000}, {1000, 999}}) {
    const auto [a, b] = pair_of(rng, m, n, true);
    for (const Entry entry : {Entry::start, Entry::clean, Entry::gap, Entry::block})
      for (const long long piece : {0LL, 512LL}) {
        const Borders borders = borders_of(entry, a.size(), b.size(), c);
        const std::vector<Down> want = last_row_tiled(a, b, s, c, borders, 1);
        pairwise::GpuTuning t;
        t.piece_columns = piece;
        const std::vector<Down> got = last_row_gpu(a, b, s, c, borders, 0, t);
        INFO(a.size() << " x " << b.size() << " entry " << static_cast<int>(entry) << " piece " << piece);
        REQUIRE(got.size() == want.size());
        for (std::size_t j = 0; j < want.size(); ++j) {
          REQUIRE(got[j].s == want[j].s);
          REQUIRE(got[j].d == want[j].d);
          REQUIRE(got[j].h == want[j].h);
        }
      }
  }
}

TEST_CASE("syntenic alignment with GPU passes (linear space) re-scores to the oracle's score", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(75);
  const ScoringScheme s = test::dna_scheme();
  for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{500, 600}, {2000, 3000}, {40, 9000}}) {
    const auto [a, b] = pair_of(rng, m, n, true);
    for (const bool charged : {true, false}) {
      Options o;
      o.ends = charged ? Ends::charged : Ends::plain;
      o.backend = Backend::gpu;
      o.min_gpu_cells = 0;  // every pass on the GPU
      const Costs c = costs_of(s, o);
      const LastCell last = score_scalar(a, b, s, c);
      const Alignment al = align_linear(a, b, s, c, o, 4096);
      INFO(a.size() << " x " << b.size() << " charged " << charged);
      REQUIRE(al.score == final_score(c, last.s, last.h));
      REQUIRE(rescore(al, a, b, s, o) == al.score);
    }
  }
}

namespace {

bool same_regions(const Alignment& x, const Alignment& y) {
  if (x.regions.size() != y.regions.size()) return false;
  for (std::size_t r = 0; r < x.regions.size(); ++r) {
    const Region &p = x.regions[r], &q = y.regions[r];
    if (p.block != q.block || p.query_begin != q.query_begin || p.query_end != q.query_end ||
        p.target_begin != q.target_begin || p.target_end != q.target_end || p.score != q.score ||
        pairwise::cigar_string(p.cigar) != pairwise::cigar_string(q.cigar))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("syntenic GPU alignment (chunked traceback) is the full matrix's alignment", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(76);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  // Around the chunks' 128 rows and 256 columns, and very unequal pairs.
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1},     {1, 300},   {300, 1},   {2, 2},     {127, 255}, {128, 256}, {129, 257}, {383, 385},
      {255, 255}, {256, 256}, {257, 257}, {255, 513},
      {513, 255}, {511, 512}, {700, 900}, {1000, 300}, {40, 3000}, {3000, 40}, {1300, 1400}};
  for (const auto& [m, n] : shapes)
    for (const bool homologous : {false, true})
      for (const bool charged : {true, false}) {
        const auto [a, b] = pair_of(rng, m, n, homologous);
        const Costs c{dna.gap_open + dna.gap_extend, dna.gap_extend, charged ? 40 : 20, charged};
        const Alignment want = align_full_matrix(a, b, dna, c);
        const std::optional<Alignment> got = align_gpu_chunked(a, b, dna, c, 0);
        INFO(a.size() << " x " << b.size() << " homologous " << homologous << " charged " << charged);
        REQUIRE(got);
        REQUIRE(got->score == want.score);
        REQUIRE(same_regions(*got, want));
      }
  const Seq p = test::random_ranks(rng, 600, 20), q = test::mutate(rng, p, 20, 0.2);
  const Costs c{blosum.gap_open + blosum.gap_extend, blosum.gap_extend, 50, true};
  const std::optional<Alignment> got = align_gpu_chunked(p, q, blosum, c, 0);
  REQUIRE(got);
  REQUIRE(same_regions(*got, align_full_matrix(p, q, blosum, c)));
}

TEST_CASE("syntenic: every query against every target, large pairs aligned on the GPU", "[gpu][syntenic]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(77);
  const ScoringScheme s = test::dna_scheme();
  std::vector<Seq> qs, ts;
  for (int k = 0; k < 3; ++k) qs.push_back(test::random_ranks(rng, 200 + 300 * static_cast<std::size_t>(k), 4));
  for (int k = 0; k < 3; ++k) ts.push_back(test::mutate(rng, qs[static_cast<std::size_t>(k)], 4, 0.1));
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  Options gpu;
  gpu.backend = Backend::gpu;
  gpu.min_gpu_cells = 100'000;  // some pairs on the GPU, some on the CPU
  gpu.threads = 2;
  Options cpu = gpu;
  cpu.backend = Backend::cpu_openmp;
  const std::vector<Hit> a = align_all(q, t, s, gpu), b = align_all(q, t, s, cpu);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO("pair " << k);
    REQUIRE(a[k].alignment.score == b[k].alignment.score);
    REQUIRE(same_regions(a[k].alignment, b[k].alignment));
  }
}

TEST_CASE("syntenic: pairs over several devices, each the alignment one device gives", "[gpu][syntenic][devices]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(79);
  const ScoringScheme s = test::dna_scheme();
  std::vector<Seq> qs, ts;
  for (int k = 0; k < 3; ++k) qs.push_back(test::random_ranks(rng, 150 + 250 * static_cast<std::size_t>(k), 4));
  for (int k = 0; k < 4; ++k) {
    auto [a, b] = pair_of(rng, qs[static_cast<std::size_t>(k % 3)].size(), 300 + 200 * static_cast<std::size_t>(k), true);
    ts.push_back(k % 2 ? b : test::mutate(rng, qs[static_cast<std::size_t>(k % 3)], 4, 0.1));
  }
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  std::vector<std::vector<int>> lists{{0, 0}, {0, 0, 0}};
  if (list_gpus().size() >= 2) lists.push_back({0, 1});
  for (const bool score_only : {true, false}) {
    Options one;
    one.backend = Backend::gpu;
    one.min_gpu_cells = 0;  // every pair on the GPU
    one.score_only = score_only;
    const std::vector<Hit> want = align_all(q, t, s, one);
    for (const auto& devices : lists) {
      INFO((score_only ? "score only, " : "alignments, ") << devices.size() << " devices");
      Options spread = one;
      spread.devices = devices;
      const std::vector<Hit> got = align_all(q, t, s, spread);
      REQUIRE(got.size() == want.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        INFO("pair " << k);
        REQUIRE(got[k].query == want[k].query);
        REQUIRE(got[k].target == want[k].target);
        REQUIRE(got[k].alignment.score == want[k].alignment.score);
        REQUIRE(same_regions(got[k].alignment, want[k].alignment));
      }
    }
  }
}

TEST_CASE("syntenic alignment with GPU passes on several threads, its small parts side by side, is one thread's", "[gpu][syntenic]") {
  // Over the 2^28 cells below which the parts are set aside: the first
  // divisions run on the GPU from this thread, then the parts go side by
  // side to the threads, each with its passes on the GPU (or on the CPU,
  // below 4e6 cells) and its steps joined in the path's order.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(82);
  const ScoringScheme s = test::dna_scheme();
  const auto [a, b] = pair_of(rng, 17000, 17500, true);
  Options one;
  one.backend = Backend::gpu;
  const Costs c = costs_of(s, one);
  const Alignment want = align_linear(a, b, s, c, one);
  const LastCell last = score_scalar(a, b, s, c);
  REQUIRE(want.score == final_score(c, last.s, last.h));
  for (const auto& devices : std::vector<std::vector<int>>{{}, {0, 0}}) {
    Options many = one;
    many.threads = 4;
    many.devices = devices;
    const Alignment got = align_linear(a, b, s, c, many);
    INFO(devices.size() << " devices");
    REQUIRE(got.score == want.score);
    REQUIRE(rescore(got, a, b, s, many) == got.score);
    REQUIRE(same_regions(got, want));
  }
}

// One long pair over several devices (the places of gdp::test::device_lists:
// GPU 0 two and three times stands for several GPUs, 0,1 where there are
// two): the score pass chained over them, its pieces dealt in turn, equals
// the oracle (or, for the longer queries, the one-GPU pass, which the tests
// above hold to the oracle).
TEST_CASE("syntenic GPU pass chained over several devices equals one device's", "[gpu][syntenic][devices][chain]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(80);
  const ScoringScheme s = test::dna_scheme();
  const std::size_t c = static_cast<std::size_t>(pairwise::kChainColumns);
  for (const auto& devices : test::device_lists())
    for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 3 * c}, {33, 3 * c + 77}, {300, 3 * c + 1000}, {2000, 5 * c + 3}}) {
      const auto [a, b] = pair_of(rng, m, n, true);
      for (const bool charged : {true, false})
        for (const int variant : {0, 1, 2}) {
          const Costs costs{s.gap_open + s.gap_extend, s.gap_extend, charged ? 40 : 25, charged};
          pairwise::GpuTuning t;
          if (variant == 1) t.piece_columns = 3000, t.group = 1;  // many pieces a place, a warp a strip
          if (variant == 2) t.ring_rows = 64;                     // ring slots of a window of rows
          INFO(devices.size() << " places, " << a.size() << " x " << b.size() << " charged " << charged << " variant "
                              << variant);
          REQUIRE(chained_score_takes(static_cast<std::int64_t>(m), static_cast<std::int64_t>(n), devices.size()));
          std::vector<long long> cuts;
          const LastCell got = score_pass_gpus(a, b, s, costs, devices, t, nullptr, &cuts);
          REQUIRE(cuts.size() >= devices.size() + 1);
          if (variant == 1) REQUIRE(cuts.size() > 2 * devices.size());
          const LastCell want = m <= 300 ? score_scalar(a, b, s, costs) : score_pass_gpu(a, b, s, costs, 0);
          REQUIRE(got.s == want.s);
          REQUIRE(got.h == want.h);
        }
    }
  REQUIRE_FALSE(chained_score_takes(100, 2 * pairwise::kChainColumns - 1, 2));
  REQUIRE_FALSE(chained_score_takes(100, 2 * pairwise::kChainColumns, 1));
  REQUIRE_FALSE(chained_score_takes(0, 2 * pairwise::kChainColumns, 2));
}

// One pair's alignment over several devices: the linear-space alignment's
// forward and backward passes side by side on the first two, and one long
// pair through align_all (score only: chained; aligned: the chunked
// traceback on the first device), each what one device gives.
TEST_CASE("syntenic: one pair over several devices, the alignment one device gives", "[gpu][syntenic][devices]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(81);
  const ScoringScheme s = test::dna_scheme();
  for (const auto& devices : test::device_lists())
    for (const auto& [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{500, 600}, {2000, 3000}, {40, 9000}}) {
      const auto [a, b] = pair_of(rng, m, n, true);
      Options one;
      one.backend = Backend::gpu;
      one.min_gpu_cells = 0;  // every pass on the GPU
      const Costs c = costs_of(s, one);
      const Alignment want = align_linear(a, b, s, c, one, 4096);
      Options spread = one;
      spread.devices = devices;
      const Alignment got = align_linear(a, b, s, c, spread, 4096);
      INFO(devices.size() << " places, " << m << " x " << n);
      REQUIRE(got.score == want.score);
      REQUIRE(same_regions(got, want));
    }
  const auto [a, b] = pair_of(rng, 300, static_cast<std::size_t>(3 * pairwise::kChainColumns), true);
  const std::vector<Residues> q{Residues(a)}, t{Residues(b)};
  for (const bool score_only : {true, false}) {
    Options one;
    one.backend = Backend::gpu;
    one.score_only = score_only;
    const std::vector<Hit> want = align_all(q, t, s, one);
    for (const auto& devices : test::device_lists()) {
      INFO((score_only ? "score only, " : "aligned, ") << devices.size() << " places");
      Options spread = one;
      spread.devices = devices;
      const std::vector<Hit> got = align_all(q, t, s, spread);
      REQUIRE(got.size() == 1);
      REQUIRE(got[0].alignment.score == want[0].alignment.score);
      REQUIRE(same_regions(got[0].alignment, want[0].alignment));
    }
  }
}
