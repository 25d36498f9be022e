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
#include <cuda/atomic>

#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "align3/cuda/gpu_pass.hpp"
#include "align3/recurrence.hpp"
#include "core/cuda_check.hpp"
#include "core/error.hpp"

namespace gdp::align3 {
namespace {

constexpr int kLanes = 32;        // a chunk's columns of b: a warp's lanes
constexpr int kRows = 16;         // a chunk's rows of a: cells a lane keeps
constexpr int kWarps = 4;         // warps of a block, each sweeping its own chunks
constexpr int kMaxDim = 32;       // letters a scoring scheme may have here
constexpr int kStride = 32;       // steps between a chunk's publications and between its waits
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
  int* last;             // H(m, j, k) at [j * (p + 1) + k]
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

__global__ void __launch_bounds__(kWarps* kLanes) sloped_sweep(LayerParams p) {
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
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const int old = cur[r];
        int h = update_cell_all(up, left[r], old, up_left, up_prev, left_prev[r], up_left_prev, ab[r], ac[r], bc, p.gap2);
        if (r == 0 && origin && t == 0) h = 0;  // H(0, 0, 0)
        up = h, up_prev = old, up_left = left[r], up_left_prev = left_prev[r];
        cur[r] = h;
      }

      if (k >= 0 && k <= p.p) {
        if (below) __stcg(down_j + static_cast<long long>(t) * p.down_stride, cur[kRows - 1]);
        if (lane == kLanes - 1 && right_chunk) {
          int4* to = reinterpret_cast<int4*>(across_out + k * kRows);
#pragma unroll
          for (int r = 0; r < kRows; r += 4) __stcg(to + r / 4, make_int4(cur[r], cur[r + 1], cur[r + 2], cur[r + 3]));
          __stcg(corner + k, top);
        }
        if (row_m < kRows && j <= p.n) {
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

// The device memory of a pass, kept for the next: the linear-space
// alignment's passes after its first (the largest) allocate nothing.
struct Buffers {
  int blocks = 0;  // resident blocks: all SMs at the kernel's occupancy
  cuda::DeviceArray<std::uint8_t> a, b, c;
  cuda::DeviceArray<int> sub, down, across, corner, last, order, done;
  cuda::DeviceArray<unsigned> ticket;
  cuda::DeviceArray<int> back;                  // the split's backward layer
  cuda::DeviceArray<unsigned long long> split;  // the split's best sum, then its first cell
  std::size_t held = 0;                         // bytes reserved so far
};

// One pass, its last layer left in `last` on the device. `layers`: the
// layers the caller keeps there (two for a split), for the memory check.
int* launch_pass(Buffers& d, cuda::DeviceArray<int>& last, int layers, Residues a, Residues b, Residues c,
                 const ScoringScheme& scheme, int gap) {
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size()),
                  p = static_cast<long long>(c.size());
  const int rows = static_cast<int>(m / kRows + 1), cols = static_cast<int>(n / kLanes + 1), chunks = rows * cols;
  const long long down_stride = static_cast<long long>(cols) * kLanes;
  const long long down_cells = (p + kLanes) * down_stride, across_cells = rows * (p + 1) * kRows,
                  corner_cells = rows * (p + 1), last_cells = (n + 1) * (p + 1);
  const std::size_t bytes =
      sizeof(int) * static_cast<std::size_t>(down_cells + across_cells + corner_cells + layers * last_cells + 2 * chunks);
  if (bytes > d.held) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes > free_bytes + d.held)
      throw RunError("sequences of " + std::to_string(m) + ", " + std::to_string(n) + " and " + std::to_string(p) +
                     " letters need " + std::to_string(bytes >> 20) + " MiB of GPU memory; " +
                     std::to_string((free_bytes + d.held) >> 20) + " MiB are free");
    d.held = bytes;
  }
  auto upload = [](cuda::DeviceArray<std::uint8_t>& to, Residues from) {
    std::uint8_t* at = to.reserve(std::max<std::size_t>(from.size(), 1));
    if (!from.empty()) GDP_CUDA_CHECK(cudaMemcpy(at, from.data(), from.size(), cudaMemcpyHostToDevice));
    return at;
  };
  LayerParams lp{};
  lp.a = upload(d.a, a);
  lp.b = upload(d.b, b);
  lp.c = upload(d.c, c);
  lp.sub = d.sub.get();
  lp.dim = scheme.dim;
  lp.gap2 = 2 * gap;
  lp.m = static_cast<int>(m), lp.n = static_cast<int>(n), lp.p = static_cast<int>(p);
  lp.down = d.down.reserve(static_cast<std::size_t>(down_cells));
  lp.down_stride = down_stride;
  lp.across = d.across.reserve(static_cast<std::size_t>(across_cells));
  lp.corner = d.corner.reserve(static_cast<std::size_t>(corner_cells));
  lp.last = last.reserve(static_cast<std::size_t>(last_cells));
  std::vector<int> tickets;  // anti-diagonal order: a chunk after those above and to its left
  tickets.reserve(static_cast<std::size_t>(chunks));
  for (int diagonal = 0; diagonal <= rows + cols - 2; ++diagonal)
    for (int ci = std::max(0, diagonal - (cols - 1)); ci <= std::min(diagonal, rows - 1); ++ci)
      tickets.push_back(ci * cols + diagonal - ci);
  lp.order = d.order.reserve(tickets.size());
  GDP_CUDA_CHECK(cudaMemcpy(d.order.get(), tickets.data(), tickets.size() * sizeof(int), cudaMemcpyHostToDevice));
  lp.done = d.done.reserve(static_cast<std::size_t>(chunks));
  GDP_CUDA_CHECK(cudaMemset(lp.done, 0, static_cast<std::size_t>(chunks) * sizeof(int)));
  lp.ticket = d.ticket.reserve(1);
  GDP_CUDA_CHECK(cudaMemset(lp.ticket, 0, sizeof(unsigned)));
  lp.chunks = chunks;
  lp.rows = rows;
  lp.cols = cols;
  // All resident, so that a waiting warp's neighbour is running.
  const int blocks = std::min((chunks + kWarps - 1) / kWarps, d.blocks);
  cuda::KernelTimer timer;
  timer.start();
  sloped_sweep<<<blocks, kWarps * kLanes>>>(lp);
  GDP_CUDA_CHECK(cudaGetLastError());
  GpuStats& stats = gpu_stats_counters();
  stats.kernel_seconds += timer.stop_seconds();
  ++stats.passes;
  return lp.last;
}

std::vector<int> run_pass(Buffers& d, Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap) {
  const int* last = launch_pass(d, d.last, 1, a, b, c, scheme, gap);
  std::vector<int> out((b.size() + 1) * (c.size() + 1));
  GDP_CUDA_CHECK(cudaMemcpy(out.data(), last, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  return out;
}

// The split's two reductions over the cells x = j * (p + 1) + k of the
// layer: the best sum forward[x] + backward[(n - j) * (p + 1) + p - k],
// then the first cell that has it (the host scan's choice).
__device__ __forceinline__ long long split_sum(const int* forward, const int* backward, long long x, long long n,
                                               long long p) {
  const long long w = p + 1, j = x / w, k = x % w;
  return static_cast<long long>(forward[x]) + backward[(n - j) * w + (p - k)];
}

__global__ void best_sum(const int* forward, const int* backward, long long n, long long p,
                         unsigned long long* best) {
  long long mine = LLONG_MIN;
  for (long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; x < (n + 1) * (p + 1);
       x += static_cast<long long>(gridDim.x) * blockDim.x)
    mine = max(mine, split_sum(forward, backward, x, n, p));
  for (int d = kLanes / 2; d > 0; d /= 2) mine = max(mine, __shfl_xor_sync(kFull, mine, d));
  // Order-preserving as unsigned: the sign bit flipped.
  if (threadIdx.x % kLanes == 0) atomicMax(best, static_cast<unsigned long long>(mine) ^ (1ull << 63));
}

__global__ void first_best(const int* forward, const int* backward, long long n, long long p,
                           unsigned long long* split) {
  const long long best = static_cast<long long>(split[0] ^ (1ull << 63));
  unsigned long long first = ~0ull;
  for (long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; x < (n + 1) * (p + 1);
       x += static_cast<long long>(gridDim.x) * blockDim.x)
    if (split_sum(forward, backward, x, n, p) == best) first = min(first, static_cast<unsigned long long>(x));
  for (int d = kLanes / 2; d > 0; d /= 2) first = min(first, __shfl_xor_sync(kFull, first, d));
  if (threadIdx.x % kLanes == 0) atomicMin(split + 1, first);
}

SplitPoint run_split(Buffers& d, Residues top, Residues bottom, Residues b, Residues c, const ScoringScheme& scheme,
                     int gap) {
  const int* forward = launch_pass(d, d.last, 2, top, b, c, scheme, gap);
  const std::vector<std::uint8_t> ra = reversed(bottom), rb = reversed(b), rc = reversed(c);
  const int* backward = launch_pass(d, d.back, 2, ra, rb, rc, scheme, gap);
  const long long n = static_cast<long long>(b.size()), p = static_cast<long long>(c.size());
  unsigned long long* split = d.split.reserve(2);
  const unsigned long long start[2] = {0, ~0ull};
  GDP_CUDA_CHECK(cudaMemcpy(split, start, sizeof start, cudaMemcpyHostToDevice));
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<long long>(((n + 1) * (p + 1) + threads - 1) / threads, 4096));
  best_sum<<<blocks, threads>>>(forward, backward, n, p, split);
  first_best<<<blocks, threads>>>(forward, backward, n, p, split);
  GDP_CUDA_CHECK(cudaGetLastError());
  unsigned long long found[2] = {0, 0};
  GDP_CUDA_CHECK(cudaMemcpy(found, split, sizeof found, cudaMemcpyDeviceToHost));
  const auto w = static_cast<std::size_t>(p + 1), x = static_cast<std::size_t>(found[1]);
  return {x / w, x % w};
}

// A pass object's buffers, with what every pass shares: the scoring
// table on the device and the launch's width.
std::shared_ptr<Buffers> start(const ScoringScheme& scheme, int device) {
  if (scheme.dim > kMaxDim)
    throw RunError("the GPU engine takes alphabets of up to " + std::to_string(kMaxDim) + " letters, not " +
                   std::to_string(scheme.dim));
  GDP_CUDA_CHECK(cudaSetDevice(device));
  auto d = std::make_shared<Buffers>();
  int* sub = d->sub.reserve(scheme.scores.size());
  GDP_CUDA_CHECK(cudaMemcpy(sub, scheme.scores.data(), scheme.scores.size() * sizeof(int), cudaMemcpyHostToDevice));
  int per_sm = 0, sms = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sloped_sweep, kWarps * kLanes, 0));
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  d->blocks = std::max(per_sm, 1) * sms;
  return d;
}

}  // namespace

LayerPass gpu_layer_pass_cuda(const ScoringScheme& scheme, int gap, int device) {
  return [buffers = start(scheme, device), scheme, gap](Residues a, Residues b, Residues c) {
    return run_pass(*buffers, a, b, c, scheme, gap);
  };
}

SplitPass gpu_split_pass_cuda(const ScoringScheme& scheme, int gap, int device) {
  return [buffers = start(scheme, device), scheme, gap](Residues top, Residues bottom, Residues b,
                                                                  Residues c) {
    return run_split(*buffers, top, bottom, b, c, scheme, gap);
  };
}

}  // namespace gdp::align3
