// The striped score pass on the GPU (dissertation chapter 4, StripedScore),
// rebuilt for a modern GPU, and the host side of every GPU pass.
//
// The matrix (rows: query, columns: target) is cut into vertical strips of
// 32 * Cols target columns. A warp owns a strip and sweeps it top to
// bottom: lane L holds Cols consecutive columns in registers and works on
// row (step - L), so the warp is a 32-deep anti-diagonal wavefront. Each
// step a lane takes H and E of its left neighbour's last column by a warp
// shuffle; lane 0 takes them from the strip on the left, kBatch rows at a
// time (striped_common.cuh). The four warps of a block sweep four
// neighbouring strips and hand their edges over through shared memory;
// between blocks the edges go through a ring of boundary columns in device
// memory, signalled by a per-slot flag. A strip can start about kLanes +
// kBatch steps after the one on its left, so a query of m rows keeps about
// m / 40 warps busy at once. Blocks are persistent and take groups of
// strips in order from a ticket counter, so a warp only ever waits for a
// strip whose warp is already running: the deadlock rule of Xiao, Aji and
// Feng holds for any grid size.
//
// Most steps are steady: every lane's row lies inside the matrix and not on
// its last row. Those run unrolled by kBatch with their tests decided at
// compile time (about 120 instructions a step with 8 columns a lane, 177
// before: bench/RESULTS.md).
//
// The cell update is recurrence.hpp's (update_cell), written out with the
// Hopper DPX instructions (lane_row). Local passes without a last row go to
// a 16-bit kernel where the scores allow: the diagonal one
// (striped_score16.cu) or the row one (striped_rows16.cu), by use_rows16;
// they come back here in 32 bits if a score leaves the 16-bit range.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "pairwise/cpu/passes.hpp"
#include "core/cuda_check.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/striped_common.cuh"

namespace gdp::pairwise {
namespace {

using namespace striped;

// Kept: the pass keeps checkpoint rows for the chunked traceback (kept_bytes).
template <int Cols, bool Local, bool Anywhere, bool Kept = false>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) striped_score(Params p) {
  constexpr int kStripWidth = kLanes * Cols;
  using Score = ProfileScore<Cols>;
  extern __shared__ __align__(16) unsigned char profile_bytes[];
  __shared__ BlockShared shared;
  Score* profiles = reinterpret_cast<Score*>(profile_bytes);
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  Score* profile = profiles + (threadIdx.x / kLanes) * p.rows * kStripWidth;
  const int m = p.m;

  for (;;) {
    const long long s = next_strip(p, shared, lane);
    if (s == -1) return;
    if (s < 0) continue;
    const long long j0 = s * kStripWidth + lane * Cols;  // my first column, 0-based

    // The strip's target profile: profile[a][column] = score(a, t[column]).
    __syncwarp();
    for (int a = 0; a < p.rows; ++a) {
#pragma unroll
      for (int c = 0; c < Cols; ++c) {
        const long long j = j0 + c;
        profile[a * kStripWidth + lane * Cols + c] =
            j < p.n ? static_cast<Score>(__ldg(p.sub + a * p.dim + p.t[j])) : static_cast<Score>(kPadScore<Cols>);
      }
    }
    __syncwarp();

    const Neighbours nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    wait_free_slot(p, nb, lane);

    int hp[Cols], f[Cols];
#pragma unroll
    for (int c = 0; c < Cols; ++c) {
      hp[c] = top_h(p, Local, j0 + c + 1);
      f[c] = hp[c] - p.open_extend;  // F(1, c): F(0, c) is minus infinity
    }
    int diag = top_h(p, Local, j0);
    int hr = 0, er = neg_inf;          // my last column's H and E, for the lane on my right
    int in_h = 0, in_e = neg_inf;      // left boundary rows for lane 0, one row per lane < kBatch
    int out_h = 0, out_e = 0;          // right boundary rows, one row per lane < kBatch
    int best = 0, best_i = 0, best_j = 0;
    // Query letters travel with the wavefront: lane 0 reads them from a batch
    // of 32 fetched 32 steps ahead; each other lane takes the letter its left
    // neighbour used one step before (the same row).
    int q_now = 0, q_next = lane < m ? __ldg(p.q + lane) : 0, letter = 0;

    // One step of the wavefront: lane L on row step - L + 1. A steady step
    // (every lane's row inside 1..m-1, no checkpoint rows) with step %
    // kBatch == K known at compile time leaves out every per-step test.
    auto advance = [&](const int step, auto steady, auto k_const) {
      constexpr bool kSteady = decltype(steady)::value;
      constexpr int K = decltype(k_const)::value;
      const int k = kSteady ? K : step & (kBatch - 1);
      if ((kSteady ? K == 0 : true) && (step & (kLanes - 1)) == 0) {
        q_now = q_next;
        q_next = step + kLanes + lane < m ? __ldg(p.q + step + kLanes + lane) : 0;
      }
      const int letter_in = __shfl_sync(kFull, q_now, step & (kLanes - 1));
      letter = __shfl_up_sync(kFull, letter, 1);
      if (lane == 0) letter = letter_in;
      if (k == 0 && (kSteady || step < m)) load_left_batch(p, Local, nb, lane, step, in_h, in_e);
      int hl = __shfl_up_sync(kFull, hr, 1), el = __shfl_up_sync(kFull, er, 1);
      const int bh = __shfl_sync(kFull, in_h, k), be = __shfl_sync(kFull, in_e, k);
      if (lane == 0) hl = bh, el = be;

      const int i = step - lane + 1;
      if (kSteady || (i >= 1 && i <= m)) {
        int sc[Cols];
        load_scores<Cols>(profile + letter * kStripWidth + lane * Cols, sc);
        int e = el;
        if (!kSteady && i == m && p.last_h)
          lane_row<Cols, Local, true>(hp, f, sc, e, hl, diag, p, j0);
        else
          lane_row<Cols, Local, false>(hp, f, sc, e, hl, diag, p, j0);
        diag = hl;
        hr = hp[Cols - 1];
        er = e;
        if (Kept && i % kKeptRows == 0 && i < m) {  // for the chunked traceback
          int2* row = p.checkpoints + (static_cast<long long>(i / kKeptRows) - 1) * p.padded_n + j0;
#pragma unroll
          for (int c = 0; c < Cols; ++c) row[c] = make_int2(hp[c], f[c]);
        }
        if constexpr (Anywhere) {
          int row_max = hp[0];
#pragma unroll
          for (int c = 1; c + 1 < Cols; c += 2) row_max = __vimax3_s32(row_max, hp[c], hp[c + 1]);
          if constexpr (Cols % 2 == 0) row_max = max(row_max, hp[Cols - 1]);
          // A warp-uniform test first: a better cell is rare after the first rows.
          if (!kSteady || __any_sync(kFull, row_max > best))
            if (row_max > best) {
              best = row_max;
              best_i = i;
#pragma unroll
              for (int c = Cols - 1; c >= 0; --c)
                if (hp[c] == row_max) best_j = static_cast<int>(j0 + c + 1);
            }
        }
      }

      // Lane 31 finished row r; gather kBatch rows of the right edge, then publish.
      if (produces) {
        const int oh = __shfl_sync(kFull, hr, kLanes - 1), oe = __shfl_sync(kFull, er, kLanes - 1);
        const int r = step - (kLanes - 2);
        if constexpr (kSteady) {  // r is inside 1..m-1, and r % kBatch == (K + 2) % kBatch
          if (lane == ((k + 1) & (kBatch - 1))) out_h = oh, out_e = oe;
          if (k == kBatch - 2) publish_edge(p, nb, lane, r, out_h, out_e);
        } else {
          gather_and_publish(p, nb, lane, r, oh, oe, out_h, out_e);
        }
      }
    };
    using General = std::false_type;
    using Steady = std::true_type;
    const int steps = m + kLanes - 1;
    int step = 0;
    for (; step < min(kLanes, steps); ++step) advance(step, General{}, std::integral_constant<int, 0>{});
    for (; step + kBatch <= m - 1; step += kBatch)
      for_each_index<kBatch>([&](auto k) { advance(step + decltype(k)::value, Steady{}, k); });
    for (; step < steps; ++step) advance(step, General{}, std::integral_constant<int, 0>{});

    if constexpr (Anywhere) publish_strip_best(p, s, lane, best, best_i, best_j);
  }
}

template <int Cols, bool Kept = false>
Kernel kernel_for(bool local, bool anywhere) {
  if (local) return anywhere ? striped_score<Cols, true, true, Kept> : striped_score<Cols, true, false, Kept>;
  return anywhere ? striped_score<Cols, false, true, Kept> : striped_score<Cols, false, false, Kept>;
}

// Every score kernel of the table (gpu_tuning.cpp: kernel_variants) and the
// kept pass's, by the plan's kind and columns, and the pass's shape.
Kernel kernel_of(const KernelPlan& k, const PassRequest& r) {
  if (k.kind == KernelKind::s16_rows) return striped_rows16_kernel(k.lane_columns);
  if (k.kind == KernelKind::s16_diagonal) return striped16_kernel(k.lane_columns);
  if (r.kept) return kernel_for<kKeptCols, true>(r.local, r.anywhere);
  return k.lane_columns == 16 ? kernel_for<16>(r.local, r.anywhere) : kernel_for<8>(r.local, r.anywhere);
}

// The query rewritten in ranks of the letters it uses, and the rows of the
// substitution matrix for those letters, in that order.
struct QueryLetters {
  std::vector<std::uint8_t> q;
  std::vector<int> sub;  // rows x dim
  int rows = 0;
};

QueryLetters query_letters(Residues q, const ScoringScheme& scheme) {
  std::vector<int> rank(static_cast<std::size_t>(scheme.dim), -1);
  for (const std::uint8_t a : q) rank[a] = 0;
  QueryLetters out;
  for (int a = 0; a < scheme.dim; ++a) {
    if (rank[a] < 0) continue;
    rank[a] = out.rows++;
    const int* row = scheme.row(static_cast<std::uint8_t>(a));
    out.sub.insert(out.sub.end(), row, row + scheme.dim);
  }
  out.q.resize(q.size());
  std::transform(q.begin(), q.end(), out.q.begin(), [&](std::uint8_t a) { return static_cast<std::uint8_t>(rank[a]); });
  return out;
}

// Device memory kept between passes (Myers-Miller makes many): it only grows.
struct Workspace {
  int device = -1;
  cuda::DeviceArray<std::uint8_t> q, t;
  cuda::DeviceArray<int> sub, last_h, last_f;
  cuda::DeviceArray<int2> ring;
  cuda::DeviceArray<unsigned long long> flags;
  cuda::DeviceArray<int4> strip_best;
  cuda::DeviceArray<int2> checkpoints;
  cuda::DeviceArray<int2> edges;  // two columns of m rows: between pieces of a long target
  std::size_t bytes() const {
    return q.bytes() + t.bytes() + sub.bytes() + last_h.bytes() + last_f.bytes() + ring.bytes() + flags.bytes() +
           strip_best.bytes() + checkpoints.bytes() + edges.bytes();
  }
  void release() {
    q.release(), t.release(), sub.release(), last_h.release(), last_f.release(), ring.release(), flags.release(),
        strip_best.release(), checkpoints.release(), edges.release();
  }
};

Workspace& workspace() {
  static Workspace w;
  return w;
}

GpuStats& stats() { return gpu_stats_counters(); }

}  // namespace

void add_gpu_kernel_time(double seconds, bool traceback) {
  stats().kernel_seconds += seconds;
  if (traceback) stats().traceback_seconds += seconds;
}

namespace {

// What one run of the plan found: the pass's result, or that a 16-bit
// score reached the top of its range.
struct RunResult {
  bool overflowed = false;
  PassResult pass;
};

RunResult run_striped(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                      LastRow last_row, const GpuTuning& tuning, Kept* kept) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  Workspace& w = workspace();
  if (w.device != device) w.release(), w.device = device;
  cudaDeviceProp prop{};
  GDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const DeviceLimits limits{prop.multiProcessorCount, prop.sharedMemPerBlockOptin};

  // The profile needs a row for each letter the query uses, not for each
  // of the alphabet's (DNA's 15 letters include 11 ambiguity codes): less
  // shared memory a block leaves room for more blocks an SM. Kept passes
  // keep the alphabet's ranks, which the traceback reads.
  const QueryLetters letters = kept ? QueryLetters{{}, {}, scheme.dim} : query_letters(q, scheme);
  PassRequest req;
  req.m = m, req.n = n, req.max_abs_score = scheme.max_abs_score(), req.profile_rows = letters.rows;
  req.local = shape.local, req.anywhere = shape.end == End::anywhere;
  req.last_h = last_row.h != nullptr, req.last_f = last_row.f != nullptr, req.kept = kept != nullptr;

  const KernelPlan kp = plan_kernel(req, tuning, limits);
  const Kernel kernel = kernel_of(kp, req);
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kp.shared_bytes)));
  int fit = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kWarpsPerBlock * kLanes, kp.shared_bytes));
  if (fit == 0) throw RunError("the GPU kernel does not fit on this device (shared memory)");
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const GridPlan gp = plan_grid(req, kp, tuning, limits, fit, free_bytes + w.ring.bytes());
  if (!gp.fits)
    throw RunError("a query of " + std::to_string(m) + " letters needs " + std::to_string((8 * m * 8) >> 20) +
                   " MiB of GPU memory for its boundary columns; " + std::to_string(free_bytes >> 20) + " MiB are free");

  const bool sixteen = kp.sixteen(), anywhere = req.anywhere, want_row = wants_row(req);
  const long long strip_width = kp.strip_width, slots = gp.slots;
  w.q.reserve(static_cast<std::size_t>(m));
  w.sub.reserve(static_cast<std::size_t>(letters.rows * scheme.dim));
  w.ring.reserve(static_cast<std::size_t>(slots * m), "cudaMalloc (boundary columns)");
  w.flags.reserve(static_cast<std::size_t>(slots) + 2);  // the slots' flags, the ticket, the overflow flag
  if (gp.piece < n) w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // More pieces than planned where memory is short, each narrower than the
  // ring was sized for: the ring only has slots to spare.
  const long long piece = piece_within(
      req, kp, gp.piece, free_bytes + w.t.bytes() + w.last_h.bytes() + w.last_f.bytes() + w.strip_best.bytes());
  if (piece == 0) throw RunError("too little GPU memory is free for a strip of the target");
  if (piece < gp.piece)  // pieces where none were planned: their edges too
    w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  const long long max_strips = (piece + strip_width - 1) / strip_width;
  w.t.reserve(static_cast<std::size_t>(piece));
  if (want_row) w.last_h.reserve(static_cast<std::size_t>(piece + 1));
  if (last_row.f) w.last_f.reserve(static_cast<std::size_t>(piece + 1));
  if (anywhere) w.strip_best.reserve(static_cast<std::size_t>(max_strips));
  const long long checkpoint_rows = kept ? m / kKeptRows : 0;
  if (checkpoint_rows > 0)
    w.checkpoints.reserve(static_cast<std::size_t>(checkpoint_rows * gp.strips * strip_width), "cudaMalloc (checkpoints)");
  stats().peak_memory_bytes = std::max(stats().peak_memory_bytes, w.bytes());

  const Residues q_ranks = kept ? q : Residues(letters.q);
  const int* sub_rows = kept ? scheme.scores.data() : letters.sub.data();
  GDP_CUDA_CHECK(cudaMemcpy(w.q.get(), q_ranks.data(), q_ranks.size(), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(w.sub.get(), sub_rows, static_cast<std::size_t>(letters.rows * scheme.dim) * sizeof(int),
                            cudaMemcpyHostToDevice));

  const GapCosts g = gap_costs(scheme);
  Params p{};
  p.q = w.q.get();
  p.t = w.t.get();
  p.m = static_cast<int>(m);
  p.sub = w.sub.get();
  p.dim = scheme.dim;
  p.rows = letters.rows;
  p.open = scheme.gap_open;
  p.open_extend = g.open_extend;
  p.extend = g.extend;
  p.free_top = shape.free_top;
  p.left_open = shape.left_open;
  p.slots = slots;
  p.group = gp.group;
  p.ring = w.ring.get();
  p.flags = w.flags.get();
  p.ticket = w.flags.get() + slots;
  p.overflow = sixteen ? reinterpret_cast<int*>(w.flags.get() + slots + 1) : nullptr;
  p.overflow_at = 32767 - std::max(scheme.max_abs_score(), 1);
  p.last_h = want_row ? w.last_h.get() : nullptr;
  p.last_f = last_row.f ? w.last_f.get() : nullptr;
  p.strip_best = w.strip_best.get();
  p.checkpoints = checkpoint_rows > 0 ? w.checkpoints.get() : nullptr;
  p.padded_n = gp.strips * strip_width;
  if (kept) *kept = Kept{w.ring.get(), p.checkpoints, w.q.get(), w.t.get(), w.sub.get(), p.padded_n, kKeptRows};

  // Row m, where it is needed: all of it, or the corner alone.
  const bool whole_row = last_row.h || shape.end == End::last_row;
  std::vector<int> h(want_row || last_row.f ? static_cast<std::size_t>(whole_row ? n + 1 : 1) : 0);
  std::vector<int> f(last_row.f ? static_cast<std::size_t>(n + 1) : 0);
  std::vector<int4> per_strip;
  PassResult best{0, 0, 0};
  int corner = 0;
  for (long long from = 0; from < n; from += piece) {
    const long long width = std::min(piece, n - from), piece_strips = (width + strip_width - 1) / strip_width;
    GDP_CUDA_CHECK(cudaMemcpy(w.t.get(), t.data() + from, static_cast<std::size_t>(width), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemset(w.flags.get(), 0, static_cast<std::size_t>(slots + 2) * sizeof(unsigned long long)));
    // The 16-bit kernels' ring rows are tagged with their group's number:
    // 0xff bytes are no group's, nor are the last launch's rows left there.
    if (sixteen) GDP_CUDA_CHECK(cudaMemset(w.ring.get(), 0xff, static_cast<std::size_t>(slots * m) * sizeof(int2)));
    p.n = static_cast<int>(width);
    p.strips = piece_strips;
    p.j_base = from;
    const long long index = from / piece;
    p.left_edge = from > 0 ? w.edges.get() + (index % 2 ? 0 : m) : nullptr;
    p.right_edge = from + width < n ? w.edges.get() + (index % 2 ? m : 0) : nullptr;
    const long long piece_blocks = std::min(gp.blocks, (piece_strips + kWarpsPerBlock - 1) / kWarpsPerBlock);

    cuda::KernelTimer timer;
    timer.start();
    kernel<<<static_cast<int>(piece_blocks), kWarpsPerBlock * kLanes, kp.shared_bytes>>>(p);
    GDP_CUDA_CHECK(cudaGetLastError());
    add_gpu_kernel_time(timer.stop_seconds(), false);
    GDP_CUDA_CHECK(cudaDeviceSynchronize());
    ++stats().passes;
    if (sixteen) {
      int overflow = 0;
      GDP_CUDA_CHECK(cudaMemcpy(&overflow, p.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
      if (overflow) return {true, {}};
    }
    if (anywhere) {  // strips left to right, pieces too: the earlier cell wins a tie
      per_strip.resize(static_cast<std::size_t>(piece_strips));
      GDP_CUDA_CHECK(cudaMemcpy(per_strip.data(), w.strip_best.get(), per_strip.size() * sizeof(int4),
                                cudaMemcpyDeviceToHost));
      for (const int4& b : per_strip) {
        const long long j = from + b.z;
        const bool wins = b.x > best.score ||
                          (b.x == best.score && b.x > 0 && (b.y < best.end_i || (b.y == best.end_i && j < best.end_j)));
        if (wins) best = {b.x, b.y, j};
      }
    }
    if (whole_row)
      GDP_CUDA_CHECK(cudaMemcpy(h.data() + from + 1, w.last_h.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
    else if (want_row && from + width == n)
      GDP_CUDA_CHECK(cudaMemcpy(&corner, w.last_h.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
    if (last_row.f)
      GDP_CUDA_CHECK(cudaMemcpy(f.data() + from + 1, w.last_f.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
  }

  if (!want_row && !last_row.f) return {false, best};
  if (!whole_row) {  // the corner alone: End::corner
    h.assign(static_cast<std::size_t>(n + 1), 0);  // finish_pass reads h[n] only
    h[static_cast<std::size_t>(n)] = corner;
  }
  h[0] = left_h_of(shape, g, m);
  if (!last_row.f) f.assign(h.size(), 0);
  return {false, finish_pass(h, f, m, shape, best, last_row)};
}

}  // namespace

PassResult striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                        LastRow last_row, GpuTuning tuning, Kept* kept) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0) return score_pass_scalar(q, t, scheme, shape, last_row);
  if (m >= (1LL << 31) - kLanes || (kept && n >= (1LL << 31) - kMaxStripWidth))
    throw RunError(kept ? "sequences of 2^31 letters or more are not supported by the GPU traceback"
                        : "queries of 2^31 letters or more are not supported on the GPU");
  if (scheme.max_abs_score() > -kPadScore<8>)
    throw RunError("substitution scores beyond +-1000 are not supported on the GPU");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  // A 16-bit pass stops where a score comes within the largest
  // substitution score of 32,767, and the whole pass runs again in 32 bits
  // (parasail's satcheck): a saturated score is never returned.
  for (;;) {
    const RunResult r = run_striped(q, t, scheme, shape, device, last_row, tuning, kept);
    if (!r.overflowed) return r.pass;
    ++stats().overflow_reruns;
    tuning.bits = 32;
  }
}

}  // namespace gdp::pairwise
