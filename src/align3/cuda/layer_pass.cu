// The cube on the GPU (dissertation section 5.2, a first form of its
// chunked sweep): the (i, j) face is cut into kSide x kSide squares, each
// a chunk of kSide x kSide x (|c| + 1) cells. Chunks run in anti-diagonal
// order of the square grid, one launch an anti-diagonal, one block a
// chunk. Inside a chunk thread (i', j') owns the column of cells (i', j',
// k) and computes the cell k = q - i' - j' of plane q, every plane after a
// barrier: a cell's seven predecessors lie on the three planes before,
// kept in a ring of four planes in shared memory with a halo row and
// column for the chunks above and to the left.
//
// Chunks hand over through device memory: a chunk's last row of i (all j
// of its square, all k) goes to `down`, its last column of j to `across`,
// each in the buffer of its anti-diagonal modulo 3, so that the chunks of
// anti-diagonal d read d - 1's edges and d - 2's corner while they write
// their own.
#include <algorithm>
#include <vector>

#include "align3/cuda/gpu_pass.hpp"
#include "align3/recurrence.hpp"
#include "core/cuda_check.hpp"
#include "core/error.hpp"

namespace gdp::align3 {
namespace {

constexpr int kSide = 32;         // a chunk's rows of a and of b: its threads
constexpr int kRing = 4;          // planes kept: the three a cell reads and its own
constexpr int kMaxDim = 32;       // letters a scoring scheme may have here
constexpr int kPad = kSide + 1;   // a plane's row in shared memory, its halo first

struct LayerParams {
  const std::uint8_t *a, *b, *c;
  const int* sub;  // dim x dim
  int dim, gap;
  int m, n, p;
  long long plane_c;  // p + 1
  int* down;          // 3 buffers of (n + 1) x (p + 1): row i = last of a chunk
  int* across;        // 3 buffers of (m + 1) x (p + 1): column j = last of a chunk
  int* last;          // (n + 1) x (p + 1): H(m, j, k)
  int chunk_i0;       // this launch's first chunk row
  int d;              // this launch's anti-diagonal
};

__device__ __forceinline__ int edge_value(const int* buffer, long long row, int k, long long plane_c, int p) {
  return k >= 0 && k <= p ? buffer[row * plane_c + k] : neg_inf;
}

__global__ void __launch_bounds__(kSide* kSide) chunk_planes(LayerParams lp) {
  __shared__ int planes[kRing][kPad][kPad];
  __shared__ int sub[kMaxDim * kMaxDim];
  const int ti = static_cast<int>(threadIdx.x) / kSide, tj = static_cast<int>(threadIdx.x) % kSide;
  const int ci = lp.chunk_i0 + static_cast<int>(blockIdx.x), cj = lp.d - ci;
  const int i = ci * kSide + ti, j = cj * kSide + tj;  // this thread's cells (i, j, k)
  for (int x = static_cast<int>(threadIdx.x); x < lp.dim * lp.dim; x += kSide * kSide) sub[x] = lp.sub[x];
  const long long pc = lp.plane_c;
  const long long n1 = lp.n + 1, m1 = lp.m + 1;
  const int* down_in = lp.down + ((lp.d + 2) % 3) * n1 * pc;      // written by anti-diagonal d - 1
  const int* corner_in = lp.down + ((lp.d + 1) % 3) * n1 * pc;    // written by d - 2
  const int* across_in = lp.across + ((lp.d + 2) % 3) * m1 * pc;  // written by d - 1
  int* down_out = lp.down + (lp.d % 3) * n1 * pc;
  int* across_out = lp.across + (lp.d % 3) * m1 * pc;
  const bool inside = i <= lp.m && j <= lp.n;
  const int la = inside && i > 0 ? lp.a[i - 1] : 0, lb = inside && j > 0 ? lp.b[j - 1] : 0;
  __syncthreads();
  const int ab = i > 0 && j > 0 ? sub[la * lp.dim + lb] : 0;
  const int* sub_a = sub + la * lp.dim;
  const int* sub_b = sub + lb * lp.dim;
  int own = neg_inf;  // H(i, j, k - 1)
  // From plane -3, so that the ring's planes before a chunk's first cell
  // hold the halo and minus infinity; to the plane of cell (31, 31, |c|).
  const int last_plane = 2 * (kSide - 1) + lp.p;
  auto slot = [&](int q) { return planes[(q + 2 * kRing) % kRing]; };
  for (int q = -3; q <= last_plane; ++q) {
    const int k = q - ti - tj;
    int (*now)[kPad] = slot(q);
    const int (*back1)[kPad] = slot(q - 1);
    const int (*back2)[kPad] = slot(q - 2);
    const int (*back3)[kPad] = slot(q - 3);
    // The halo of plane q: row i' = -1 (cell k = q + 1 - j'), column j' = -1
    // (k = q + 1 - i'), and the corner (k = q + 2).
    if (ti == 0)
      now[0][tj + 1] = ci > 0 && j <= lp.n ? edge_value(down_in, j, q + 1 - tj, pc, lp.p) : neg_inf;
    if (tj == 0)
      now[ti + 1][0] = cj > 0 && i <= lp.m ? edge_value(across_in, i, q + 1 - ti, pc, lp.p) : neg_inf;
    if (ti == 0 && tj == 0)
      now[0][0] = ci > 0 && cj > 0 ? edge_value(corner_in, static_cast<long long>(cj) * kSide - 1, q + 2, pc, lp.p)
                                   : neg_inf;
    int h = neg_inf;
    if (inside && k >= 0 && k <= lp.p) {
      if (i == 0 && j == 0 && k == 0) {
        h = 0;
      } else {
        int prev[8];
        prev[0] = neg_inf;
        prev[kMoveA] = back1[ti][tj + 1];
        prev[kMoveB] = back1[ti + 1][tj];
        prev[kMoveC] = own;
        prev[kMoveA | kMoveB] = back2[ti][tj];
        prev[kMoveA | kMoveC] = back2[ti][tj + 1];
        prev[kMoveB | kMoveC] = back2[ti + 1][tj];
        prev[kMoves] = back3[ti][tj];
        const int lc = k > 0 ? lp.c[k - 1] : 0;
        unsigned from = 0;
        h = update_cell(prev, ab, k > 0 && i > 0 ? sub_a[lc] : 0, k > 0 && j > 0 ? sub_b[lc] : 0, lp.gap, from);
      }
      if (ti == kSide - 1) down_out[static_cast<long long>(j) * pc + k] = h;
      if (tj == kSide - 1) across_out[static_cast<long long>(i) * pc + k] = h;
      if (i == lp.m) lp.last[static_cast<long long>(j) * pc + k] = h;
    }
    now[ti + 1][tj + 1] = h;
    own = h;
    __syncthreads();
  }
}

}  // namespace

std::vector<int> last_layer_gpu_pass(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                                     int device) {
  if (scheme.dim > kMaxDim)
    throw RunError("the GPU engine takes alphabets of up to " + std::to_string(kMaxDim) + " letters, not " +
                   std::to_string(scheme.dim));
  GDP_CUDA_CHECK(cudaSetDevice(device));
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size()),
                  p = static_cast<long long>(c.size());
  const std::size_t bytes = sizeof(int) * static_cast<std::size_t>((3 * (m + 1) + 4 * (n + 1)) * (p + 1));
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes)
    throw RunError("sequences of " + std::to_string(m) + ", " + std::to_string(n) + " and " + std::to_string(p) +
                   " letters need " + std::to_string(bytes >> 20) + " MiB of GPU memory; " +
                   std::to_string(free_bytes >> 20) + " MiB are free");
  cuda::DeviceArray<std::uint8_t> da, db, dc;
  cuda::DeviceArray<int> sub, down, across, last;
  auto upload = [](cuda::DeviceArray<std::uint8_t>& to, Residues from) {
    std::uint8_t* d = to.reserve(std::max<std::size_t>(from.size(), 1));
    if (!from.empty()) GDP_CUDA_CHECK(cudaMemcpy(d, from.data(), from.size(), cudaMemcpyHostToDevice));
    return d;
  };
  LayerParams lp{};
  lp.a = upload(da, a);
  lp.b = upload(db, b);
  lp.c = upload(dc, c);
  lp.sub = sub.reserve(scheme.scores.size());
  GDP_CUDA_CHECK(cudaMemcpy(sub.get(), scheme.scores.data(), scheme.scores.size() * sizeof(int), cudaMemcpyHostToDevice));
  lp.dim = scheme.dim;
  lp.gap = gap;
  lp.m = static_cast<int>(m), lp.n = static_cast<int>(n), lp.p = static_cast<int>(p);
  lp.plane_c = p + 1;
  lp.down = down.reserve(static_cast<std::size_t>(3 * (n + 1) * (p + 1)));
  lp.across = across.reserve(static_cast<std::size_t>(3 * (m + 1) * (p + 1)));
  lp.last = last.reserve(static_cast<std::size_t>((n + 1) * (p + 1)));
  const int rows = static_cast<int>(m / kSide + 1), cols = static_cast<int>(n / kSide + 1);
  cuda::KernelTimer timer;
  timer.start();
  for (int d = 0; d <= rows + cols - 2; ++d) {
    lp.d = d;
    lp.chunk_i0 = std::max(0, d - (cols - 1));
    const int chunks = std::min(d, rows - 1) - lp.chunk_i0 + 1;
    chunk_planes<<<chunks, kSide * kSide>>>(lp);
    GDP_CUDA_CHECK(cudaGetLastError());
  }
  GpuStats& stats = gpu_stats_counters();
  stats.kernel_seconds += timer.stop_seconds();
  ++stats.passes;
  std::vector<int> out(static_cast<std::size_t>((n + 1) * (p + 1)));
  GDP_CUDA_CHECK(cudaMemcpy(out.data(), lp.last, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace gdp::align3
