// The chunked traceback (dissertation chapter 4, ChunkedAlignment), in
// bounded device memory.
//
// Phase 1 is the score pass itself, run with Kept: it leaves every strip's
// right edge (H and E down the strip's last column) and checkpoint rows (H
// and F every 256 rows) in device memory: O(m*n/256) cells, not
// O(m*n). The matrix is thereby cut into chunks of 256 rows by one
// strip (256 columns), each of which can be recomputed alone from its top
// row and its left column.
//
// Phases 2 and 3: the walk back from the end cell (chunk_walk.cuh) with
// the Gotoh cell; its four warps recompute the two-by-two square of chunks
// around the path at once. Only chunks on or next to the path are
// recomputed, about m/256 + n/256 rounds of one chunk's time on a diagonal
// path, half that with the square. The global boundary's closing gap run
// is added here.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "core/cuda_check.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/chunk_walk.cuh"
#include "pairwise/cuda/strip_progress.cuh"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {

using namespace striped;

std::optional<Alignment> chunked_alignment(Residues q, Residues t, const ScoringScheme& scheme, Mode mode, int device,
                                           Progress* score_progress, Progress* traceback) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0) return std::nullopt;
  GDP_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Kept boundaries beyond half the free memory: Myers-Miller instead.
  if (kept_bytes(m, n) > static_cast<long long>(free_bytes / 2)) return std::nullopt;

  const Shape shape = shape_of(mode, scheme);
  Kept<GotohTypes> kept;
  const PassResult end = striped_pass(q, t, scheme, shape, device, {}, GpuTuning{}, &kept, score_progress);
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
  WalkParams<GotohTypes> tp{};
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
  tp.start_state = GotohCell<true>::in_h;
  cuda::DeviceArray<char> ops;
  cuda::DeviceArray<int> result;
  tp.ops = ops.reserve(static_cast<std::size_t>(a.query_end + a.target_end + 1));
  tp.result = result.reserve(5);

  const std::size_t shared = walk_shared_bytes<GotohCell<true>>(scheme.dim);
  auto kernel = shape.local ? chunked_walk<GotohCell<true>> : chunked_walk<GotohCell<false>>;
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  WalkProgress progress(traceback, tp);
  cuda::KernelTimer timer;
  timer.start();
  kernel<<<1, kWalkChunks * kLanes, shared>>>(tp);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_kernel_time(timer.stop_seconds(), true);
  progress.stop();

  int r[5] = {};
  GDP_CUDA_CHECK(cudaMemcpy(r, tp.result, sizeof r, cudaMemcpyDeviceToHost));
  if (r[4] != GotohCell<true>::in_h && !r[3]) throw std::logic_error("GPU traceback ran a gap into the matrix boundary");
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
