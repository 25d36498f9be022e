// The GPU pass and the GPU alignment equal the scalar oracle: score, end
// cell (ties included), and the last row's H and F, on many shapes. Tagged
// [gpu]: without a GPU they report themselves skipped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "gpu_test.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"
#include "random_inputs.hpp"
#include "same_rows.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

const Mode all_modes[] = {Mode::local, Mode::global, Mode::semiglobal};

// Lengths around the warp (32), the 8-row batches, a warp's strip (256 or
// 512 columns: 32 lanes x 8 or 16), primes, and very unequal pairs.
std::vector<std::pair<std::size_t, std::size_t>> gpu_shapes() {
  return {{1, 1},     {1, 2},     {2, 1},     {2, 2},     {7, 9},     {31, 31},   {32, 32},  {33, 33},
          {31, 33},   {33, 31},   {1, 300},   {300, 1},   {255, 255}, {256, 256}, {257, 257}, {255, 257},
          {257, 255}, {97, 1009}, {1009, 97}, {20, 2000}, {2000, 20}, {64, 513},  {511, 512}, {100, 771},
          {45, 4099}, {9, 1025}};
}

// A pair that scores far above 32,767: `m` random letters and a copy with
// `rate` of them changed.
struct HighScoring {
  const char* what;
  ScoringScheme scheme;
  int alphabet;
  std::size_t m;
  double rate;
};

void require_same_pass(Residues q, Residues t, const ScoringScheme& s, const Shape& shape, GpuTuning tuning) {
  std::vector<int> h1(t.size() + 1), f1(t.size() + 1), h2(t.size() + 1, -7), f2(t.size() + 1, -7);
  const PassResult a = score_pass_scalar(q, t, s, shape, LastRow{h1.data(), f1.data()});
  const PassResult b = score_pass_gpu(q, t, s, shape, 0, LastRow{h2.data(), f2.data()}, tuning);
  REQUIRE(a.score == b.score);
  REQUIRE(a.end_i == b.end_i);
  REQUIRE(a.end_j == b.end_j);
  REQUIRE(h1 == h2);
  REQUIRE(f1 == f2);
  // Without a last row asked for, the same end.
  const PassResult c = score_pass_gpu(q, t, s, shape, 0, {}, tuning);
  REQUIRE(c.score == a.score);
  REQUIRE(c.end_i == a.end_i);
  REQUIRE(c.end_j == a.end_j);
}

// A target of n letters: random, or (related) q mutated, then padded or cut
// to n letters.
std::vector<std::uint8_t> target_of(std::mt19937& rng, const std::vector<std::uint8_t>& q, std::size_t n, int alphabet,
                                    bool related) {
  auto t = test::random_ranks(rng, n, alphabet);
  if (!related) return t;
  t = test::mutate(rng, q, alphabet);
  while (t.size() < n) t.push_back(static_cast<std::uint8_t>(t.size() % alphabet));
  t.resize(n);
  return t;
}

// Local passes run in 16 bits, in any of the kernels: each, forced. Other
// shapes, and passes that hand back row m, run in the rebased kernel,
// whatever the choice.
std::vector<Kernel16> kernels_for(const Shape& shape) {
  if (!shape.local) return {Kernel16::choose};
  return {Kernel16::diagonal, Kernel16::rows, Kernel16::rebased};
}

const char* name_of(Kernel16 k) {
  return k == Kernel16::rows ? "rows" : k == Kernel16::diagonal ? "diagonal" : k == Kernel16::rebased ? "rebased" : "choose";
}

// align() on the GPU with the chunked traceback held to a third of the
// pair's kept cells (packed or not), so that the pair splits into parts:
// the oracle's score and end cell, and a CIGAR that re-scores to it.
void require_split_aligns(Residues q, Residues t, const ScoringScheme& s, Mode mode, const GpuTuning& tuning,
                          bool packed, const PassResult& cpu) {
  Options o{.mode = mode, .backend = Backend::gpu, .threads = 2};
  o.min_gpu_cells = 0;
  o.tuning = tuning;
  o.tuning.traceback_bytes =
      striped::kept_bytes(static_cast<long long>(q.size()), static_cast<long long>(t.size()), packed) / 3;
  const Alignment a = align(q, t, s, o);
  REQUIRE(a.score == cpu.score);
  REQUIRE(a.query_end == cpu.end_i);
  REQUIRE(a.target_end == cpu.end_j);
  REQUIRE(rescore(a, q, t, s) == cpu.score);
}

}  // namespace

TEST_CASE("GPU pass equals the scalar oracle on many shapes", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(7);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  const ScoringScheme free_gaps = test::dna_scheme(1, -1, 0, 0);
  const ScoringScheme wide_scores = test::dna_scheme(300, -200, 50, 20);  // beyond 8 bits: 8 columns a lane
  int round = 0;
  for (auto [m, n] : gpu_shapes())
    for (Mode mode : all_modes) {
      ++round;
      const bool protein = round % 3 == 0;
      const ScoringScheme& s = protein ? blosum : round % 7 == 1 ? free_gaps : round % 5 == 1 ? wide_scores : dna;
      const int alphabet = protein ? 20 : (round % 2 ? 2 : 4);  // 2 letters: many ties
      const auto q = test::random_ranks(rng, m, alphabet);
      auto t = test::random_ranks(rng, n, alphabet);
      if (round % 4 == 1 && n > 0) {  // related sequences: long alignments
        t = test::mutate(rng, q, alphabet);
        t.resize(n, 0);
      }
      for (const Shape& shape : {shape_of(mode, s), Shape{false, false, 0, End::anywhere},
                                 Shape{false, false, s.gap_open, End::last_row}})
        for (const GpuTuning& tuning : {GpuTuning{.max_slots = 0, .lane_columns = 8, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 8, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 8, .group = 1},
                                       GpuTuning{.max_slots = 0, .lane_columns = 16, .group = 1}, GpuTuning{.max_slots = 3, .lane_columns = 16, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 32, .group = 0}}) {
          INFO("m " << q.size() << " n " << t.size() << " mode " << to_string(mode) << " local " << shape.local
                    << " end " << static_cast<int>(shape.end) << " slots " << tuning.max_slots << " lane columns "
                    << tuning.lane_columns << " group " << tuning.group << " scheme " << s.name);
          require_same_pass(q, t, s, shape, tuning);
        }
    }
}

TEST_CASE("GPU pass with a small ring of boundary columns equals the oracle", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(11);
  const ScoringScheme dna = test::dna_scheme();
  for (long long slots : {2LL, 3LL, 5LL, 64LL})
    for (int columns : {8, 16})
      for (int group : {0, 1})
        for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{40, 20000}, {300, 9000}, {1, 5000}})
          for (Mode mode : all_modes) {
            const auto q = test::random_ranks(rng, m, 4);
            const auto t = test::random_ranks(rng, n, 4);
            INFO("m " << m << " n " << n << " slots " << slots << " lane columns " << columns << " group " << group
                      << " mode " << to_string(mode));
            require_same_pass(q, t, dna, shape_of(mode, dna), GpuTuning{.max_slots = slots, .lane_columns = columns, .group = group});
          }
}

TEST_CASE("GPU alignment (chunked traceback) re-scores to the oracle's score", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(5);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  const ScoringScheme free_gaps = test::dna_scheme(1, -1, 0, 0);
  // Lengths across the chunk edges: 256 rows by one strip of 256 columns.
  std::uniform_int_distribution<std::size_t> len(1, 1100);
  const std::size_t edges[] = {1, 2, 255, 256, 257, 511, 512, 513};
  for (int round = 0; round < 90; ++round)
    for (Mode mode : all_modes) {
      const bool protein = round % 2 == 1;
      const ScoringScheme& s = protein ? blosum : round % 10 == 4 ? free_gaps : dna;
      const int alphabet = protein ? 20 : round % 3 == 0 ? 2 : 4;
      const std::size_t m = round < 16 ? edges[round % 8] : len(rng);
      const auto q = test::random_ranks(rng, m, alphabet);
      auto t = round % 3 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, len(rng), alphabet);
      if (round < 16) t.resize(edges[(round / 2) % 8], 1);
      if (t.empty()) continue;
      INFO("round " << round << " m " << q.size() << " n " << t.size() << " mode " << to_string(mode));
      const Alignment cpu = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = Backend::cpu_scalar, .threads = 1});
      const auto gpu = align_gpu_chunked(q, t, s, mode, 0);
      REQUIRE(gpu.has_value());
      REQUIRE(gpu->score == cpu.score);
      REQUIRE(gpu->query_end == cpu.query_end);
      REQUIRE(gpu->target_end == cpu.target_end);
      REQUIRE(rescore(*gpu, q, t, s) == cpu.score);
      if (mode == Mode::global) REQUIRE((gpu->query_begin == 0 && gpu->target_begin == 0));
      // The engine's entry point takes the same path.
      Options o{.mode = mode, .backend = Backend::gpu, .threads = 2};
      o.min_gpu_cells = 0;
      const Alignment via_align = align(q, t, s, o);
      REQUIRE(via_align.score == cpu.score);
      REQUIRE(rescore(via_align, q, t, s) == cpu.score);
    }
}

TEST_CASE("Myers-Miller with GPU passes scores what the oracle scores", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(6);
  const ScoringScheme dna = test::dna_scheme();
  std::uniform_int_distribution<std::size_t> len(1, 700);
  for (int round = 0; round < 30; ++round) {
    const auto q = test::random_ranks(rng, len(rng), 4);
    const auto t = round % 2 ? test::mutate(rng, q, 4) : test::random_ranks(rng, len(rng), 4);
    if (t.empty()) continue;
    INFO("round " << round << " m " << q.size() << " n " << t.size());
    Options o{.mode = Mode::global, .backend = Backend::gpu, .threads = 2};
    o.min_gpu_cells = 0;  // every pass on the GPU
    Cigar cigar;
    const int score = align_linear_global(q, t, dna, o, cigar);
    REQUIRE(score == score_pass_scalar(q, t, dna, shape_of(Mode::global, dna)).score);
  }
}

TEST_CASE("GPU chunked traceback of a Myers-Miller part, from its corner or a local start, its corners' gaps at any open", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(8);
  const ScoringScheme dna = test::dna_scheme(2, -3, 6, 1), blosum = test::protein_scheme();
  std::uniform_int_distribution<std::size_t> len(1, 900);
  const std::size_t edges[] = {2, 255, 256, 257, 512, 513};
  for (int round = 0; round < 48; ++round) {
    const bool protein = round % 4 == 3;
    const ScoringScheme& s = protein ? blosum : dna;
    const int alphabet = protein ? 20 : 4;
    const std::size_t m = round < 12 ? edges[round % 6] : len(rng);
    auto q = test::random_ranks(rng, m, alphabet);
    auto t = round % 3 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, len(rng), alphabet);
    if (round < 12) t.resize(edges[(round / 2) % 6], 1);
    if (round % 5 == 2) {  // query letters against nothing at either corner: the ends' gaps
      const auto head = test::random_ranks(rng, 40, alphabet), tail = test::random_ranks(rng, 70, alphabet);
      q.insert(q.begin(), head.begin(), head.end());
      q.insert(q.end(), tail.begin(), tail.end());
    }
    for (const bool local_start : {false, true})
      for (const GapEnds ends : {GapEnds{s.gap_open, s.gap_open}, GapEnds{0, s.gap_open}, GapEnds{s.gap_open, 0},
                                 GapEnds{0, 0}}) {
        if (local_start && ends.top_open == 0) continue;  // a local start has no top corner gap
        INFO("round " << round << " m " << q.size() << " n " << t.size() << " local start " << local_start
                      << " ends " << ends.top_open << " " << ends.bottom_open);
        // The oracle's score of the part: row m's H, or its F with the
        // bottom corner's open instead of the scheme's.
        std::vector<int> h(t.size() + 1), f(t.size() + 1);
        const Shape shape = local_start ? Shape{true, true, 0, End::corner} : Shape{false, false, ends.top_open, End::corner};
        score_pass_scalar(q, t, s, shape, LastRow{h.data(), f.data()});
        const int expected = std::max(h.back(), f.back() + s.gap_open - ends.bottom_open);
        Alignment a;
        const auto start = align_gpu_chunked_part(Part{q, t, ends, local_start}, s, 0, 0, nullptr, a.cigar);
        REQUIRE(start.has_value());
        if (!local_start) REQUIRE((start->i == 0 && start->j == 0));
        a.query_begin = start->i, a.target_begin = start->j;
        a.query_end = static_cast<std::int64_t>(q.size());
        a.target_end = static_cast<std::int64_t>(t.size());
        int rescored = rescore(a, q, t, s);
        if (!local_start && !a.cigar.empty() && a.cigar.front().op == Op::insertion) rescored += s.gap_open - ends.top_open;
        // A gap into the corner opens at the corner's cost when that scores more.
        if (!a.cigar.empty() && a.cigar.back().op == Op::insertion && rescored < expected)
          rescored += s.gap_open - ends.bottom_open;
        REQUIRE(rescored == expected);
      }
  }
}

TEST_CASE("GPU alignment: a pair whose kept cells do not fit splits until its parts fit the chunked traceback", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(9);
  const ScoringScheme dna = test::dna_scheme(2, -3, 6, 1), blosum = test::protein_scheme();
  std::uniform_int_distribution<std::size_t> len(600, 3000);
  for (int round = 0; round < 24; ++round)
    for (Mode mode : all_modes) {
      const bool protein = round % 3 == 2;
      const ScoringScheme& s = protein ? blosum : dna;
      const int alphabet = protein ? 20 : 4;
      auto q = test::random_ranks(rng, len(rng), alphabet);
      auto t = round % 4 ? test::mutate(rng, q, alphabet, 0.05) : test::random_ranks(rng, len(rng), alphabet);
      if (round % 4 == 1) {  // a block of the query against nothing, across the middle row
        const auto block = test::random_ranks(rng, 300 + q.size() / 4, alphabet);
        q.insert(q.begin() + static_cast<std::ptrdiff_t>(q.size() / 2), block.begin(), block.end());
      }
      INFO("round " << round << " m " << q.size() << " n " << t.size() << " mode " << to_string(mode));
      const Alignment cpu = align(q, t, s, Options{.mode = mode, .backend = Backend::cpu_scalar});
      for (const bool at_rows : {true, false}) {
        INFO((at_rows ? "split at saved rows" : "split by Myers-Miller"));
        Options o{.mode = mode, .backend = Backend::gpu, .threads = 2};
        o.min_gpu_cells = 0;
        // Too little for the pair, enough for a half, a quarter or an
        // eighth: local and global alignments split at saved rows (8 of them
        // here) or by Myers-Miller, semi-global ones by Myers-Miller.
        o.tuning.traceback_bytes =
            striped::kept_bytes(static_cast<long long>(q.size()), static_cast<long long>(t.size()), true) / (3 + round % 6);
        o.tuning.split_at_saved_rows = at_rows;
        const double walked_before = gpu_stats().traceback_seconds;
        const Alignment gpu = align(q, t, s, o);
        REQUIRE(gpu.score == cpu.score);
        REQUIRE(gpu.query_end == cpu.query_end);
        REQUIRE(gpu.target_end == cpu.target_end);
        REQUIRE(rescore(gpu, q, t, s) == cpu.score);
        REQUIRE(gpu_stats().traceback_seconds > walked_before);  // parts went to the chunked walk
      }
    }
}

TEST_CASE("GPU chunked traceback after a rebased 16-bit kept pass, on scores far above 32,767", "[gpu][pairwise]") {
  // The kept pass runs in the rebased 16-bit kernel (kept strips of 256
  // columns, 2 to 8 a warp) and keeps packed cells (kept_cell.hpp): here
  // its cells cross 32,767 many times over, and 2^20 (where the packed H
  // wraps), in whole pairs and in Myers-Miller's parts (a last row, a local
  // start, corner gaps), at each of its columns a lane. The last scheme's
  // gap costs leave the kernel too few rows a base: its kept pass runs in
  // 32 bits.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(65536);
  const HighScoring cases[] = {
      {"DNA, 1% changed", test::dna_scheme(1, -3, 3, 2), 4, 40000, 0.01},
      {"DNA scored in forties, past 2^20", test::dna_scheme(40, -40, 25, 10), 4, 30000, 0.01},
      {"protein, BLOSUM62, 3% changed", test::protein_scheme(), 20, 12000, 0.03},
      {"DNA with gaps too dear to rebase (32 bits)", test::dna_scheme(30, -30, 100, 10), 4, 3000, 0.03},
  };
  for (const HighScoring& c : cases) {
    const auto q = test::random_ranks(rng, c.m, c.alphabet);
    auto t = test::mutate(rng, q, c.alphabet, c.rate);
    const auto head = test::random_ranks(rng, 700, c.alphabet);
    t.insert(t.begin(), head.begin(), head.end());  // the path starts in a later strip
    const bool packed = striped::kept_in_rebased16(gap_costs(c.scheme).open_extend, c.scheme.max_abs_score(), 0);
    for (Mode mode : all_modes) {
      const PassResult cpu = score_pass_tiled(q, t, c.scheme, shape_of(mode, c.scheme), 8);
      if (mode == Mode::local) REQUIRE(cpu.score > 32767);
      for (int columns : {0, 16, 32}) {
        INFO(c.what << ", mode " << to_string(mode) << ", m " << q.size() << " n " << t.size() << ", lane columns "
                    << columns);
        const GpuTuning tuning{.lane_columns = columns};
        const auto whole = align_gpu_chunked(q, t, c.scheme, mode, 0, 0, nullptr, nullptr, tuning);
        REQUIRE(whole.has_value());
        REQUIRE(whole->score == cpu.score);
        REQUIRE(whole->query_end == cpu.end_i);
        REQUIRE(whole->target_end == cpu.end_j);
        REQUIRE(rescore(*whole, q, t, c.scheme) == cpu.score);
        // Parts (split at saved rows, semi-global by Myers-Miller).
        require_split_aligns(q, t, c.scheme, mode, tuning, packed, cpu);
      }
    }
  }
}

TEST_CASE("GPU score pass that saves rows saves the oracle's rows, and the split at them aligns", "[gpu][pairwise]") {
  // score_pass_gpu_saving runs in the rebased 16-bit kernel, here far past
  // 32,767 too and in pieces of the target; align() takes that path where a
  // pair's kept edges do not fit (tuning.traceback_bytes), splitting it at the
  // rows (cpu/passes.hpp: align_by_saved_rows), the parts to the chunked
  // traceback.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(4242);
  const HighScoring cases[] = {
      {"DNA, random", test::dna_scheme(), 4, 900, 1.0},
      {"DNA, 5% changed", test::dna_scheme(2, -3, 6, 1), 4, 3000, 0.05},
      {"DNA scored in forties, past 32,767", test::dna_scheme(40, -40, 25, 10), 4, 6000, 0.01},
      {"protein, BLOSUM62", test::protein_scheme(), 20, 2500, 0.1},
  };
  for (const HighScoring& c : cases) {
    const auto q = test::random_ranks(rng, c.m, c.alphabet);
    auto t = c.rate < 1 ? test::mutate(rng, q, c.alphabet, c.rate) : test::random_ranks(rng, 3 * c.m, c.alphabet);
    const auto head = test::random_ranks(rng, 300, c.alphabet);
    t.insert(t.begin(), head.begin(), head.end());
    for (Mode mode : {Mode::local, Mode::global})
      for (const std::int64_t every : {std::int64_t{8}, std::int64_t{256}, std::int64_t{1024}, std::int64_t{7}})
        for (long long piece : {0LL, 2048LL}) {
          INFO(c.what << ", mode " << to_string(mode) << ", every " << every << ", piece " << piece);
          const Shape shape = shape_of(mode, c.scheme);
          SavedRows cpu_rows, gpu_rows;
          cpu_rows.every = gpu_rows.every = every;
          if (piece > 0) gpu_rows.spill_dir = std::filesystem::temp_directory_path().string();  // copied into a file
          const PassResult cpu = score_pass_scalar(q, t, c.scheme, shape, {}, nullptr, &cpu_rows);
          const auto gpu = score_pass_gpu_saving(q, t, c.scheme, shape, 0, GpuTuning{.piece_columns = piece}, nullptr,
                                                 gpu_rows);
          if (static_cast<std::size_t>(every) > c.m || every == 7) {  // no row to save, or not a power of two: it declines
            REQUIRE_FALSE(gpu.has_value());
            continue;
          }
          REQUIRE(gpu.has_value());
          REQUIRE(gpu->score == cpu.score);
          REQUIRE(gpu->end_i == cpu.end_i);
          REQUIRE(gpu->end_j == cpu.end_j);
          REQUIRE(test::same_rows(gpu_rows, cpu_rows));
          REQUIRE(gpu_rows.spilled() == (piece > 0));
        }
    for (Mode mode : {Mode::local, Mode::global}) {
      INFO(c.what << ", mode " << to_string(mode) << ", aligned");
      const PassResult cpu = score_pass_scalar(q, t, c.scheme, shape_of(mode, c.scheme));
      require_split_aligns(q, t, c.scheme, mode, {}, true, cpu);
    }
  }
}

TEST_CASE("GPU pass and alignment agree with the OpenMP pass on 100,000 x 100,000", "[gpu][pairwise][large]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(100000);
  const ScoringScheme dna = test::dna_scheme();
  const auto q = test::random_ranks(rng, 100000, 4);
  const auto t = test::mutate(rng, q, 4, 0.3);
  for (Mode mode : {Mode::local, Mode::semiglobal}) {
    INFO("mode " << to_string(mode));
    const PassResult cpu = score_pass_tiled(q, t, dna, shape_of(mode, dna), 16);
    for (int columns : {8, 16}) {
      const PassResult gpu = score_pass_gpu(q, t, dna, shape_of(mode, dna), 0, {}, GpuTuning{.lane_columns = columns});
      REQUIRE(gpu.score == cpu.score);
      REQUIRE(gpu.end_i == cpu.end_i);
      REQUIRE(gpu.end_j == cpu.end_j);
    }
    const auto aligned = align_gpu_chunked(q, t, dna, mode, 0);
    REQUIRE(aligned.has_value());
    REQUIRE(aligned->score == cpu.score);
    REQUIRE(rescore(*aligned, q, t, dna) == cpu.score);
  }
}

TEST_CASE("16-bit GPU pass equals the oracle, and reruns in 32 bits past the 16-bit range", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(16);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  const Shape local = shape_of(Mode::local, dna);
  // Around the 16-bit kernels' strips (512, 1024, 2048 or 4096 columns: 64
  // halves of lanes of 8, 16, 32 or 64) and the diagonal kernel's 32-row
  // skew between halves; both kernels, forced.
  const std::size_t lengths[] = {1,    2,    31,   33,   63,   64,   65,   255,  257,  511,  512,
                                 513,  1023, 1025, 2047, 2049, 3001, 4095, 4097, 4099, 8193};
  int round = 0;
  for (std::size_t m : lengths)
    for (std::size_t n : lengths) {
      ++round;
      const bool protein = round % 3 == 0;
      const ScoringScheme& s = protein ? blosum : dna;
      const int alphabet = protein ? 20 : round % 2 ? 2 : 4;
      const auto q = test::random_ranks(rng, m, alphabet);
      auto t = round % 4 == 1 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, n, alphabet);
      if (t.empty()) t.push_back(0);
      const PassResult a = score_pass_scalar(q, t, s, local);
      for (GpuTuning tuning : {GpuTuning{.max_slots = 0, .lane_columns = 8, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 8, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 8, .group = 1},
                               GpuTuning{.max_slots = 0, .lane_columns = 16, .group = 1}, GpuTuning{.max_slots = 3, .lane_columns = 16, .group = 0}, GpuTuning{.max_slots = 0, .lane_columns = 32, .group = 0},
                               GpuTuning{.max_slots = 2, .lane_columns = 32, .group = 1}, GpuTuning{.max_slots = 0, .lane_columns = 64, .group = 0}, GpuTuning{.max_slots = 2, .lane_columns = 64, .group = 1}})
        for (Kernel16 kernel : kernels_for(local)) {
          tuning.kernel16 = kernel;
          INFO("m " << q.size() << " n " << t.size() << " slots " << tuning.max_slots << " lane columns "
                    << tuning.lane_columns << " group " << tuning.group << " kernel " << name_of(kernel)
                    << " scheme " << s.name);
          const PassResult b = score_pass_gpu(q, t, s, local, 0, {}, tuning);
          REQUIRE(a.score == b.score);
          REQUIRE(a.end_i == b.end_i);
          REQUIRE(a.end_j == b.end_j);
        }
    }

  // Identical sequences score 2 a letter. A 16-bit pass gives up once a
  // score reaches 32,767 minus the largest substitution score (3 here), and
  // runs again in the rebased kernel: 16,000 letters stay under, 16,382 and
  // more reach it. The rebased kernel holds any score.
  for (std::size_t length : {16000, 16382, 16383, 16400, 20000}) {
    const auto q = test::random_ranks(rng, length, 4);
    const PassResult cpu = score_pass_tiled(q, q, dna, local, 4);
    for (int columns : {8, 16, 32, 64})
      for (int group : {0, 1})
        for (Kernel16 kernel : kernels_for(local)) {
          GpuTuning tuning{.lane_columns = columns, .group = group};
          tuning.kernel16 = kernel;
          const int reruns_before = gpu_stats().overflow_reruns;
          const PassResult gpu = score_pass_gpu(q, q, dna, local, 0, {}, tuning);
          INFO("length " << length << " lane columns " << columns << " group " << group << " kernel " << name_of(kernel));
          REQUIRE(gpu.score == cpu.score);
          REQUIRE(gpu.end_i == cpu.end_i);
          REQUIRE(gpu.end_j == cpu.end_j);
          const bool overflows = kernel != Kernel16::rebased && cpu.score >= 32767 - dna.max_abs_score();
          REQUIRE(gpu_stats().overflow_reruns - reruns_before == (overflows ? 1 : 0));
        }
  }
}

TEST_CASE("GPU pass with the target in pieces equals the oracle", "[gpu][pairwise]") {
  // Targets of 2^31 letters or more go through in pieces of whole strips,
  // one launch each; small pieces here put many piece edges in each pass.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(19);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  int round = 0;
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1000}, {33, 257}, {33, 5000}, {300, 2049}, {1000, 4097}, {70, 20000}})
    for (Mode mode : all_modes) {
      ++round;
      const ScoringScheme& s = round % 3 == 0 ? blosum : dna;
      const int alphabet = round % 3 == 0 ? 20 : 4;
      const auto q = test::random_ranks(rng, m, alphabet);
      const auto t = target_of(rng, q, n, alphabet, round % 2);  // related: paths across the piece edges
      for (const Shape& shape : {shape_of(mode, s), Shape{false, false, s.gap_open, End::last_row}})
        for (int columns : {8, 16, 32, 64})
          for (long long piece : {1LL, 700LL, 2100LL})
            for (Kernel16 kernel : kernels_for(shape)) {
              GpuTuning tuning{.lane_columns = columns, .group = round % 2};
              tuning.piece_columns = piece;
              tuning.kernel16 = kernel;
              INFO("m " << m << " n " << n << " mode " << to_string(mode) << " end " << static_cast<int>(shape.end)
                        << " lane columns " << columns << " piece " << piece << " kernel " << name_of(kernel));
              require_same_pass(q, t, s, shape, tuning);
            }
    }
  // Across pieces, a score past the 16-bit range: the rebased kernel holds
  // it, the others' passes run again in it.
  const auto q = test::random_ranks(rng, 16400, 4);
  const PassResult cpu = score_pass_tiled(q, q, dna, shape_of(Mode::local, dna), 4);
  for (Kernel16 kernel : kernels_for(shape_of(Mode::local, dna))) {
    GpuTuning tuning{.lane_columns = 8, .group = 0};
    tuning.piece_columns = 4096;
    tuning.kernel16 = kernel;
    INFO("kernel " << name_of(kernel));
    const int reruns_before = gpu_stats().overflow_reruns;
    const PassResult gpu = score_pass_gpu(q, q, dna, shape_of(Mode::local, dna), 0, {}, tuning);
    REQUIRE(gpu.score == cpu.score);
    REQUIRE(gpu.end_i == cpu.end_i);
    REQUIRE(gpu.end_j == cpu.end_j);
    REQUIRE(gpu_stats().overflow_reruns - reruns_before == (kernel == Kernel16::rebased ? 0 : 1));
  }
}

TEST_CASE("GPU pass whose ring slots hold a window of rows equals the oracle", "[gpu][pairwise]") {
  // A query too long for ring slots of whole columns goes through pieces of
  // one wave of groups, each slot a window of rows that its reader frees as
  // it reads (strip_plan.hpp: GridPlan::ring_rows). Windows of 64 to 1,024
  // rows here lap many times a pass, and a writer often waits for its
  // reader, in every kernel, with and without groups.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(29);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  int round = 0;
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{65, 3000}, {700, 9000}, {3001, 20000}, {9000, 1500}})
    for (Mode mode : all_modes) {
      ++round;
      const ScoringScheme& s = round % 3 == 0 ? blosum : dna;
      const int alphabet = round % 3 == 0 ? 20 : 4;
      const auto q = test::random_ranks(rng, m, alphabet);
      const auto t = target_of(rng, q, n, alphabet, round % 2);  // related: a path down the whole query
      for (const Shape& shape : {shape_of(mode, s), Shape{false, false, s.gap_open, End::last_row}})
        for (long long window : {64LL, 256LL, 1024LL})
          for (Kernel16 kernel : kernels_for(shape)) {
            GpuTuning tuning{.lane_columns = round % 2 ? 8 : 16, .group = static_cast<int>(window / 64 % 2)};
            tuning.ring_rows = window;
            tuning.kernel16 = kernel;
            INFO("m " << m << " n " << n << " mode " << to_string(mode) << " end " << static_cast<int>(shape.end)
                      << " window " << window << " group " << tuning.group << " kernel " << name_of(kernel));
            require_same_pass(q, t, s, shape, tuning);
          }
    }
  // Scores past the 16-bit range in windows: the rebased kernel's, and the
  // others' passes run again in it.
  const auto q = test::random_ranks(rng, 20000, 4);
  const auto t = test::mutate(rng, q, 4, 0.01);
  const Shape local = shape_of(Mode::local, dna);
  const PassResult want = score_pass_tiled(q, t, dna, local, 4);
  REQUIRE(want.score > 32767);
  for (Kernel16 kernel : {Kernel16::diagonal, Kernel16::rows, Kernel16::rebased})
    for (long long window : {128LL, 4096LL}) {
      GpuTuning tuning{.lane_columns = 8};
      tuning.ring_rows = window;
      tuning.kernel16 = kernel;
      INFO("window " << window << " kernel " << name_of(kernel));
      const PassResult got = score_pass_gpu(q, t, dna, local, 0, {}, tuning);
      REQUIRE(got.score == want.score);
      REQUIRE(got.end_i == want.end_i);
      REQUIRE(got.end_j == want.end_j);
    }
}

TEST_CASE("GPU 16-bit passes equal the oracle on scores far above 32,767", "[gpu][pairwise]") {
  // The rebased kernel's cells are offsets from bases moved up every few
  // rows (rebased16.hpp): here its cells cross 32,767 many times over,
  // strips and pieces hand over scores of hundreds of thousands, and larger
  // scores and costs make the warps rebase every 64 steps.
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(33);
  const Shape local = shape_of(Mode::local, test::dna_scheme());
  const HighScoring cases[] = {
      {"DNA, 1% changed", test::dna_scheme(), 4, 60000, 0.01},
      {"DNA scored in tens, a rebase every 64 steps", test::dna_scheme(30, -30, 30, 10), 4, 6000, 0.05},
      {"protein, BLOSUM62, 3% changed", test::protein_scheme(), 20, 24000, 0.03},
  };
  for (const HighScoring& c : cases) {
    const auto q = test::random_ranks(rng, c.m, c.alphabet);
    auto t = test::mutate(rng, q, c.alphabet, c.rate);
    t.insert(t.begin(), 3000, 1);  // the path starts in a later strip
    const PassResult cpu = score_pass_tiled(q, t, c.scheme, local, 8);
    REQUIRE(cpu.score > 3 * 32767);
    for (int columns : {8, 16, 32, 64})
      for (long long piece : {0LL, 5000LL})
        for (Kernel16 kernel : {Kernel16::rebased, Kernel16::diagonal, Kernel16::rows}) {
          GpuTuning tuning{.lane_columns = columns, .group = columns == 16 ? 1 : 0};
          tuning.piece_columns = piece;
          tuning.kernel16 = kernel;
          INFO(c.what << ", lane columns " << columns << ", piece " << piece << ", kernel " << name_of(kernel));
          const PassResult gpu = score_pass_gpu(q, t, c.scheme, local, 0, {}, tuning);
          REQUIRE(gpu.score == cpu.score);
          REQUIRE(gpu.end_i == cpu.end_i);
          REQUIRE(gpu.end_j == cpu.end_j);
        }
  }
  // 200,000 letters scoring about 390,000, against the 32-bit kernel.
  const ScoringScheme dna = test::dna_scheme();
  const auto q = test::random_ranks(rng, 200000, 4);
  const auto t = test::mutate(rng, q, 4, 0.005);
  GpuTuning wide;
  wide.bits = 32;
  const PassResult want = score_pass_gpu(q, t, dna, local, 0, {}, wide);
  REQUIRE(want.score > 10 * 32767);
  for (int columns : {8, 32, 64})
    for (Kernel16 kernel : {Kernel16::rebased, Kernel16::choose}) {
      GpuTuning tuning{.lane_columns = columns};
      tuning.kernel16 = kernel;
      const int reruns_before = gpu_stats().overflow_reruns;
      const PassResult got = score_pass_gpu(q, t, dna, local, 0, {}, tuning);
      INFO("lane columns " << columns << ", kernel " << name_of(kernel));
      REQUIRE(got.score == want.score);
      REQUIRE(got.end_i == want.end_i);
      REQUIRE(got.end_j == want.end_j);
      REQUIRE(gpu_stats().overflow_reruns - reruns_before == (kernel == Kernel16::rebased ? 0 : 1));
    }
}

TEST_CASE("GPU rebased pass: a gap across a strip edge where the ring's 16-bit copies wrap", "[gpu][pairwise]") {
  // The ring between strips carries H and es in 16 bits, which the rebased
  // kernel reads modulo 65,536 (strip_handover.cuh: store_tagged). Here the
  // one best path runs a horizontal gap across the edge after column 36,864
  // (an edge at every strip width, 512 to 4,096 columns) in row 35,499,
  // where H is 32,766 and es, 3 more, is past 32,767: the two copies lie on
  // either side of the wrap.
  if (test::skip_without_gpu()) return;
  const ScoringScheme s = test::dna_scheme(1, -3, 3, 2);  // a gap of k letters costs 3 + 2k
  constexpr int a = 35499, gap = 1400, b = 5000;         // row a, gap through column a + 1365 = 36,864
  std::mt19937 rng(36864);
  const auto before = test::random_ranks(rng, a, 4), after = test::random_ranks(rng, b, 4);
  auto inserted = test::random_ranks(rng, gap, 4);
  // The gap cannot slide: its first letter is not the next one's, its last not the one before.
  inserted.front() = static_cast<std::uint8_t>((after.front() + 1) % 4);
  inserted.back() = static_cast<std::uint8_t>((before.back() + 1) % 4);
  std::vector<std::uint8_t> q(before), t(before);
  q.insert(q.end(), after.begin(), after.end());
  t.insert(t.end(), inserted.begin(), inserted.end());
  t.insert(t.end(), after.begin(), after.end());
  const Shape local = shape_of(Mode::local, s);
  const PassResult cpu = score_pass_tiled(q, t, s, local, 8);
  REQUIRE(cpu.score == a + b - (3 + 2 * gap));
  for (int columns : {8, 16, 32, 64}) {
    GpuTuning tuning{.lane_columns = columns, .group = 1};  // every strip's edge through the ring
    tuning.kernel16 = Kernel16::rebased;
    INFO("lane columns " << columns);
    const PassResult gpu = score_pass_gpu(q, t, s, local, 0, {}, tuning);
    REQUIRE(gpu.score == cpu.score);
    REQUIRE(gpu.end_i == cpu.end_i);
    REQUIRE(gpu.end_j == cpu.end_j);
  }
}

TEST_CASE("GPU pass on a query of a few letters far apart in the alphabet", "[gpu][pairwise]") {
  // Score passes give the profile a row for each letter the query uses
  // only; the letters here are ranks 1, 3 and the last of 15 (C, T, N).
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(17);
  const ScoringScheme dna = test::dna_scheme();
  const std::uint8_t used[] = {1, 3, static_cast<std::uint8_t>(dna.dim - 1)};
  std::uniform_int_distribution<int> pick(0, 2);
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {70, 3000}, {700, 5000}, {3000, 40}})
    for (Mode mode : all_modes) {
      std::vector<std::uint8_t> q(m);
      for (auto& a : q) a = used[pick(rng)];
      const auto t = test::random_ranks(rng, n, dna.dim);
      INFO("m " << m << " n " << n << " mode " << to_string(mode));
      for (int columns : {8, 16, 32, 64})
        for (Kernel16 kernel : kernels_for(shape_of(mode, dna))) {
          GpuTuning tuning{.lane_columns = columns, .group = 0};
          tuning.kernel16 = kernel;
          INFO("lane columns " << columns << " kernel " << name_of(kernel));
          require_same_pass(q, t, dna, shape_of(mode, dna), tuning);
        }
    }
}

TEST_CASE("every query against every target: large pairs on the GPU, small ones on the CPU", "[gpu][pairwise]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(21);
  const ScoringScheme dna = test::dna_scheme();
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (std::size_t n : {50, 3000, 4001}) qs.push_back(test::random_ranks(rng, n, 4));
  ts.push_back(test::random_ranks(rng, 40, 4));
  ts.push_back(test::mutate(rng, qs[1], 4));
  ts.push_back(test::random_ranks(rng, 7000, 4));
  ts.push_back(test::mutate(rng, qs[0], 4));
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  for (Mode mode : all_modes)
    for (bool score_only : {true, false})
      for (std::size_t top : {std::size_t{0}, std::size_t{2}}) {
        INFO("mode " << to_string(mode) << " score only " << score_only << " top " << top);
        const auto cpu = align_all(q, t, dna, Options{.mode = mode, .score_only = score_only, .backend = Backend::cpu_openmp, .threads = 4}, top);
        Options o{.mode = mode, .score_only = score_only, .backend = Backend::gpu, .threads = 4};
        o.min_gpu_cells = 1000000;  // 3000 x 7000 and the like on the GPU, the rest on the CPU
        const auto gpu = align_all(q, t, dna, o, top);
        REQUIRE(gpu.size() == cpu.size());
        for (std::size_t k = 0; k < gpu.size(); ++k) {
          REQUIRE(gpu[k].query == cpu[k].query);
          REQUIRE(gpu[k].alignment.score == cpu[k].alignment.score);
          REQUIRE(gpu[k].alignment.query_end == cpu[k].alignment.query_end);
          REQUIRE(gpu[k].alignment.target_end == cpu[k].alignment.target_end);
          if (!score_only) REQUIRE(rescore(gpu[k].alignment, q[gpu[k].query], t[gpu[k].target], dna) == cpu[k].alignment.score);
        }
      }
}

TEST_CASE("every score kernel of the table equals the oracle on every shape", "[gpu][pairwise]") {
  // A kernel added to kernel_variants() is tested here by being added. The
  // 16-bit kernels run local passes without a last row; the other passes of
  // a 16-bit row go to the rebased kernel at its columns, as the plan says.
  if (test::skip_without_gpu()) return;
  REQUIRE_FALSE(kernel_variants().empty());
  std::mt19937 rng(17);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  for (const KernelVariant& v : kernel_variants())
    for (const auto& [m, n] : gpu_shapes())
      for (const bool protein : {false, true}) {
        const ScoringScheme& s = protein ? blosum : dna;
        const int alphabet = protein ? 20 : 4;
        const auto q = test::random_ranks(rng, m, alphabet);
        const auto t = m == n ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, n, alphabet);
        if (t.empty()) continue;
        for (const Mode mode : all_modes)
          for (const GpuTuning& base : {GpuTuning{}, GpuTuning{.max_slots = 2, .group = 1}}) {
            INFO("kernel " << v.name << " m " << q.size() << " n " << t.size() << " mode " << to_string(mode)
                           << " group " << base.group << " scheme " << s.name);
            require_same_pass(q, t, s, shape_of(mode, s), tuning_for(v, base));
          }
      }
}
