#pragma once
// The cube on the GPU (dissertation section 5.2.2, SLOPED, with a warp for
// a chunk): the (i, j) face is cut into chunks of kRows rows of a by 32
// columns of b, each swept over every k by one warp. Lane L owns column
// j = j0 + L and keeps the chunk's kRows cells H(i0 .. i0 + kRows - 1, j, k)
// in registers; at step t it computes plane k = t - L, the lanes one step
// apart, so that column j - 1's cells of plane k (and k - 1) come from
// lane L - 1 by shuffles, lane 0's from the chunk on the left through
// `across`, and row i0 - 1's from the chunk above through `down`.
//
// Warps take chunks from a ticket in anti-diagonal order of the chunk grid
// and publish how many steps they have done every 32 steps; a warp waits,
// every 32 steps, for the steps of the chunks above and to its left that
// its next 32 steps read (a chunk only waits for chunks with earlier
// tickets, already running: Xiao, Aji and Feng). The hand-over buffers are
// written in place: a chunk reads its neighbour's value of plane k before
// it writes its own there, and the next chunk reads it only after waiting.
//
// Traced (phase 1 of the three-phase traceback, start_points.hpp): each
// cell also carries its local start point beside its H, and the start
// points of every chunk's last row and last column are kept for phase 2;
// the last layer is not written.
#include <cuda/atomic>

#include "align3/cuda/start_points.hpp"
#include "align3/recurrence.hpp"

namespace gdp::align3 {

constexpr int kLanes = kChunkCols;  // a chunk's columns of b: a warp's lanes
constexpr int kRows = kChunkRows;   // a chunk's rows of a: cells a lane keeps
constexpr int kWarps = 4;           // warps of a block, each sweeping its own chunks
constexpr int kMaxDim = 32;         // letters a scoring scheme may have here
constexpr int kStride = 32;         // steps between a chunk's publications and between its waits
constexpr unsigned kFull = 0xffffffffu;

struct LayerParams {
  const std::uint8_t *a, *b, *c;
  const int* sub;  // dim x dim
  int dim, gap2;
  int m, n, p;
  int* down;             // H(last row of a chunk, j, k) at [(k + j % 32) * down_stride + j]: the step that writes it
  long long down_stride;  // n + 1 rounded up to 32
  int* across;           // H(i0 + r, last column of a chunk, k) at [(chunk row * (p + 1) + k) * kRows + r]
  int* corner;           // H(i0 - 1, last column of a chunk, k) at [chunk row * (p + 1) + k]
  int* last;             // H(m, j, k) at [j * (p + 1) + k] (untraced)
  int* kept_bottom;      // traced: the faces' start points (FaceLayout)
  int* kept_right;
  int* end;              // traced: H(m, n, p) and its start point
  const int* order;      // the chunks (ci * cols + cj) in ticket order
  int* done;             // the steps each chunk has done
  unsigned* ticket;
  int chunks, rows, cols;
};

// Lane 0: until chunk `chunk` has done `steps` steps.
__device__ __forceinline__ void wait_done(int* done, int chunk, int steps) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device> d(done[chunk]);
  while (d.load(::cuda::memory_order_acquire) < steps) __nanosleep(32);
}

// Traced: at most 168 registers, three blocks an SM (bench/RESULTS.md,
// "gpu-align3's three-phase traceback").
template <bool kTraced>
__global__ void __launch_bounds__(kWarps* kLanes, kTraced ? 3 : 0) sloped_sweep(LayerParams p) {
  __shared__ int sub[kMaxDim * kMaxDim];
  // profile[w][c][r] = sub(a of row i0 + r, c) for warp w's chunk; a row of
  // kRows + 1 so that lanes on different letters read different banks.
  __shared__ int profile[kWarps][kMaxDim][kRows + 1];
  for (int x = static_cast<int>(threadIdx.x); x < p.dim * p.dim; x += kWarps * kLanes) sub[x] = p.sub[x];
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  int(*prof)[kRows + 1] = profile[threadIdx.x / kLanes];
  const int steps = p.p + kLanes;  // step t: lane L on plane t - L, for t = 0 .. p + 31
  const long long plane_c = p.p + 1;
  const FaceLayout faces{p.p, p.down_stride, p.rows, p.cols};
  for (;;) {
    int chunk = -1;
    if (lane == 0) {
      const unsigned t = atomicAdd(p.ticket, 1u);
      chunk = t < static_cast<unsigned>(p.chunks) ? p.order[t] : -1;
    }
    chunk = __shfl_sync(kFull, chunk, 0);
    if (chunk < 0) return;
    const int ci = chunk / p.cols, cj = chunk % p.cols;
    const int i0 = ci * kRows, j = cj * kLanes + lane;
    __syncwarp();  // the last chunk's profile is read
    for (int x = lane; x < p.dim * kRows; x += kLanes) {
      const int c = x / kRows, r = x % kRows, i = i0 + r;
      prof[c][r] = i >= 1 && i <= p.m ? sub[p.a[i - 1] * p.dim + c] : 0;
    }
    __syncwarp();
    const int lb = j >= 1 && j <= p.n ? p.b[j - 1] : 0;
    const int* sub_b = sub + lb * p.dim;
    int ab[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) ab[r] = prof[lb][r];
    const bool above = ci > 0, left_chunk = cj > 0;
    const bool below = ci + 1 < p.rows, right_chunk = cj + 1 < p.cols;
    const bool origin = ci == 0 && cj == 0 && lane == 0;
    const int row_m = p.m - i0;  // the row of i = m, if this chunk has it
    int* down_j = p.down + j;
    const int* across_in = p.across + static_cast<long long>(ci) * plane_c * kRows;
    int* across_out = p.across + static_cast<long long>(ci) * plane_c * kRows;
    int* corner = p.corner + static_cast<long long>(ci) * plane_c;

    int cur[kRows], left[kRows], left_prev[kRows], next_left[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) cur[r] = left[r] = left_prev[r] = next_left[r] = neg_inf;
    // Traced: the cells' start points beside cur, left and left_prev.
    int cur_s[kTraced ? kRows : 1], left_s[kTraced ? kRows : 1], left_prev_s[kTraced ? kRows : 1];
    if constexpr (kTraced) {
#pragma unroll
      for (int r = 0; r < kRows; ++r) cur_s[r] = left_s[r] = left_prev_s[r] = 0;
    }
    int top = neg_inf, top_prev = neg_inf, top_left = neg_inf, top_left_prev = neg_inf;
    int next_top = neg_inf, next_corner = neg_inf, next_letter = 0;
    // Loads what step t reads: plane t for lane 0's column j - 1, plane t - L of row i0 - 1, and c's letter.
    auto fetch = [&](int t) {
      const int k = t - lane;
      if (lane == 0 && left_chunk && t <= p.p) {
        const int4* from = reinterpret_cast<const int4*>(across_in + t * kRows);
#pragma unroll
        for (int r = 0; r < kRows; r += 4) {
          const int4 v = __ldcg(from + r / 4);
          next_left[r] = v.x, next_left[r + 1] = v.y, next_left[r + 2] = v.z, next_left[r + 3] = v.w;
        }
        next_corner = __ldcg(corner + t);
      }
      const bool in = k >= 0 && k <= p.p;
      next_top = above && in ? __ldcg(down_j + static_cast<long long>(t) * p.down_stride) : neg_inf;
      next_letter = k >= 1 && k <= p.p ? p.c[k - 1] : 0;
    };
    for (int t = 0; t < steps; ++t) {
      if (t % kStride == 0) {
        if (lane == 0) {
          if (above) wait_done(p.done, chunk - p.cols, min(t + kStride + 1, steps));
          if (left_chunk) wait_done(p.done, chunk - 1, min(t + kStride + kLanes, steps));
        }
        __syncwarp();
        if (t == 0) fetch(0);
      }
      const int k = t - lane;
      // Column j - 1's cells of planes k and k - 1, row i0 - 1's of planes k and k - 1.
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        left_prev[r] = left[r];
        left[r] = __shfl_up_sync(kFull, cur[r], 1);
      }
      if constexpr (kTraced) {
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          left_prev_s[r] = left_s[r];
          const int from_left = __shfl_up_sync(kFull, cur_s[r], 1);
          left_s[r] = lane == 0 ? start_left(r, k) : from_left;
        }
      }
      top_left_prev = top_left;
      top_left = __shfl_up_sync(kFull, top, 1);
      if (lane == 0) {
#pragma unroll
        for (int r = 0; r < kRows; ++r) left[r] = next_left[r];
        top_left = next_corner;
      }
      top_prev = top;
      top = next_top;
      const int lc = next_letter;
      if (t + 1 < steps) fetch(t + 1);

      const int bc = sub_b[lc];
      const int* ac = prof[lc];
      int up = top, up_prev = top_prev, up_left = top_left, up_left_prev = top_left_prev;
      // Traced: the row above's cells start where they are.
      int up_s = start_above(lane + 1, k), up_prev_s = up_s - 64, up_left_s = start_above(lane, k),
          up_left_prev_s = up_left_s - 64;
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const int old = cur[r];
        int h, s = 0;
        if constexpr (kTraced) {
          h = update_cell_traced(up, left[r], old, up_left, up_prev, left_prev[r], up_left_prev, ab[r], ac[r], bc,
                                 p.gap2, up_s, left_s[r], cur_s[r], up_left_s, up_prev_s, left_prev_s[r],
                                 up_left_prev_s, s);
        } else {
          h = update_cell_all(up, left[r], old, up_left, up_prev, left_prev[r], up_left_prev, ab[r], ac[r], bc, p.gap2);
        }
        if (r == 0 && origin && t == 0) h = 0, s = start_above(kOriginStart, 0);  // H(0, 0, 0)
        up = h, up_prev = old, up_left = left[r], up_left_prev = left_prev[r];
        cur[r] = h;
        if constexpr (kTraced) {
          up_s = s, up_prev_s = cur_s[r], up_left_s = left_s[r], up_left_prev_s = left_prev_s[r];
          cur_s[r] = s;
        }
      }

      if (k >= 0 && k <= p.p) {
        if (below) __stcg(down_j + static_cast<long long>(t) * p.down_stride, cur[kRows - 1]);
        if (lane == kLanes - 1 && right_chunk) {
          int4* to = reinterpret_cast<int4*>(across_out + k * kRows);
#pragma unroll
          for (int r = 0; r < kRows; r += 4) __stcg(to + r / 4, make_int4(cur[r], cur[r + 1], cur[r + 2], cur[r + 3]));
          __stcg(corner + k, top);
        }
        if constexpr (kTraced) {
          if (below) __stcg(p.kept_bottom + faces.bottom(i0 + kRows - 1, j, k), cur_s[kRows - 1]);
          if (lane == kLanes - 1 && right_chunk) {
            int4* to = reinterpret_cast<int4*>(p.kept_right + faces.right(i0, j, k));
#pragma unroll
            for (int r = 0; r < kRows; r += 4)
              __stcg(to + r / 4, make_int4(cur_s[r], cur_s[r + 1], cur_s[r + 2], cur_s[r + 3]));
          }
          if (row_m < kRows && j == p.n && k == p.p) {
#pragma unroll
            for (int r = 0; r < kRows; ++r)
              if (r == row_m) p.end[0] = cur[r], p.end[1] = cur_s[r];
          }
        } else if (row_m < kRows && j <= p.n) {
          int h = 0;
#pragma unroll
          for (int r = 0; r < kRows; ++r)
            if (r == row_m) h = cur[r];
          p.last[static_cast<long long>(j) * plane_c + k] = h;
        }
      }
      if ((t + 1) % kStride == 0 || t + 1 == steps) {
        __threadfence();
        __syncwarp();
        if (lane == 0) {
          ::cuda::atomic_ref<int, ::cuda::thread_scope_device> d(p.done[chunk]);
          d.store(t + 1, ::cuda::memory_order_release);
        }
      }
    }
  }
}

}  // namespace gdp::align3
