// The chunked traceback (dissertation chapter 4, ChunkedAlignment), in
// bounded device memory.
//
// Phase 1 is the score pass itself, run with Kept: it leaves every strip's
// right edge (H and E down the strip's last column) and checkpoint rows (H
// and F every kKeptRows rows) in device memory: O(m*n/256) cells, not
// O(m*n). The matrix is thereby cut into chunks of kKeptRows rows by one
// strip (256 columns), each of which can be recomputed alone from its top
// row and its left column.
//
// Phases 2 and 3: one block starts at the end cell. Its four warps
// recompute, at once, the chunk that holds it and the three chunks the path
// can enter next (above, left, above-left), each storing 4 bits of
// direction a cell in shared memory (the same lane_row as the score pass,
// so the same values). One thread then traces back through them until the
// path leaves the two-by-two square; the state it leaves in (H, or inside a
// horizontal or vertical gap) says where to go on. Only chunks on or next to
// the path are recomputed, about m/256 + n/256 rounds of one chunk's time
// on a diagonal path, half that with the square.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "core/cuda_check.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/striped_common.cuh"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {
namespace {

using namespace striped;

constexpr int kRows = kKeptRows;
constexpr int kWidth = kKeptWidth;
enum State : int { in_h = 0, in_e = 1, in_f = 2 };

struct TraceParams {
  Params p;  // q, t, sub, sizes, gap costs and boundaries of the kept pass
  const int2* columns;
  const int2* checkpoints;
  long long padded_n;
  int end_i, end_j;
  char* ops;     // the path's operations, from the end back to the start
  int* result;   // {operation count, begin_i, begin_j, error}
};

// Recomputes the chunk of strip k holding rows r0+1..r1 into `dirs`
// (dirs[row - r0 - 1][lane]: lane's 8 cells of that row, 4 bits each).
template <bool Local>
__device__ void recompute_chunk(const TraceParams& tp, long long k, int r0, int r1, const short* profile,
                                unsigned (*dirs)[kLanes]) {
  const Params& p = tp.p;
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  const long long j0 = k * kWidth + lane * kKeptCols;
  int hp[kKeptCols], f[kKeptCols];
  unsigned f_open = 0;
#pragma unroll
  for (int c = 0; c < kKeptCols; ++c) {
    if (r0 == 0) {
      hp[c] = top_h(p, Local, j0 + c + 1);
      f[c] = hp[c] - p.open_extend;
      f_open |= 1u << c;
    } else {
      const int2 v = tp.checkpoints[static_cast<long long>(r0 / kRows - 1) * tp.padded_n + j0 + c];
      hp[c] = v.x;
      f[c] = v.y;
      f_open |= (v.y == v.x - p.open_extend ? 1u : 0u) << c;
    }
  }
  // H(r0, j0): lane 0 from the left edge, the others from their left neighbour.
  int diag = __shfl_up_sync(kFull, hp[kKeptCols - 1], 1);
  if (lane == 0)
    diag = r0 == 0 ? top_h(p, Local, j0) : k == 0 ? left_h(p, Local, r0) : tp.columns[(k - 1) * p.m + r0 - 1].x;

  int hr = 0, er = neg_inf, in_h_batch = 0, in_e_batch = neg_inf, letters = 0, letter = 0;
  const int rows = r1 - r0;
  for (int step = 0; step < rows + kLanes - 1; ++step) {
    if ((step & (kLanes - 1)) == 0) {  // the next 32 rows of the left edge and of the query
      const int row = r0 + 1 + step + lane;
      if (row <= r1) {
        letters = tp.p.q[row - 1];
        if (k == 0) {
          in_h_batch = left_h(p, Local, row);
          in_e_batch = neg_inf;
        } else {
          const int2 v = tp.columns[(k - 1) * p.m + row - 1];
          in_h_batch = v.x;
          in_e_batch = v.y;
        }
      }
    }
    int hl = __shfl_up_sync(kFull, hr, 1), el = __shfl_up_sync(kFull, er, 1);
    const int bh = __shfl_sync(kFull, in_h_batch, step & (kLanes - 1));
    const int be = __shfl_sync(kFull, in_e_batch, step & (kLanes - 1));
    const int bl = __shfl_sync(kFull, letters, step & (kLanes - 1));
    letter = __shfl_up_sync(kFull, letter, 1);
    if (lane == 0) hl = bh, el = be, letter = bl;
    const int row = step - lane;  // 0-based within the chunk
    if (row >= 0 && row < rows) {
      int sc[kKeptCols];
      load_scores<kKeptCols>(profile + letter * kWidth + lane * kKeptCols, sc);
      int e = el;
      unsigned word = 0;
      lane_row<kKeptCols, Local, false, true>(hp, f, sc, e, hl, diag, p, j0, &word, &f_open);
      dirs[row][lane] = word;
      diag = hl;
      hr = hp[kKeptCols - 1];
      er = e;
    }
  }
}

// Strip k's target profile: profile[a * kWidth + column] = score(a, t[column]).
__device__ void build_profile(const Params& p, long long k, short* profile, int lane) {
  for (int a = 0; a < p.dim; ++a)
    for (int c = 0; c < kKeptCols; ++c) {
      const long long col = k * kWidth + lane * kKeptCols + c;
      profile[a * kWidth + lane * kKeptCols + c] =
          col < p.n ? static_cast<short>(p.sub[a * p.dim + p.t[col]]) : static_cast<short>(kPadScore<8>);
    }
}

constexpr int kSquare = 4;  // warps: the chunks (b, k), (b, k - 1), (b - 1, k), (b - 1, k - 1)

template <bool Local>
__global__ void __launch_bounds__(kSquare* kLanes) chunked_traceback(TraceParams tp) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  using Dirs = unsigned[kRows][kLanes];
  Dirs* dirs = reinterpret_cast<Dirs*>(shared_bytes);  // one chunk a warp
  short* profiles = reinterpret_cast<short*>(shared_bytes + sizeof(Dirs) * kSquare);  // strips k and k - 1
  __shared__ int walk[5];  // i, j, state, stopped, count: thread 0's walk, for all
  const Params& p = tp.p;
  const int warp = static_cast<int>(threadIdx.x) / kLanes, lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  const int up = warp >> 1, left = warp & 1;  // this warp's chunk: (b - up, k - left)
  int i = tp.end_i, j = tp.end_j, state = in_h, count = 0;
  long long profile_strip = -1;
  bool stopped = false;

  while (!stopped && i > 0 && j > 0) {
    const long long k = (j - 1) / kWidth;
    const int b = (i - 1) / kRows;
    if (k != profile_strip) {
      __syncthreads();
      if (warp < 2 && k - warp >= 0) build_profile(p, k - warp, profiles + warp * p.dim * kWidth, lane);
      profile_strip = k;
    }
    __syncthreads();
    if (b - up >= 0 && k - left >= 0) {
      const int r0 = (b - up) * kRows;
      recompute_chunk<Local>(tp, k - left, r0, min(r0 + kRows, p.m), profiles + left * p.dim * kWidth, dirs[warp]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      const int low_i = max(b - 1, 0) * kRows;
      const long long low_j = max(k - 1, 0LL) * kWidth;
      while (i > low_i && j > low_j) {
        const long long kj = (j - 1) / kWidth;
        const int bi = (i - 1) / kRows, col = static_cast<int>(j - 1 - kj * kWidth);
        const unsigned word = dirs[(b - bi) * 2 + (k - kj)][i - bi * kRows - 1][col / kKeptCols];
        const unsigned bits = (word >> (4 * (col % kKeptCols))) & 15u;
        if (state == in_h) {
          const unsigned from = bits & 3u;
          if (from == kFromZero) {
            stopped = true;
            break;
          }
          if (from == kFromDiag) {
            tp.ops[count++] = p.q[i - 1] == p.t[j - 1] ? '=' : 'X';
            --i, --j;
          } else {
            state = from == kFromE ? in_e : in_f;
          }
        } else if (state == in_e) {
          tp.ops[count++] = 'D';
          if (bits & kEOpen) state = in_h;
          --j;
        } else {
          tp.ops[count++] = 'I';
          if (bits & kFOpen) state = in_h;
          --i;
        }
      }
      walk[0] = i, walk[1] = j, walk[2] = state, walk[3] = stopped, walk[4] = count;
    }
    __syncthreads();
    i = walk[0], j = walk[1], state = walk[2], stopped = walk[3], count = walk[4];
  }
  if (threadIdx.x == 0) {
    int error = state != in_h && !stopped ? 1 : 0;  // a gap cannot run into the boundary
    if (!stopped && !Local && !(p.free_top && i == 0)) {  // global boundaries: the rest is one gap
      for (; i > 0; --i) tp.ops[count++] = 'I';
      for (; j > 0; --j) tp.ops[count++] = 'D';
    }
    tp.result[0] = count;
    tp.result[1] = i;
    tp.result[2] = j;
    tp.result[3] = error;
  }
}

}  // namespace

std::optional<Alignment> chunked_alignment(Residues q, Residues t, const ScoringScheme& scheme, Mode mode, int device) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0) return std::nullopt;
  GDP_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Kept boundaries beyond half the free memory: Myers-Miller instead.
  if (kept_bytes(m, n) > static_cast<long long>(free_bytes / 2)) return std::nullopt;

  const Shape shape = shape_of(mode, scheme);
  Kept kept;
  const PassResult end = striped_pass(q, t, scheme, shape, device, {}, GpuTuning{}, &kept);
  Alignment a;
  a.score = end.score;
  a.query_end = end.end_i;
  a.target_end = end.end_j;
  a.has_begin = true;
  if (mode == Mode::local && end.score == 0) {
    a.query_end = a.target_end = 0;
    return a;
  }

  const GapCosts g = gap_costs(scheme);
  TraceParams tp{};
  tp.p.q = kept.q;
  tp.p.t = kept.t;
  tp.p.m = static_cast<int>(m);
  tp.p.n = static_cast<int>(n);
  tp.p.sub = kept.sub;
  tp.p.dim = scheme.dim;
  tp.p.rows = scheme.dim;
  tp.p.open = scheme.gap_open;
  tp.p.open_extend = g.open_extend;
  tp.p.extend = g.extend;
  tp.p.free_top = shape.free_top;
  tp.p.left_open = shape.left_open;
  tp.columns = kept.columns;
  tp.checkpoints = kept.checkpoints;
  tp.padded_n = kept.padded_n;
  tp.end_i = static_cast<int>(a.query_end);
  tp.end_j = static_cast<int>(a.target_end);
  cuda::DeviceArray<char> ops;
  cuda::DeviceArray<int> result;
  tp.ops = ops.reserve(static_cast<std::size_t>(a.query_end + a.target_end + 1));
  tp.result = result.reserve(4);

  const std::size_t shared = kSquare * sizeof(unsigned) * kRows * kLanes + 2 * sizeof(short) * scheme.dim * kWidth;
  auto kernel = shape.local ? chunked_traceback<true> : chunked_traceback<false>;
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  cuda::KernelTimer timer;
  timer.start();
  kernel<<<1, kSquare * kLanes, shared>>>(tp);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_kernel_time(timer.stop_seconds(), true);

  int r[4] = {};
  GDP_CUDA_CHECK(cudaMemcpy(r, tp.result, sizeof r, cudaMemcpyDeviceToHost));
  if (r[3]) throw std::logic_error("GPU traceback ran a gap into the matrix boundary");
  std::vector<char> reversed(static_cast<std::size_t>(r[0]));
  GDP_CUDA_CHECK(cudaMemcpy(reversed.data(), tp.ops, reversed.size(), cudaMemcpyDeviceToHost));
  a.query_begin = r[1];
  a.target_begin = r[2];
  for (auto op = reversed.rbegin(); op != reversed.rend(); ++op) push_run(a.cigar, static_cast<Op>(*op), 1);
  const int score = rescore(a, q, t, scheme);
  if (score != a.score)
    throw std::logic_error("GPU traceback scores " + std::to_string(score) + ", not " + std::to_string(a.score));
  return a;
}

}  // namespace gdp::pairwise
