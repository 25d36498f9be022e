// The lanes' pass: recurrence.hpp's cell (update_cell<true>) on vectors of
// 16-bit lanes, written once with GCC's vector extensions and compiled for
// each instruction set of the variants' table.
#include "pairwise/cpu/score_lanes.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"

// Vectors pass by value only into helpers inlined in this file: GCC's note
// that such calls' ABI differs between instruction sets does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gdp::pairwise {
namespace {

using Lanes = std::int16_t __attribute__((vector_size(2 * kScoreLanes)));
// Vectors in memory, aligned for the widest variant's loads (the baseline
// compiler aligns the bare type to 16 bytes only, and a std::vector of it
// would drop even that).
struct alignas(64) Stored {
  Lanes v;
};

using UnsignedLanes = std::uint16_t __attribute__((vector_size(2 * kScoreLanes)));

#define GDP_INLINE inline __attribute__((always_inline))
GDP_INLINE Lanes broadcast(int x) { return Lanes{} + static_cast<std::int16_t>(x); }
GDP_INLINE Lanes max(Lanes a, Lanes b) { return a > b ? a : b; }
// Sums and differences wrap, as the instructions do: a lane past the
// 16-bit bound is rescored, and the column count passes 32,767.
GDP_INLINE Lanes add(Lanes a, Lanes b) { return (Lanes)((UnsignedLanes)a + (UnsignedLanes)b); }
GDP_INLINE Lanes sub(Lanes a, Lanes b) { return (Lanes)((UnsignedLanes)a - (UnsignedLanes)b); }

// A padding column (past a lane's target) scores this against every row:
// any negative score keeps its cells below the lane's best (every path
// into it loses), so that no padding cell is ever kept.
constexpr int kPadScore = -1;

// Each lane's best cell: the score, the row, and the column - 1 (16 bits
// hold columns up to 65,536).
struct alignas(64) LaneBest {
  Lanes score{}, column{};
  std::int64_t row[kScoreLanes] = {};
};

// Rows 1..m of `q` over `columns` columns; profile[c * columns + j]: the
// lanes' scores of letter c against their targets' column j + 1. Inlined
// into each variant, which compiles it for its instruction set.
GDP_INLINE void run_rows(Residues q, const Stored* profile, std::size_t columns, int open_extend, int extend,
                         Stored* h_row, Stored* f_row, LaneBest& best) {
  const Lanes zero{}, one = broadcast(1), oe = broadcast(open_extend), ext = broadcast(extend);
  for (std::size_t j = 0; j < columns; ++j) h_row[j].v = zero, f_row[j].v = -oe;  // F(1, j) = -oe from row 0
  for (std::size_t i = 1; i <= q.size(); ++i) {
    const Stored* scores = profile + q[i - 1] * columns;
    const Lanes before = best.score;
    Lanes diag = zero, left = zero, e = -oe, column = zero;
    for (std::size_t j = 0; j < columns; ++j) {
      const Lanes up = h_row[j].v;
      const Lanes f = max(sub(f_row[j].v, ext), sub(up, oe));
      e = max(sub(e, ext), sub(left, oe));
      const Lanes h = max(max(add(diag, scores[j].v), zero), max(e, f));
      diag = up;
      h_row[j].v = left = h;
      f_row[j].v = f;
      const auto better = h > best.score;
      best.score = better ? h : best.score;
      best.column = better ? column : best.column;
      column = add(column, one);
    }
    for (int k = 0; k < kScoreLanes; ++k)
      if (best.score[k] != before[k]) best.row[k] = static_cast<std::int64_t>(i);
  }
}

#define GDP_LANES_VARIANT(name, ...)                                                                              \
  __VA_ARGS__ void name(Residues q, const Stored* profile, std::size_t columns, int open_extend, int extend,      \
                        Stored* h_row, Stored* f_row, LaneBest& best) {                                          \
    run_rows(q, profile, columns, open_extend, extend, h_row, f_row, best);                                      \
  }
GDP_LANES_VARIANT(run_rows_baseline)
#if defined(__x86_64__) && defined(__GNUC__)
GDP_LANES_VARIANT(run_rows_avx2, __attribute__((target("avx2"))))
GDP_LANES_VARIANT(run_rows_avx512, __attribute__((target("avx512f,avx512bw"))))
#endif

using RunRows = void (*)(Residues, const Stored*, std::size_t, int, int, Stored*, Stored*, LaneBest&);
struct Variant {
  const char* name;
  bool (*supported)();
  RunRows run;
};
// Widest first.
constexpr Variant kVariants[] = {
#if defined(__x86_64__) && defined(__GNUC__)
    {"avx512", [] { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"); }, run_rows_avx512},
    {"avx2", [] { return __builtin_cpu_supports("avx2") != 0; }, run_rows_avx2},
#endif
    {"baseline", [] { return true; }, run_rows_baseline},
};

}  // namespace

std::vector<std::string> score_lanes_variants() {
  std::vector<std::string> names;
  for (const Variant& v : kVariants)
    if (v.supported()) names.emplace_back(v.name);
  return names;
}

bool score_lanes_can_run(const ScoringScheme& scheme, const Shape& shape) {
  // Values stay within [-(open + extend) - extend + kPadScore, bound + max].
  const long long low = static_cast<long long>(scheme.gap_open) + 2LL * scheme.gap_extend + 1;
  return shape.local && shape.end == End::anywhere && scheme.max_abs_score() < 4096 && scheme.gap_open >= 0 &&
         scheme.gap_extend >= 0 && low < 16384;
}

std::size_t score_lanes_max_target(const ScoringScheme& scheme) {
  const std::size_t dim = static_cast<std::size_t>(std::max(scheme.dim, 1));
  return std::min<std::size_t>(std::size_t{1} << 16, kScoreLanesProfileBytes / (dim * sizeof(Stored)));
}

void score_lanes(Residues q, std::span<const Residues> targets, const ScoringScheme& scheme, PassResult* out,
                 bool* overflowed, const std::string& variant) {
  const Variant* chosen = nullptr;
  for (const Variant& v : kVariants)
    if (!chosen && v.supported() && (variant.empty() || variant == v.name)) chosen = &v;
  if (!chosen) throw std::invalid_argument("score_lanes: no variant " + variant + " on this CPU");
  if (targets.size() > static_cast<std::size_t>(kScoreLanes)) throw std::invalid_argument("score_lanes: too many targets");
  std::size_t columns = 0;
  for (const Residues& t : targets) columns = std::max(columns, t.size());
  if (columns > score_lanes_max_target(scheme)) throw std::invalid_argument("score_lanes: a target is too long");
  // Scratch of this thread, kept between calls.
  thread_local std::vector<Stored> profile, h_row, f_row;
  profile.assign(static_cast<std::size_t>(scheme.dim) * columns, Stored{broadcast(kPadScore)});
  for (int c = 0; c < scheme.dim; ++c) {
    const int* row = scheme.row(static_cast<std::uint8_t>(c));
    Stored* p = profile.data() + static_cast<std::size_t>(c) * columns;
    for (std::size_t k = 0; k < targets.size(); ++k)
      for (std::size_t j = 0; j < targets[k].size(); ++j) p[j].v[k] = static_cast<std::int16_t>(row[targets[k][j]]);
  }
  h_row.resize(columns);
  f_row.resize(columns);
  LaneBest best;
  const GapCosts g = gap_costs(scheme);
  chosen->run(q, profile.data(), columns, static_cast<int>(g.open_extend), static_cast<int>(g.extend), h_row.data(),
           f_row.data(), best);
  const int bound = overflow_bound16(scheme);
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const int score = best.score[k];
    overflowed[k] = score >= bound;
    out[k] = score > 0 ? PassResult{score, best.row[k], static_cast<std::uint16_t>(best.column[k]) + std::int64_t{1}}
                       : PassResult{0, 0, 0};
  }
}

}  // namespace gdp::pairwise
