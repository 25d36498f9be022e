// The 16-bit row kernel with its strip in two column groups half a step
// apart, so that one group's scan across the warp runs while the other
// group's columns are updated.
//
// The row kernel (striped_rows16.cu, which has the recurrence and the scan)
// spends about half a lone warp's step waiting: on the scan's shuffles,
// which nothing else of the row can overlap, since the row's columns need
// the scan's result and the next row needs the whole row. Here a warp's
// strip of 64 * Cols columns is two groups of 32 * Cols, A on the left and
// B on the right, and the warp's step i does, in one stretch of code:
//   1. the scan of A's row i, beside B's row i - 1 (its columns) and B's
//      row i (its A values and its own es out);
//   2. the scan of B's row i (its es in: A's out of row i), beside A's
//      row i (its columns) and A's row i + 1 (its A values).
// Lane L's registers hold, two cells each, its Cols / 2 columns of each
// group's first half (low halves) and the same of the group's second half
// (high halves): group g, half h, register c is the strip's column
// (2g + h) * 16 * Cols + L * Cols / 2 + c. B hands its right edge of row
// i - 1 on at step i.
//
// Overflow, the ring's tagged rows and the links work as in
// striped_score16.cu.
#include "pairwise/cuda/striped16_common.cuh"

namespace gdp::pairwise::striped {
namespace {

// -min(v, 32767): a decay that cannot wrap a non-negative 16-bit score.
__host__ __device__ constexpr int decay(long long v) { return -static_cast<int>(v < 32767 ? v : 32767); }

// The profile: for each query letter and group, lane L's G packed pairs
// (the half's first column score, its second's), four to a 16-byte chunk,
// chunk k of group g at ((letter * 2 + g) * G / 4 + k) * 32 + L, so that a
// warp's 128-bit loads touch every bank once.
template <int G>
__device__ __forceinline__ int profile_chunk(int letter, int group, int k, int lane) {
  return ((letter * 2 + group) * (G / 4) + k) * kLanes + lane;
}

// The scan's decays for lanes of G columns (striped_rows16.cu).
struct ScanDecays {
  unsigned lane, carry, level[5];
};

// A group's row, first part: A = max(diag + s, F, 0) of every column, and
// the lane's es out from A alone (returned). `above` is H(i - 1) of the
// column left of the group (lane 0's low half; the high halves' comes from
// lane 31's low half).
template <int G>
__device__ __forceinline__ unsigned row_start(const unsigned (&hp)[G], const unsigned (&fs)[G], unsigned (&a)[G],
                                              int above, const uint4* row, unsigned minus_oe, unsigned minus_ext,
                                              int lane) {
  unsigned diag = __shfl_up_sync(kFull, hp[G - 1], 1);
  const unsigned last31 = __shfl_sync(kFull, hp[G - 1], kLanes - 1);
  if (lane == 0) diag = pair(above, low(last31));
#pragma unroll
  for (int q = 0; q < G / 4; ++q) {
    const uint4 w = row[q * kLanes];
    const unsigned sc[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int c = 4 * q + b;
      a[c] = __viaddmax_s16x2(fs[c], minus_oe, __viaddmax_s16x2(diag, sc[b], 0u));
      diag = hp[c];
    }
  }
  unsigned x = a[0];
#pragma unroll
  for (int c = 1; c < G; ++c) x = __viaddmax_s16x2(x, minus_ext, a[c]);
  return x;
}

// The scan across the warp (striped_rows16.cu): from the lanes' own es out
// `x` and the group's es in (`left_es`), each lane's es in (returned) and
// the group's es out (`out`, in every lane).
__device__ __forceinline__ unsigned row_scan(unsigned x, int left_es, const ScanDecays& d, int lane, int& out) {
  x = __viaddmax_s16x2(lane == 0 ? pair(left_es, 0) : 0u, d.lane, x);
#pragma unroll
  for (int k = 0; k < 5; ++k) x = __viaddmax_s16x2(__shfl_up_sync(kFull, x, 1 << k), d.level[k], x);
  const unsigned low_out = __shfl_sync(kFull, x, kLanes - 1);  // es into the high halves' first column
  x = __viaddmax_s16x2(low_out << 16, d.carry, x);
  out = high(__shfl_sync(kFull, x, kLanes - 1));
  unsigned es = __shfl_up_sync(kFull, x, 1);
  if (lane == 0) es = pair(left_es, low(low_out));
  return es;
}

// A group's row, second part: es, H and F along the lane's columns.
template <int G>
__device__ __forceinline__ void row_finish(unsigned (&hp)[G], unsigned (&fs)[G], const unsigned (&a)[G], unsigned es,
                                           unsigned minus_oe, unsigned minus_ext) {
#pragma unroll
  for (int c = 0; c < G; ++c) {
    const unsigned h = __viaddmax_s16x2(es, minus_oe, a[c]);
    es = __viaddmax_s16x2(es, minus_ext, a[c]);
    fs[c] = __viaddmax_s16x2(fs[c], minus_ext, h);
    hp[c] = h;
  }
}

template <int Cols>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) striped_staggered16(Params p) {
  constexpr int G = Cols / 2;          // columns a lane in each group's half
  constexpr int kQuarter = kLanes * G;  // columns a group's half
  constexpr int kWidth = 4 * kQuarter;
  extern __shared__ __align__(16) uint4 profiles_staggered16[];
  __shared__ BlockShared shared;
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  uint4* profile = profiles_staggered16 + (threadIdx.x / kLanes) * p.rows * 2 * (G / 4) * kLanes;
  const int m = p.m;
  const unsigned minus_oe = pair(-p.open_extend, -p.open_extend), minus_ext = pair(-p.extend, -p.extend);
  ScanDecays decays;
  decays.lane = pair(decay(1LL * G * p.extend), decay(1LL * G * p.extend));
  decays.carry = pair(0, decay(1LL * (lane + 1) * G * p.extend));
#pragma unroll
  for (int d = 0; d < 5; ++d)
    decays.level[d] = pair(decay((1LL << d) * G * p.extend), decay((1LL << d) * G * p.extend));

  for (;;) {
    const long long s = next_strip(p, shared, lane);
    if (s == -1) return;
    if (s < 0) continue;
    const long long j0 = s * kWidth + lane * G;  // my first column (0-based) of group A's first half
    auto first_column = [&](int group, int half) { return j0 + (2 * group + half) * kQuarter; };

    __syncwarp();
    for (int a = 0; a < p.rows; ++a)
      for (int g = 0; g < 2; ++g)
#pragma unroll
        for (int k = 0; k < G / 4; ++k) {
          unsigned w[4];
#pragma unroll
          for (int b = 0; b < 4; ++b) {
            const long long xa = first_column(g, 0) + 4 * k + b, xb = first_column(g, 1) + 4 * k + b;
            const int sa = xa < p.n ? __ldg(p.sub + a * p.dim + p.t[xa]) : kPadScore<8>;
            const int sb = xb < p.n ? __ldg(p.sub + a * p.dim + p.t[xb]) : kPadScore<8>;
            w[b] = pair(sa, sb);
          }
          profile[profile_chunk<G>(a, g, k, lane)] = make_uint4(w[0], w[1], w[2], w[3]);
        }
    __syncwarp();

    const Neighbours nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    if (!wait_free_slot(p, nb, lane, p.overflow)) continue;

    // Row 0 of local alignment, F(1) + open + extend = 0; B's a and es of
    // "row 0" are 0, which leaves its row 0 at 0 when step 1 finishes it.
    unsigned hp_a[G], fs_a[G], a_a[G], hp_b[G], fs_b[G], a_b[G];
#pragma unroll
    for (int c = 0; c < G; ++c) hp_a[c] = 0, fs_a[c] = 0, hp_b[c] = 0, fs_b[c] = 0, a_b[c] = 0;
    unsigned es_b = 0;
    int out_b = 0;  // B's es out of its last row so far: the strip's right edge
    const bool from_ring = nb.in_slot >= 0;
    unsigned long long ahead = 0;
    if (from_ring) load_tagged_ahead(p, nb, lane, 0, ahead);
    int in_h = 0, in_e = neg_inf, out_h = 0, out_e = 0;
    Best16 best_a, best_b;
    int q_now = lane < m ? __ldg(p.q + lane) : 0;
    int letter = __shfl_sync(kFull, q_now, 0);  // row 1's
    unsigned x_a = row_start<G>(hp_a, fs_a, a_a, 0, profile + profile_chunk<G>(letter, 0, 0, lane), minus_oe,
                                minus_ext, lane);
    bool aborted = false;

    for (int step = 0; step < m && !aborted; ++step) {
      const int i = step + 1, k = step & (kBatch - 1);
      if (k == 0) {
        const bool ok = from_ring ? take_tagged_batch(p, nb, lane, step, ahead, in_h, in_e, p.overflow)
                                  : load_left_batch(p, true, nb, lane, step, in_h, in_e, p.overflow);
        if (!ok) aborted = true;
      }
      if (from_ring && k == kBatch / 2) load_tagged_ahead(p, nb, lane, step - k + kBatch, ahead);
      if ((step & 255) == 0) {
        int stop = 0;
        if (lane == 0) stop = *reinterpret_cast<const volatile int*>(p.overflow);
        if (__shfl_sync(kFull, stop, 0)) aborted = true;
      }
      if ((i & (kLanes - 1)) == 0) q_now = i + lane < m ? __ldg(p.q + i + lane) : 0;
      const int next_letter = __shfl_sync(kFull, q_now, i & (kLanes - 1));  // row i + 1's (past m: unused)
      const int bh = __shfl_sync(kFull, in_h, k), be = __shfl_sync(kFull, in_e, k);
      const int left_es = max(be, bh);  // the first strip: E(i, 0) is minus infinity, so es = H(i, 0)

      // 1. A's scan of row i; B's row i - 1, then B's A values of row i.
      int out_a = 0;
      const unsigned es_a = row_scan(x_a, left_es, decays, lane, out_a);
      row_finish<G>(hp_b, fs_b, a_b, es_b, minus_oe, minus_ext);
      const int b_above = high(__shfl_sync(kFull, hp_a[G - 1], kLanes - 1));  // A's H(i - 1) left of B
      const unsigned x_b = row_start<G>(hp_b, fs_b, a_b, b_above, profile + profile_chunk<G>(letter, 1, 0, lane),
                                        minus_oe, minus_ext, lane);
      // 2. B's scan of row i; A's row i, then A's A values of row i + 1.
      int next_out_b = 0;
      es_b = row_scan(x_b, out_a, decays, lane, next_out_b);
      row_finish<G>(hp_a, fs_a, a_a, es_a, minus_oe, minus_ext);
      const unsigned max_a = row_max16(hp_a), max_b = row_max16(hp_b);
      x_a = row_start<G>(hp_a, fs_a, a_a, bh, profile + profile_chunk<G>(next_letter, 0, 0, lane), minus_oe,
                         minus_ext, lane);
      letter = next_letter;

      // The best cells: A's row i, B's row i - 1.
      if (__any_sync(kFull, low(max_a) > best_a.a || high(max_a) > best_a.b || low(max_b) > best_b.a ||
                                high(max_b) > best_b.b)) {
        note_better16(p, hp_a, max_a, true, i, first_column(0, 0), true, i, first_column(0, 1), best_a);
        note_better16(p, hp_b, max_b, i > 1, i - 1, first_column(1, 0), i > 1, i - 1, first_column(1, 1), best_b);
      }
      if (produces) {  // the strip's right edge of row i - 1: lane 31's high half of B
        const int oh = high(__shfl_sync(kFull, hp_b[G - 1], kLanes - 1));
        if (!gather_and_publish<true>(p, nb, lane, i - 1, oh, out_b, out_h, out_e, p.overflow)) aborted = true;
      }
      out_b = next_out_b;
    }
    if (aborted) continue;  // the pass runs again in 32 bits

    // B's row m.
    row_finish<G>(hp_b, fs_b, a_b, es_b, minus_oe, minus_ext);
    const unsigned max_b = row_max16(hp_b);
    if (any_better16(max_b, best_b))
      note_better16(p, hp_b, max_b, true, m, first_column(1, 0), true, m, first_column(1, 1), best_b);
    if (produces) {
      const int oh = high(__shfl_sync(kFull, hp_b[G - 1], kLanes - 1));
      if (!gather_and_publish<true>(p, nb, lane, m, oh, out_b, out_h, out_e, p.overflow)) continue;
    }

    // The strip's best: the better of the groups' (ties: the earlier cell).
    Best16 best = best_a;
    if (better(best_b.a, best_b.ai, best_b.aj, best.a, best.ai, best.aj)) best.a = best_b.a, best.ai = best_b.ai, best.aj = best_b.aj;
    if (better(best_b.b, best_b.bi, best_b.bj, best.b, best.bi, best.bj)) best.b = best_b.b, best.bi = best_b.bi, best.bj = best_b.bj;
    publish_strip_best16(p, s, lane, best);
  }
}

}  // namespace

Kernel striped_staggered16_kernel(int cols) {
  return cols == 64   ? striped_staggered16<64>
         : cols == 32 ? striped_staggered16<32>
         : cols == 16 ? striped_staggered16<16>
                      : striped_staggered16<8>;
}

}  // namespace gdp::pairwise::striped
