#include "pairwise/strip_plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

namespace gdp::pairwise::striped {
namespace {

// Wider lanes cut the per-step overhead; 8 columns give more strips, which
// narrow matrices need to fill the GPU. The 16-bit kernels' widths by the
// target's letters, from scripts/bench/sw-lanes.sh on queries of 1e5 to
// 1e6 letters (bench/RESULTS.md); the 32-bit kernel's, 16 from 10^6 on
// (sixth round). 32 and 64 asked of the 32-bit kernel mean 16.
constexpr long long kLanes16From = 250000, kLanes32From = 600000, kLanes64From = 2000000;
int lane_columns(long long n, int max_abs_score, int asked, bool sixteen) {
  if (max_abs_score > 127) return 8;  // the wider profiles hold 8-bit scores
  if (asked >= 32 && !sixteen) asked = 16;
  if (asked == 8 || asked == 16 || asked == 32 || asked == 64) return asked;
  if (!sixteen) return n < 1000000 ? 8 : 16;
  if (n < kLanes16From) return 8;
  if (n < kLanes32From) return 16;
  return n < kLanes64From ? 32 : 64;
}

// Steps a strip starts after the one on its left: as many rows as the
// warp's wavefront is deep, plus a batch (the row kernel's edge is out at
// once; 4 steps stand for the hand-over).
constexpr long long kLag32 = kLanes + kBatch, kDiagonalLag = 2 * kLanes + kBatch, kRowLag = kBatch + 4;

// A strip starts about `lag` steps after the one on its left, so a query
// of m rows keeps about m / lag warps busy. Warps beyond that only wait
// for their left neighbour, and slow the busy ones on their SM: blocks an
// SM are capped so that the warps number about 0.85 of m / lag, and 0.40
// with the diagonal kernel's 64 columns a lane, whose 254 registers run
// best one block an SM (bench/RESULTS.md, fifth and sixth rounds).
long long busy_blocks_of(long long m, KernelKind kind, int cols) {
  const long long lag = kind == KernelKind::s16_rows ? kRowLag : kind == KernelKind::s16_diagonal ? kDiagonalLag : kLag32;
  const long long busy_share = cols == 64 && kind == KernelKind::s16_diagonal ? 40 : 85;
  return m * busy_share / (100 * lag * kWarpsPerBlock);
}

// Which 16-bit kernel. The diagonal one's strips start kDiagonalLag (72)
// steps after the one on their left, so its wavefront takes
// min(strips, warps) x 72 steps to fill, against m steps a strip in
// strips / warps rounds (warps: one block an SM). Where that fill is more
// than 0.3 of the run, the row kernel, whose strips start a batch after
// their neighbour, is faster if its profile (twice the diagonal one's)
// lets it keep the columns a lane; where the fill is longer than the run,
// even with fewer (bench/RESULTS.md, seventh round).
bool use_rows16(Kernel16 asked, long long m, long long n, int cols_diagonal, int cols_rows, int sms) {
  if (asked != Kernel16::choose) return asked == Kernel16::rows;
  const double strips = std::ceil(static_cast<double>(n) / (2 * kLanes * cols_diagonal));
  const double warps = static_cast<double>(kWarpsPerBlock) * sms, lag = kDiagonalLag;
  const double fill = std::min(strips, warps) * lag / (static_cast<double>(m) * std::max(1.0, strips / warps));
  return fill > 1 || (fill > 0.3 && cols_rows == cols_diagonal);
}

// The row kernel's columns a lane, unless asked. A run takes about
// m x rounds + min(strips, warps) x lag steps (rounds: strips / warps, at
// least 1; warps: one block an SM). Wider lanes make fewer strips, so fewer
// rounds and a shorter fill, but longer steps. The cycles a step are the
// H100's in a chain of 32 strips (bench/RESULTS.md, seventh round); only
// their ratios matter here. Up to `widest` columns (what the profile lets fit).
int row_kernel_columns(long long m, long long n, int widest, int sms) {
  constexpr std::pair<int, double> step_cycles[] = {{8, 973}, {16, 1189}, {32, 1329}, {64, 1738}};
  const double warps = static_cast<double>(kWarpsPerBlock) * sms, lag = kRowLag;
  int best = 8;
  double best_time = 0;
  for (const auto& [cols, cycles] : step_cycles) {
    if (cols > widest) break;
    const double strips = std::ceil(static_cast<double>(n) / (2 * kLanes * cols));
    const double time = (static_cast<double>(m) * std::max(1.0, strips / warps) + std::min(strips, warps) * lag) * cycles;
    if (cols == 8 || time < best_time) best = cols, best_time = time;
  }
  return best;
}

}  // namespace

Rebase16 rebase16_of(int open_extend, int max_abs_score, int lane_columns) {
  const rebased16::Plan p = rebased16::plan(open_extend, max_abs_score, kLanes * lane_columns + 1);
  const int interval = static_cast<int>(std::bit_floor(static_cast<unsigned>(std::max(p.rows - 3 * kLanes, 0))));
  if (interval < kMinRebaseInterval) return {};
  return {interval, p.reach};
}

bool kept_in_rebased16(int open_extend, int max_abs_score, int tuning_bits) {
  return tuning_bits != 32 && max_abs_score <= 127 && rebase16_of(open_extend, max_abs_score, kKeptCols).interval > 0;
}

namespace {

// The plan in 32 bits, or (sixteen) with two 16-bit cells a register, in
// the rebased kernel alone where `rebased_only`; an s32 plan where that
// kernel cannot rebase often enough.
KernelPlan plan_kernel_of(const PassRequest& r, const GpuTuning& tuning, const DeviceLimits& d, bool sixteen,
                          bool rebased_only) {
  auto strip_width_of = [&](int columns) { return (sixteen ? 2 : 1) * kLanes * static_cast<long long>(columns); };
  // A block's profiles in shared memory: a row a query letter, a byte a
  // column (two with 8 columns in 32 bits, and in the row kernel, whose
  // profile holds the two halves' scores packed).
  auto profile_shared = [&](int columns, bool packed) {
    const std::size_t bytes = packed ? 2 : sixteen || columns >= 16 ? 1 : 2;
    return static_cast<std::size_t>(kWarpsPerBlock) * static_cast<std::size_t>(r.profile_rows) *
           static_cast<std::size_t>(strip_width_of(columns)) * bytes;
  };
  // The diagonal 16-bit kernels keep each lane's best rows beside the
  // profiles: 4 bytes a column (striped16_common.cuh: note_better_kept16).
  auto kernel_shared = [&](int columns, bool packed) {
    const std::size_t kept = sixteen && !packed ? std::size_t{kWarpsPerBlock} * 2 * kLanes * 4 : 0;
    return profile_shared(columns, packed) + kept * static_cast<std::size_t>(columns);
  };
  // 64 columns a lane take 4 KiB of profile a letter and warp (8 in the
  // row kernel): a query of many letters (protein) takes fewer, whose
  // profile fits.
  auto fitting = [&](int columns, bool packed) {
    while (columns > 8 && kernel_shared(columns, packed) > d.shared_per_block) columns /= 2;
    return columns;
  };
  // A kept pass: as a score pass in the rebased kernel, up to kMaxKeptCols16
  // columns; 8 in 32 bits.
  const int score_columns = lane_columns(r.n, r.max_abs_score, tuning.lane_columns, sixteen);
  const int asked = !r.kept ? score_columns : sixteen ? std::min(score_columns, kMaxKeptCols16) : kKeptCols;
  const int cols_diagonal = fitting(asked, false), cols_rows = fitting(asked, true);
  // The rebased diagonal kernel holds any score, in bases moved every few
  // rows, fewer the wider the lane: narrower lanes where the scores leave
  // too few, and the choice as without it where even 8 columns do.
  auto rebase_of = [&](int columns) { return rebase16_of(r.open_extend, r.max_abs_score, columns); };
  // At most 32 columns a lane unless asked: long homologous pairs' rebased
  // passes ran 10% (1e7 x 1e7) to 25% (3e6 x 3e6) faster than at 64
  // (bench/RESULTS.md).
  const bool columns_asked = tuning.lane_columns != 0;
  int cols_rebased = columns_asked ? cols_diagonal : std::min(cols_diagonal, kMaxRebasedCols);
  while (cols_rebased > 8 && rebase_of(cols_rebased).interval == 0) cols_rebased /= 2;
  const bool rebased = (rebased_only || tuning.kernel16 == Kernel16::rebased) && rebase_of(cols_rebased).interval > 0;
  if (sixteen && rebased_only && !rebased) return plan_kernel_of(r, tuning, d, false, false);
  KernelPlan k;
  k.kind = !sixteen  ? KernelKind::s32
           : rebased ? KernelKind::s16_rebased
           : use_rows16(tuning.kernel16, r.m, r.n, cols_diagonal, cols_rows, d.sms) ? KernelKind::s16_rows
                                                                                    : KernelKind::s16_diagonal;
  const bool rows = k.kind == KernelKind::s16_rows;
  k.lane_columns = rebased        ? cols_rebased
                   : !rows         ? cols_diagonal
                   : columns_asked ? cols_rows
                                   : row_kernel_columns(r.m, r.n, fitting(64, true), d.sms);
  k.strip_width = strip_width_of(k.lane_columns);
  k.shared_bytes = kernel_shared(k.lane_columns, rows);
  if (rebased) k.rebase = rebase_of(k.lane_columns);
  return k;
}

}  // namespace

KernelPlan plan_kernel(const PassRequest& r, const GpuTuning& tuning, const DeviceLimits& d) {
  // Two 16-bit cells a register where they can hold the scores (8-bit
  // substitution scores): local alignment's score and end cell in any
  // 16-bit kernel; every other pass (global and semi-global shapes, row m
  // for Myers-Miller, the traceback's kept pass) in the rebased kernel,
  // whose cells hold any score.
  const bool sixteen = tuning.bits != 32 && r.max_abs_score <= 127;
  const bool local_score = r.local && r.anywhere && !r.last_h && !r.last_f && !r.kept && !r.save_rows;
  return plan_kernel_of(r, tuning, d, sixteen, sixteen && !local_score);
}

GridPlan plan_grid(const PassRequest& r, const KernelPlan& k, const GpuTuning& tuning, const DeviceLimits& d, int fit,
                   std::size_t free_bytes) {
  GridPlan g;
  // Blocks an SM: no more than the wavefront keeps busy, unless asked.
  const long long busy_blocks = busy_blocks_of(r.m, k.kind, k.lane_columns);
  g.blocks_per_sm = static_cast<int>(std::clamp<long long>(busy_blocks / d.sms, 1, fit));
  if (tuning.blocks_per_sm > 0) g.blocks_per_sm = std::clamp(tuning.blocks_per_sm, 1, fit);

  // A target of 2^31 letters or more goes through in pieces of whole
  // strips, one launch each, the right edge of one the left edge of the
  // next (tests ask for small pieces through tuning.piece_columns); so
  // does a pass saved to a checkpoint file after each piece.
  const long long w = k.strip_width;
  long long piece = r.kept ? r.n : ((1LL << 31) - 2 * kMaxStripWidth) / w * w;
  if (r.chained > 0) {
    long long widest = static_cast<long long>(g.blocks_per_sm) * d.sms * kWarpsPerBlock * w / std::max(r.sharing, 1);
    if (tuning.piece_columns > 0) widest = std::min(widest, tuning.piece_columns);
    piece = chained_cuts(r.n, w, widest, r.chained)[1];  // the widest
  } else if (!r.kept && tuning.piece_columns > 0) {
    piece = std::max(w, tuning.piece_columns / w * w);
  } else if (r.saved) {
    const long long wave = static_cast<long long>(g.blocks_per_sm) * d.sms * kWarpsPerBlock * w;
    piece = std::min(piece, std::max(1LL, kSavedPieceCells / std::max(1LL, r.m * wave)) * wave);
  }
  g.piece = std::min(piece, r.n);
  // Groups of strips that one block sweeps, handing over in shared memory.
  g.group = tuning.group == 1 ? 1 : kWarpsPerBlock;
  const long long wave_blocks = static_cast<long long>(g.blocks_per_sm) * d.sms;

  auto place = [&](long long piece_columns) {
    g.strips = (piece_columns + w - 1) / w;
    g.blocks = std::min<long long>(wave_blocks, (g.strips + kWarpsPerBlock - 1) / kWarpsPerBlock);
  };
  place(g.piece);
  const long long warps = g.blocks * kWarpsPerBlock;
  const long long groups = (g.strips + g.group - 1) / g.group;
  // Ring slots: twice the groups in flight keeps producers from waiting for
  // a free slot; the ring takes at most a quarter of the free memory.
  const long long column_bytes = r.m * r.edge_bytes;
  const long long affordable = static_cast<long long>(free_bytes / 4) / column_bytes;
  const long long wanted = std::min(groups, 2 * warps / g.group);
  const long long window = tuning.ring_rows > 0 ? std::max(tuning.ring_rows, kMinRingRows) : kRingRows;
  if (!r.kept && r.m > window && (tuning.ring_rows > 0 || affordable < wanted)) {
    // One wave of groups a piece, a slot a group.
    g.piece = std::min(g.piece, wave_blocks * kWarpsPerBlock * w);
    place(g.piece);
    g.slots = (g.strips + g.group - 1) / g.group;
    g.ring_rows = window, g.windowed = true;
    g.fits = g.slots * window * r.edge_bytes <= static_cast<long long>(free_bytes / 4);
    return g;
  }
  g.ring_rows = r.m;
  g.slots = std::min(wanted, affordable);
  if (tuning.max_slots > 0) g.slots = std::min(g.slots, std::max(tuning.max_slots, 2LL));
  g.fits = g.slots >= 1 && (groups == 1 || g.slots >= 2);
  return g;
}

std::vector<long long> chained_cuts(long long n, long long strip_width, long long widest, int places) {
  const long long w = strip_width, strips = (n + w - 1) / w;
  const long long most = std::max(1LL, widest / w), k = std::max(places, 1);
  const long long full_rounds = (strips + k * most - 1) / (k * most) - 1;
  std::vector<long long> cuts{0};
  long long at = 0;  // strips cut so far
  for (long long p = 0; p < full_rounds * k; ++p) cuts.push_back((at += most) * w);
  const long long last = (strips - at + k - 1) / k;  // the last round's pieces
  while (at < strips) cuts.push_back(std::min((at += last) * w, n));
  cuts.back() = n;
  return cuts;
}

long long piece_within(const PassRequest& r, const KernelPlan& k, long long piece, std::size_t free_bytes) {
  if (r.kept) return piece;
  const long long bytes = 2 + (wants_row(r) ? 4 : 0) + (r.last_f ? 4 : 0);
  const long long room = static_cast<long long>(free_bytes) / 2 / bytes / k.strip_width * k.strip_width;
  if (room >= piece) return piece;
  return room < k.strip_width ? 0 : room;
}

}  // namespace gdp::pairwise::striped
