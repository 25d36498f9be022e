// The 16-bit striped score kernel with a warp on one row at a time: the
// row's E carried across the warp by a scan, so that a strip's right edge
// of row i is out at the warp's step i, not 63 steps later.
//
// A warp sweeps a strip of 64 * Cols columns (Cols = 8, 16, 32 or 64). Lane L's
// registers hold, two cells each, its Cols columns of the strip's first
// half (low halves) and the same columns of the second half (high halves),
// all on the same row: one query letter a step, so the profile holds the
// two halves' scores already packed, and a step is
//   1. A = max(diag + s, F, 0) of every column (two instructions a column),
//      and the lane's own es out of its last column from A alone (one);
//   2. an inclusive scan of those across the lanes (five shuffles), then
//      the low half's out carried into the high half: each lane's es in;
//   3. es, H and F along the lane's columns (three instructions a column).
// es(c+1) = max(es(c) - extend, A(c)) is a max-plus recurrence, so a lane's
// es out is max(es in - Cols * extend, its own out), and the scan combines
// lanes with that. E and F are carried plus open + extend, as in
// striped_score16.cu, which has the details; here one more instruction a
// column buys a strip that hands its edge on at once: strips start about
// kBatch steps after their left neighbours instead of 72, and the
// wavefront across the target no longer bounds the run.
//
// Overflow, the ring's tagged rows and the links work as in
// striped_score16.cu.
#include "pairwise/cuda/striped16_common.cuh"

namespace gdp::pairwise::striped {
namespace {

// -min(v, 32767): a decay that cannot wrap a non-negative 16-bit score.
__host__ __device__ constexpr int decay(long long v) { return -static_cast<int>(v < 32767 ? v : 32767); }

// The profile: for each query letter, lane L's Cols packed pairs (the low
// half's column score, the high half's), four to a 16-byte chunk, chunk k
// of lane L at ((letter * Cols / 4) + k) * 32 + L, so that a warp's
// 128-bit loads touch every bank once.
template <int Cols>
__device__ __forceinline__ int profile_chunk(int letter, int k, int lane) {
  return (letter * (Cols / 4) + k) * kLanes + lane;
}

template <int Cols>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) striped_rows16(GotohParams p) {
  constexpr int kHalf = kLanes * Cols;  // columns a half
  constexpr int kWidth = 2 * kHalf;
  extern __shared__ __align__(16) uint4 profiles_rows16[];
  __shared__ BlockShared<GotohEdge> shared;
  start_links(shared);
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  uint4* profile = profiles_rows16 + (threadIdx.x / kLanes) * p.rows * (Cols / 4) * kLanes;
  const int m = p.m;
  const unsigned minus_oe = pair(-p.costs.open_extend, -p.costs.open_extend), minus_ext = pair(-p.costs.extend, -p.costs.extend);
  // The scan's decays: d lanes of Cols columns; the low half's out into
  // high lane L's out, across L + 1 lanes (the low halves unchanged).
  const unsigned lane_decay = pair(decay(1LL * Cols * p.costs.extend), decay(1LL * Cols * p.costs.extend));
  const unsigned carry_decay = pair(0, decay(1LL * (lane + 1) * Cols * p.costs.extend));
  unsigned scan_decay[5];
#pragma unroll
  for (int d = 0; d < 5; ++d) scan_decay[d] = pair(decay((1LL << d) * Cols * p.costs.extend), decay((1LL << d) * Cols * p.costs.extend));

  for (;;) {
    const long long s = next_strip(p, shared, lane);
    if (s == -1) return;
    if (s < 0) continue;
    const long long ja = s * kWidth + lane * Cols, jb = ja + kHalf;  // my first columns, 0-based

    __syncwarp();
    for (int a = 0; a < p.rows; ++a)
#pragma unroll
      for (int k = 0; k < Cols / 4; ++k) {
        unsigned w[4];
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const long long xa = ja + 4 * k + b, xb = jb + 4 * k + b;
          const int sa = xa < p.n ? __ldg(p.sub + a * p.dim + p.t[xa]) : kPadScore<8>;
          const int sb = xb < p.n ? __ldg(p.sub + a * p.dim + p.t[xb]) : kPadScore<8>;
          w[b] = pair(sa, sb);
        }
        profile[profile_chunk<Cols>(a, k, lane)] = make_uint4(w[0], w[1], w[2], w[3]);
      }
    __syncwarp();

    const Neighbours<GotohEdge> nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    if (!wait_free_slot(p, nb, lane, p.overflow)) continue;

    unsigned hp[Cols], fs[Cols];
#pragma unroll
    for (int c = 0; c < Cols; ++c) hp[c] = 0, fs[c] = 0;  // row 0 of local alignment; F(1) + open + extend = 0
    const bool from_ring = nb.in_slot >= 0;
    unsigned long long ahead = 0;
    if (from_ring) load_tagged_ahead(p, nb, lane, 0, ahead);
    GotohEdge in{0, neg_inf}, out{0, 0};
    int left_h_above = 0;  // H(i - 1, first column - 1): row 0
    Best16 best;
    int q_now = lane < m ? __ldg(p.q + lane) : 0;
    bool aborted = false;

    for (int step = 0; step < m && !aborted; ++step) {
      const int i = step + 1, k = step & (kBatch - 1);
      step_left_inputs(p, nb, lane, step, k, k == 0, from_ring, ahead, in, aborted);
      const int letter = __shfl_sync(kFull, q_now, step & (kLanes - 1));
      if ((step & (kLanes - 1)) == kLanes - 1) q_now = step + 1 + lane < m ? __ldg(p.q + step + 1 + lane) : 0;
      const GotohEdge batch_row = shfl(in, k);
      const int bh = batch_row.h, be = batch_row.e;
      const int left_es = max(be, bh);  // the first strip: E(i, 0) is minus infinity, so es = H(i, 0)

      // diag of my first column: H(i - 1) of the column before it.
      unsigned diag = __shfl_up_sync(kFull, hp[Cols - 1], 1);
      const unsigned last31 = __shfl_sync(kFull, hp[Cols - 1], kLanes - 1);
      if (lane == 0) diag = pair(left_h_above, low(last31));
      left_h_above = bh;

      // 1. A of every column, and my es out from A alone.
      unsigned a[Cols];
      const uint4* row = profile + profile_chunk<Cols>(letter, 0, lane);
#pragma unroll
      for (int q = 0; q < Cols / 4; ++q) {
        const uint4 w = row[q * kLanes];
        const unsigned sc[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const int c = 4 * q + b;
          a[c] = a_s16x2(diag, sc[b], fs[c], minus_oe);
          diag = hp[c];
        }
      }
      unsigned x = es_out_s16x2(a, minus_ext);
      // 2. The scan: lane 0's low half takes the strip's left es in.
      x = __viaddmax_s16x2(lane == 0 ? pair(left_es, 0) : 0u, lane_decay, x);
#pragma unroll
      for (int d = 0; d < 5; ++d) x = __viaddmax_s16x2(__shfl_up_sync(kFull, x, 1 << d), scan_decay[d], x);
      const unsigned low_out = __shfl_sync(kFull, x, kLanes - 1);  // es into the high half's first column
      x = __viaddmax_s16x2(low_out << 16, carry_decay, x);
      unsigned es = __shfl_up_sync(kFull, x, 1);
      if (lane == 0) es = pair(left_es, low(low_out));
      // 3. es, H and F along my columns.
#pragma unroll
      for (int c = 0; c < Cols; ++c) hp[c] = finish_s16x2(a[c], es, fs[c], minus_oe, minus_ext);

      const unsigned row_max = row_max16(hp);
      if (any_better16(row_max, best)) note_better16(p, hp, row_max, true, i, ja, true, i, jb, best);

      if (produces) {  // the strip's right edge of row i: lane 31's high half
        const unsigned edge = __shfl_sync(kFull, (hp[Cols - 1] >> 16) | (es & 0xffff0000u), kLanes - 1);
        if (!gather_and_publish<true>(p, nb, lane, i, GotohEdge{low(edge), high(edge)}, out, p.overflow)) aborted = true;
      }
    }
    if (aborted) continue;  // the pass runs again in 32 bits

    publish_strip_best16(p, s, lane, best);
  }
}

}  // namespace

Kernel striped_rows16_kernel(int cols) {
  return cols == 64 ? striped_rows16<64> : cols == 32 ? striped_rows16<32> : cols == 16 ? striped_rows16<16> : striped_rows16<8>;
}

}  // namespace gdp::pairwise::striped
