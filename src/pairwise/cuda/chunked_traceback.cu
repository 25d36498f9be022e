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
// can enter next (above, left, above-left), each storing the cell's
// direction bits in shared memory (chunk_recompute.cuh: the same row
// update as the score pass, so the same values). One thread then traces back through them until the
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
#include "pairwise/cuda/chunk_recompute.cuh"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {
namespace {

using namespace striped;

constexpr int kRows = kKeptRows;
constexpr int kWidth = kKeptWidth;

struct TraceParams {
  Params<GotohTypes> p;  // q, t, sub, sizes, gap costs and boundaries of the kept pass
  Kept<GotohTypes> kept;
  int end_i, end_j;
  char* ops;     // the path's operations, from the end back to the start
  int* result;   // {operation count, i, j, stopped (a local start), error} where the walk ended
};

constexpr int kSquare = 4;  // warps: the chunks (b, k), (b, k - 1), (b - 1, k), (b - 1, k - 1)

template <class Cell>
__global__ void __launch_bounds__(kSquare* kLanes) chunked_traceback(TraceParams tp) {
  using DirWord = typename Cell::DirWord;
  using Move = typename Cell::Move;
  constexpr int kBits = Cell::kDirBits;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  using Dirs = DirWord[kRows][kLanes];
  Dirs* dirs = reinterpret_cast<Dirs*>(shared_bytes);  // one chunk a warp
  short* profiles = reinterpret_cast<short*>(shared_bytes + sizeof(Dirs) * kSquare);  // strips k and k - 1
  __shared__ int walk[5];  // i, j, state, stopped, count: thread 0's walk, for all
  const auto& p = tp.p;
  const int warp = static_cast<int>(threadIdx.x) / kLanes, lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  const int up = warp >> 1, left = warp & 1;  // this warp's chunk: (b - up, k - left)
  int i = tp.end_i, j = tp.end_j, state = Cell::in_h, count = 0;
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
      recompute_chunk<Cell>(p, tp.kept, k - left, r0, min(r0 + kRows, p.m), profiles + left * p.dim * kWidth,
                            dirs[warp]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      const int low_i = max(b - 1, 0) * kRows;
      const long long low_j = max(k - 1, 0LL) * kWidth;
      while (i > low_i && j > low_j) {
        const long long kj = (j - 1) / kWidth;
        const int bi = (i - 1) / kRows, col = static_cast<int>(j - 1 - kj * kWidth);
        const DirWord word = dirs[(b - bi) * 2 + (k - kj)][i - bi * kRows - 1][col / kKeptCols];
        const unsigned bits = static_cast<unsigned>(word >> (kBits * (col % kKeptCols))) & ((1u << kBits) - 1);
        const Move move = Cell::step_back(state, bits);
        if (move == Move::stop) {
          stopped = true;
          break;
        }
        if (move == Move::diagonal) {
          tp.ops[count++] = p.q[i - 1] == p.t[j - 1] ? '=' : 'X';
          --i, --j;
        } else if (move == Move::target_gap) {
          tp.ops[count++] = 'D';
          --j;
        } else if (move == Move::query_gap) {
          tp.ops[count++] = 'I';
          --i;
        }
      }
      walk[0] = i, walk[1] = j, walk[2] = state, walk[3] = stopped, walk[4] = count;
    }
    __syncthreads();
    i = walk[0], j = walk[1], state = walk[2], stopped = walk[3], count = walk[4];
  }
  if (threadIdx.x == 0) {
    tp.result[0] = count;
    tp.result[1] = i;
    tp.result[2] = j;
    tp.result[3] = stopped;
    tp.result[4] = state != Cell::in_h && !stopped;  // a gap cannot run into the boundary
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
  Kept<GotohTypes> kept;
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
  tp.p.costs = GotohCosts{scheme.gap_open, g.open_extend, g.extend, shape.free_top, shape.left_open};
  tp.kept = kept;
  tp.end_i = static_cast<int>(a.query_end);
  tp.end_j = static_cast<int>(a.target_end);
  cuda::DeviceArray<char> ops;
  cuda::DeviceArray<int> result;
  tp.ops = ops.reserve(static_cast<std::size_t>(a.query_end + a.target_end + 1));
  tp.result = result.reserve(5);

  const std::size_t shared = kSquare * sizeof(unsigned) * kRows * kLanes + 2 * sizeof(short) * scheme.dim * kWidth;
  auto kernel = shape.local ? chunked_traceback<GotohCell<true>> : chunked_traceback<GotohCell<false>>;
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  cuda::KernelTimer timer;
  timer.start();
  kernel<<<1, kSquare * kLanes, shared>>>(tp);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_kernel_time(timer.stop_seconds(), true);

  int r[5] = {};
  GDP_CUDA_CHECK(cudaMemcpy(r, tp.result, sizeof r, cudaMemcpyDeviceToHost));
  if (r[4]) throw std::logic_error("GPU traceback ran a gap into the matrix boundary");
  std::vector<char> reversed(static_cast<std::size_t>(r[0]));
  GDP_CUDA_CHECK(cudaMemcpy(reversed.data(), tp.ops, reversed.size(), cudaMemcpyDeviceToHost));
  long long i = r[1], j = r[2];
  if (!r[3] && !shape.local && !(shape.free_top && i == 0)) {  // global boundaries: the rest is one gap
    for (; i > 0; --i) reversed.push_back('I');
    for (; j > 0; --j) reversed.push_back('D');
  }
  a.query_begin = i;
  a.target_begin = j;
  for (auto op = reversed.rbegin(); op != reversed.rend(); ++op) push_run(a.cigar, static_cast<Op>(*op), 1);
  const int score = rescore(a, q, t, scheme);
  if (score != a.score)
    throw std::logic_error("GPU traceback scores " + std::to_string(score) + ", not " + std::to_string(a.score));
  return a;
}

}  // namespace gdp::pairwise
