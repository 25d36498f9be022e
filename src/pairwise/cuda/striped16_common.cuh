#pragma once
// What the two 16-bit score kernels share (striped_score16.cu, the diagonal
// one, and striped_rows16.cu, the row one): two 16-bit cells a register,
// and each lane's best cell so far.
#include "pairwise/cuda/gotoh_kernels.cuh"
#include "pairwise/cuda/strip_handover.cuh"

namespace gdp::pairwise::striped {

// A step's inputs from the left and its overflow check, in both kernels:
// lane 0's left edge for the next kBatch rows at the batch's first step
// (when `batch_due`), from the tagged ring (loaded ahead, the next batch's
// load started halfway through this one) or from a link or column 0; and
// every 256 steps, whether any warp has found a score too large. Sets
// `aborted`, for the whole warp, once the pass is to stop. Column 0 is
// local alignment's, or (Local false) global's.
template <bool Local = true>
__device__ __forceinline__ void step_left_inputs(const GotohParams& p, const Neighbours<GotohEdge>& nb, int lane, int step, int k,
                                                 bool batch_due, bool from_ring, unsigned long long& ahead,
                                                 GotohEdge& in, bool& aborted) {
  if (batch_due) {
    const bool ok = from_ring ? take_tagged_batch(p, nb, lane, step, ahead, in, p.overflow)
                              : load_left_batch<GotohCell<Local>>(p, nb, lane, step, in, p.overflow);
    if (!ok) aborted = true;
  }
  if (from_ring && k == kBatch / 2) load_tagged_ahead(p, nb, lane, step - k + kBatch, ahead);
  if ((step & 255) == 0) {
    int stop = 0;
    if (lane == 0) stop = *reinterpret_cast<const volatile int*>(p.overflow);
    if (__shfl_sync(kFull, stop, 0)) aborted = true;
  }
}

// A lane's best cell so far in its low halves (a) and its high halves (b).
struct Best16 {
  int a = 0, ai = 0, aj = 0, b = 0, bi = 0, bj = 0;
};

// The maximum of a lane's row in each half: at least 0 where the cells are
// scores, as they are; not where they are offsets from a base, which can
// be negative (striped_score16.cu).
template <int Cols, bool AtLeastZero = true>
__device__ __forceinline__ unsigned row_max16(const unsigned (&hp)[Cols]) {
  unsigned m = __vimax3_s16x2(hp[0], hp[1], hp[2]);
#pragma unroll
  for (int c = 3; c + 1 < Cols; c += 2) m = __vimax3_s16x2(m, hp[c], hp[c + 1]);
  if constexpr (AtLeastZero) return __vimax_s16x2_relu(m, hp[Cols - 1]);
  return __vimax3_s16x2(m, hp[Cols - 1], hp[Cols - 1]);
}

// Keeps the row's maxima where they beat the best so far: row ia of the
// low halves (columns ja + 1 ..), row ib of the high halves (jb + 1 ..),
// each only if active; the first column of the maximum, as the oracle's
// ties go. A score reaching overflow_at sets p.overflow.
template <int Cols>
__device__ __forceinline__ void note_better16(const GotohParams& p, const unsigned (&hp)[Cols], unsigned row_max,
                                              bool active_a, int ia, long long ja, bool active_b, int ib,
                                              long long jb, Best16& best) {
  const int max_a = low(row_max), max_b = high(row_max);
  if (active_a && max_a > best.a) {
    best.a = max_a, best.ai = ia;
#pragma unroll
    for (int c = Cols - 1; c >= 0; --c)
      if (low(hp[c]) == max_a) best.aj = static_cast<int>(ja + c + 1);
  }
  if (active_b && max_b > best.b) {
    best.b = max_b, best.bi = ib;
#pragma unroll
    for (int c = Cols - 1; c >= 0; --c)
      if (high(hp[c]) == max_b) best.bj = static_cast<int>(jb + c + 1);
  }
  if ((active_a && max_a >= p.overflow_at) || (active_b && max_b >= p.overflow_at)) atomicExch(p.overflow, 1);
}

// The diagonal kernel's way to the same cells: each half's best score and
// row, and that row's cells kept in shared memory (`kept_a`, `kept_b`:
// this lane's Cols words, 16 bytes at a time, a warp's 32 lanes side by
// side) whenever the score improves; the row's first column of the
// maximum is found once, when the strip ends (first_max_column). Searching
// the columns at every improvement, as note_better16 does, measured much
// slower on similar pairs, whose best improves on nearly every row of a
// chain of strips (bench/RESULTS.md).
template <int Cols>
__device__ __forceinline__ void keep_row16(unsigned* kept, const unsigned (&hp)[Cols]) {
#pragma unroll
  for (int w = 0; w < Cols / 4; ++w)
    reinterpret_cast<uint4*>(kept)[w * kLanes] = make_uint4(hp[4 * w], hp[4 * w + 1], hp[4 * w + 2], hp[4 * w + 3]);
}

template <int Cols>
__device__ __forceinline__ void note_better_kept16(const GotohParams& p, const unsigned (&hp)[Cols], unsigned row_max,
                                                   bool active_a, int ia, bool active_b, int ib, Best16& best,
                                                   unsigned* kept_a, unsigned* kept_b) {
  const int max_a = low(row_max), max_b = high(row_max);
  if (active_a && max_a > best.a) best.a = max_a, best.ai = ia, keep_row16(kept_a, hp);
  if (active_b && max_b > best.b) best.b = max_b, best.bi = ib, keep_row16(kept_b, hp);
  if ((active_a && max_a >= p.overflow_at) || (active_b && max_b >= p.overflow_at)) atomicExch(p.overflow, 1);
}

// The first of a kept row's Cols columns (0-based) holding its maximum, in
// the low or the high halves.
template <int Cols>
__device__ __forceinline__ int first_max_column(const unsigned* kept, bool high_half) {
  int best = INT_MIN, column = 0;
#pragma unroll
  for (int w = 0; w < Cols / 4; ++w) {
    const uint4 v = reinterpret_cast<const uint4*>(kept)[w * kLanes];
    const unsigned x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int h = high_half ? high(x[k]) : low(x[k]);
      if (h > best) best = h, column = 4 * w + k;
    }
  }
  return column;
}

// A warp-uniform test first: a better cell is rare after the first rows,
// and a score reaching overflow_at is always a better one.
__device__ __forceinline__ bool any_better16(unsigned row_max, const Best16& best) {
  return __any_sync(kFull, low(row_max) > best.a || high(row_max) > best.b);
}

// The strip's best cell: the better of the lane's halves, then the warp's.
__device__ __forceinline__ void publish_strip_best16(const GotohParams& p, long long s, int lane, const Best16& best) {
  if (better(best.b, best.bi, best.bj, best.a, best.ai, best.aj))
    publish_strip_best(p, s, lane, best.b, best.bi, best.bj);
  else
    publish_strip_best(p, s, lane, best.a, best.ai, best.aj);
}

}  // namespace gdp::pairwise::striped
