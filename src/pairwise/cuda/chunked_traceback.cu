// The chunked traceback (dissertation chapter 4, ChunkedAlignment), in
// bounded device memory.
//
// Phase 1 is the score pass itself, run with Kept: it leaves every strip's
// right edge (H and E down the strip's last column) and checkpoint rows (H
// and F every 256 rows) in device memory: O(m*n/256) cells, not
// O(m*n), packed in 4 bytes each where the pass runs in the rebased 16-bit
// kernel (kept_cell.hpp), else 8. The matrix is thereby cut into chunks of
// 256 rows by one strip (256 columns), each of which can be recomputed
// alone from its top row and its left column.
//
// Phases 2 and 3: the walk back from the end cell (chunk_walk.cuh) with
// the Gotoh cell; its four warps recompute the two-by-two square of chunks
// around the path at once. Only chunks on or next to the path are
// recomputed, about m/256 + n/256 rounds of one chunk's time on a diagonal
// path, half that with the square. The global boundary's closing gap run
// is added here.
//
// chunked_part does the same for Myers-Miller's parts (linear_space.cpp)
// that fit: a path to the part's last cell from its first, or from a
// local start, whose gaps at the corners may open at other costs.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_limit.hpp"
#include "core/progress.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/chunk_walk.cuh"
#include "pairwise/cuda/strip_progress.cuh"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {

using namespace striped;

namespace {

// Where the walk back from the end cell stopped, and its moves, last first.
struct Walked {
  long long i = 0, j = 0;
  bool stopped = false;  // at a local alignment's start
  std::vector<char> reversed;
};

// Walks back from (end_i, end_j) in `state` through the chunks of the kept
// pass just run on `device` (`kept`, with the pass's `shape`).
Walked walk_back(const Kept<GotohTypes>& kept, const ScoringScheme& scheme, const Shape& shape, int device, long long m,
                 long long n, long long end_i, long long end_j, int state, Progress* traceback) {
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
  tp.end_i = static_cast<int>(end_i);
  tp.end_j = static_cast<int>(end_j);
  tp.start_state = state;
  // Kept by the thread for the device, as a pass's workspace is:
  // allocating and freeing device memory would hold up the kernels of the
  // other threads' parts.
  struct WalkMemory {
    cuda::DeviceArray<char> ops;
    cuda::DeviceArray<int> result;
  };
  auto& [ops, result] = cuda::thread_device_local<WalkMemory>(device);
  tp.ops = ops.reserve(static_cast<std::size_t>(end_i + end_j + 1));
  tp.result = result.reserve(5);

  const std::size_t shared = walk_shared_bytes<GotohCell<true>>(scheme.dim);
  auto kernel = shape.local ? chunked_walk<GotohCell<true>> : chunked_walk<GotohCell<false>>;
  cuda::allow_dynamic_shared(kernel, static_cast<int>(shared));
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
  Walked w;
  w.reversed.resize(static_cast<std::size_t>(r[0]));
  GDP_CUDA_CHECK(cudaMemcpy(w.reversed.data(), tp.ops, w.reversed.size(), cudaMemcpyDeviceToHost));
  w.i = r[1], w.j = r[2], w.stopped = r[3] != 0;
  return w;
}

// The walk's path as an alignment ending at (end_i, end_j), the ops put
// in order; with `to_corner`, the rest back to (0, 0) is one gap (the
// global boundaries').
Alignment path_of(Walked& w, long long end_i, long long end_j, bool to_corner) {
  if (to_corner) {
    for (; w.i > 0; --w.i) w.reversed.push_back('I');
    for (; w.j > 0; --w.j) w.reversed.push_back('D');
  }
  Alignment a;
  a.query_begin = w.i, a.target_begin = w.j;
  a.query_end = end_i, a.target_end = end_j;
  a.has_begin = true;
  for (auto op = w.reversed.rbegin(); op != w.reversed.rend(); ++op) push_run(a.cigar, static_cast<Op>(*op), 1);
  return a;
}

// Whether the kept pass of an m x n matrix fits in `max_bytes` of device
// memory (0: half of what is free).
bool kept_fits(long long m, long long n, const ScoringScheme& scheme, const GpuTuning& tuning, int device,
               std::int64_t max_bytes) {
  GDP_CUDA_CHECK(cudaSetDevice(device));
  if (max_bytes == 0) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    max_bytes = static_cast<std::int64_t>(free_bytes / 2);
  }
  const bool packed = kept_in_rebased16(gap_costs(scheme).open_extend, scheme.max_abs_score(), tuning.bits);
  return kept_bytes(m, n, packed) <= max_bytes;
}

}  // namespace

std::optional<Alignment> chunked_alignment(Residues q, Residues t, const ScoringScheme& scheme, Mode mode, int device,
                                           std::int64_t max_bytes, Progress* score_progress, Progress* traceback,
                                           const GpuTuning& tuning) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0 || !kept_fits(m, n, scheme, tuning, device, max_bytes)) return std::nullopt;

  const Shape shape = shape_of(mode, scheme);
  Kept<GotohTypes> kept;
  const PassResult end = striped_pass(q, t, scheme, shape, device, {}, tuning, &kept, score_progress);
  Alignment a;
  a.score = end.score;
  a.query_end = end.end_i;
  a.target_end = end.end_j;
  a.has_begin = true;
  if (mode == Mode::local && end.score == 0) {
    a.query_end = a.target_end = 0;
    return a;
  }

  Walked w = walk_back(kept, scheme, shape, device, m, n, a.query_end, a.target_end, GotohCell<true>::in_h, traceback);
  const int best = a.score;
  a = path_of(w, a.query_end, a.target_end, !w.stopped && !shape.local && !(shape.free_top && w.i == 0));
  a.score = best;
  const int score = rescore(a, q, t, scheme);
  if (score != a.score)
    throw std::logic_error("GPU traceback scores " + std::to_string(score) + ", not " + std::to_string(a.score));
  return a;
}

std::optional<PartStart> chunked_part(const Part& part, const ScoringScheme& scheme, int device, std::int64_t max_bytes,
                                      Progress* progress, Cigar& cigar, const GpuTuning& tuning) {
  const long long m = static_cast<long long>(part.q.size()), n = static_cast<long long>(part.t.size());
  if (m == 0 || n == 0 || !kept_fits(m, n, scheme, tuning, device, max_bytes)) return std::nullopt;

  // Column 0 is the gap from the top-left corner, at its open cost (or the
  // local start's zeros); row m's F says what a gap into the bottom-right
  // corner scores.
  const Shape shape = part.local_start ? Shape{true, true, 0, End::corner}
                                       : Shape{false, false, part.ends.top_open, End::corner};
  std::vector<int> h(static_cast<std::size_t>(n + 1)), f(h.size());
  Kept<GotohTypes> kept;
  striped_pass(part.q, part.t, scheme, shape, device, LastRow{h.data(), f.data()}, tuning, &kept, progress);
  const int refund = scheme.gap_open - part.ends.bottom_open;  // what a gap into the corner costs less
  const long long into_h = h[static_cast<std::size_t>(n)];
  const long long into_f = static_cast<long long>(f[static_cast<std::size_t>(n)]) + refund;
  const bool gap_last = refund > 0 && into_f > into_h;
  const long long score = gap_last ? into_f : into_h;

  Walked w = walk_back(kept, scheme, shape, device, m, n, m, n, gap_last ? GotohCell<true>::in_f : GotohCell<true>::in_h,
                       nullptr);
  const Alignment a = path_of(w, m, n, !part.local_start);
  // Re-scored with every gap at its full open; the corners' gaps open at theirs.
  long long rescored = rescore(a, part.q, part.t, scheme);
  if (!part.local_start && !a.cigar.empty() && a.cigar.front().op == Op::insertion)
    rescored += scheme.gap_open - part.ends.top_open;
  if (gap_last) rescored += refund;
  if (rescored != score)
    throw std::logic_error("GPU traceback of a part scores " + std::to_string(rescored) + ", not " +
                           std::to_string(score));
  if (progress) progress->add(static_cast<std::uint64_t>(m * n));  // the walk: Myers-Miller's second half
  for (const auto& r : a.cigar) push_run(cigar, r.op, r.length);
  return PartStart{a.query_begin, a.target_begin};
}

}  // namespace gdp::pairwise
