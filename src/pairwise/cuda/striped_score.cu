// The host side of every gpu-sw score pass: plan (strip_plan.hpp), then
// allocate, fill the parameters and launch one of the Gotoh cell's kernels
// of the table (gpu_tuning.cpp: kernel_variants): the strip engine's
// 32-bit kernel (strip_kernel.cuh) instantiated with GotohCell, or one of
// the 16-bit kernels (striped_score16.cu, the diagonal one, plain or
// rebased; striped_rows16.cu, the row one). Local passes without a last
// row go to a 16-bit kernel where the scores allow, other passes to the
// rebased one where it can rebase often enough; a local pass whose score
// leaves the 16-bit range runs again in the rebased diagonal kernel, which
// holds any score (its cells are offsets from 32-bit bases moved up every
// few rows), or in 32 bits where the scores leave that kernel too few
// rows. A target too long for one launch goes through in pieces, the right
// edge of one the left edge of the next. A pass can keep what the chunked
// traceback needs (chunk_recompute.cuh): in the rebased kernel, in packed
// cells (kept_cell.hpp), where it can rebase at 8 columns a lane, else in
// the 32-bit kernel at 8 columns.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_limit.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/chain_link.hpp"
#include "pairwise/cuda/chunk_recompute.cuh"
#include "pairwise/cuda/gotoh_kernels.cuh"
#include "pairwise/cuda/saved_rows_copy.hpp"
#include "pairwise/cuda/strip_kernel.cuh"
#include "pairwise/cuda/strip_progress.cuh"
#include "pairwise/kept_cell.hpp"
#include "pairwise/pass_checkpoint.hpp"
#include "pairwise/query_letters.hpp"

namespace gdp::pairwise {
namespace {

using namespace striped;

template <int Cols, bool Kept = false>
Kernel kernel_for(bool local, bool anywhere) {
  using Local = GotohCell<true>;
  using Global = GotohCell<false>;
  if (local) return anywhere ? strip_score<Local, Cols, true, Kept> : strip_score<Local, Cols, false, Kept>;
  return anywhere ? strip_score<Global, Cols, true, Kept> : strip_score<Global, Cols, false, Kept>;
}

// Every score kernel of the table (gpu_tuning.cpp: kernel_variants) and the
// kept pass's, by the plan's kind and columns, and the pass's shape.
Kernel kernel_of(const KernelPlan& k, const PassRequest& r) {
  if (k.kind == KernelKind::s16_rows) return striped_rows16_kernel(k.lane_columns);
  if (k.kind == KernelKind::s16_diagonal || k.kind == KernelKind::s16_rebased)
    return striped16_kernel(k.lane_columns, k.kind == KernelKind::s16_rebased, r.local, wants_row(r) || r.last_f, r.kept,
                            r.save_rows);
  if (r.kept) return kernel_for<kKeptCols, true>(r.local, r.anywhere);
  return k.lane_columns == 16 ? kernel_for<16>(r.local, r.anywhere) : kernel_for<8>(r.local, r.anywhere);
}

// The device memory of every thread's Workspace.
std::atomic<std::size_t>& workspaces_bytes() {
  static std::atomic<std::size_t> bytes{0};
  return bytes;
}

// Device memory kept between passes (Myers-Miller makes many): it only
// grows. One a thread and device: a split's parts run passes on several
// threads, and over several GPUs.
struct Workspace {
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() { release(); }

  cuda::DeviceArray<std::uint8_t> q, t, walk_q;  // the query's letters as the profile's rows; walk_q: as ranks
  cuda::DeviceArray<int> sub, last_h, last_f, walk_sub;  // sub: the profile's rows; walk_sub: the scheme's
  cuda::DeviceArray<GotohEdge> ring;
  cuda::DeviceArray<unsigned long long> flags;
  cuda::DeviceArray<int4> strip_best;
  cuda::DeviceArray<GotohDown> checkpoints;
  cuda::DeviceArray<GotohEdge> kept_edges;  // kept passes: every strip's right edge
  cuda::DeviceArray<unsigned> packed_checkpoints, packed_edges;  // the rebased 16-bit kernel's kept passes: both packed
  cuda::DeviceArray<int> anchors;                                // and their anchors
  cuda::DeviceArray<int> saved_h, saved_f;                       // passes that save rows (SavedRows)
  cuda::DeviceArray<GotohEdge> edges;       // two columns of m rows: between pieces of a long target
  std::size_t bytes() const {
    return q.bytes() + t.bytes() + walk_q.bytes() + sub.bytes() + walk_sub.bytes() + last_h.bytes() + last_f.bytes() +
           ring.bytes() + flags.bytes() + strip_best.bytes() + checkpoints.bytes() + kept_edges.bytes() +
           packed_checkpoints.bytes() + packed_edges.bytes() + anchors.bytes() + saved_h.bytes() + saved_f.bytes() +
           edges.bytes();
  }
  void release() {
    q.release(), t.release(), walk_q.release(), sub.release(), walk_sub.release(), last_h.release(), last_f.release(),
        ring.release(), flags.release(), strip_best.release(), checkpoints.release(), kept_edges.release(),
        packed_checkpoints.release(), packed_edges.release(), anchors.release(), saved_h.release(), saved_f.release(),
        edges.release();
    recount();
  }
  // Brings workspaces_bytes() up to date with bytes(); returns it.
  std::size_t recount() {
    const std::size_t now = bytes(), change = now - counted;  // modulo 2^64: a shrink subtracts
    counted = now;
    return workspaces_bytes().fetch_add(change) + change;
  }
  std::size_t counted = 0;  // of bytes(), in workspaces_bytes()
};

Workspace& workspace(int device) { return cuda::thread_device_local<Workspace>(device); }

}  // namespace

void add_gpu_kernel_time(double seconds, bool traceback) {
  count_gpu_stats([&](GpuStats& s) {
    s.kernel_seconds += seconds;
    if (traceback) s.traceback_seconds += seconds;
  });
}

namespace {

// What one run of the plan found: the pass's result, or that a 16-bit
// score reached the top of its range.
struct RunResult {
  bool overflowed = false;
  PassResult pass;
  bool declined = false;  // a pass that saves rows, or a chained place's
};

// The saving of a pass to its checkpoint file, where one is wanted.
struct Saving {
  const PassCheckpoint* checkpoint = nullptr;
  std::uint64_t fingerprint = 0;
  int escalation = 0;  // CheckpointState's, of the kernel this run plans
};

// With `chain`, one place of a chained pass (chain_link.hpp): its pieces
// only, their edges through the chain's buffers.
RunResult run_striped(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                      LastRow last_row, const GpuTuning& tuning, Kept<GotohTypes>* kept, PassProgress& progress,
                      const Saving& saving, SavedRows* saved, const PassEdges& edges, const ChainLink<GotohEdge>* chain = nullptr) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  Workspace& w = workspace(device);
  cudaDeviceProp prop{};
  GDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const DeviceLimits limits{prop.multiProcessorCount, prop.sharedMemPerBlockOptin};

  // The profile needs a row for each letter the query uses, not for each
  // of the alphabet's (DNA's 15 letters include 11 ambiguity codes): less
  // shared memory a block leaves room for more blocks an SM. The
  // traceback after a kept pass reads the alphabet's ranks (walk_q,
  // walk_sub).
  const QueryLetters letters = query_letters(q, scheme);
  PassRequest req;
  req.m = m, req.n = n, req.max_abs_score = scheme.max_abs_score(), req.profile_rows = letters.rows;
  req.open_extend = gap_costs(scheme).open_extend;
  req.local = shape.local, req.anywhere = shape.end == End::anywhere;
  req.last_h = last_row.h != nullptr, req.last_f = last_row.f != nullptr, req.kept = kept != nullptr;
  req.saved = saving.checkpoint != nullptr;
  req.save_rows = saved != nullptr;
  if (chain) req.chained = static_cast<int>(chain->places), req.sharing = chain->sharing;
  // Where the pass was saved before: its columns done, its best cell and
  // the edge of its next column.
  const std::optional<CheckpointState> resumed =
      req.saved ? load_checkpoint(saving.checkpoint->path, saving.fingerprint, m) : std::nullopt;

  const KernelPlan kp = plan_kernel(req, tuning, limits);
  const Kernel kernel = kernel_of(kp, req);
  // A pass that saves rows runs in the rebased kernel, or declines (every
  // 0; a chained place tells the chain, which declines for all).
  const auto decline = [&] {
    if (chain)
      chain->ready({});
    else
      saved->every = 0;
    return RunResult{.declined = true};
  };
  if (saved && (!kernel || kp.kind != KernelKind::s16_rebased)) return decline();
  if (!kernel) throw std::logic_error("no GPU kernel for this plan");
  // A chained place's kernel never stops early: its neighbours wait on it.
  if (chain && kp.sixteen() && kp.kind != KernelKind::s16_rebased)
    throw std::logic_error("a chained pass in a 16-bit kernel that can overflow");
  cuda::allow_dynamic_shared(kernel, static_cast<int>(kp.shared_bytes));
  int fit = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kWarpsPerBlock * kLanes, kp.shared_bytes));
  if (fit == 0) throw RunError("the GPU kernel does not fit on this device (shared memory)");
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const GridPlan gp = plan_grid(req, kp, tuning, limits, fit, free_bytes + w.ring.bytes());
  if (!gp.fits)
    throw RunError("a query of " + std::to_string(m) + " letters needs " + std::to_string((8 * m * 8) >> 20) +
                   " MiB of GPU memory for its boundary columns; " + std::to_string(free_bytes >> 20) + " MiB are free");

  const long long saved_rows = saved ? m / saved->every : 0;
  if (saved && saved_rows * (n + 1) * 8 > static_cast<long long>(free_bytes / 4)) return decline();
  const bool sixteen = kp.sixteen(), anywhere = req.anywhere, want_row = wants_row(req);
  const long long strip_width = kp.strip_width, slots = gp.slots;
  if (edges.right && n % strip_width != 0)  // the last strip's right edge would lie past the target's end
    throw std::logic_error("a pass's right edge asked for where its target is not whole strips");
  w.q.reserve(static_cast<std::size_t>(m));
  w.sub.reserve(static_cast<std::size_t>(letters.rows * scheme.dim));
  w.ring.reserve(static_cast<std::size_t>(slots * gp.ring_rows), "cudaMalloc (boundary columns)");
  w.flags.reserve(static_cast<std::size_t>(2 * slots) + 2);  // set_ring's
  const bool edges_io = edges.left || edges.right;
  if ((gp.piece < n || resumed || edges_io) && !chain)
    w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // More pieces than planned where memory is short, each narrower than the
  // ring was sized for: the ring only has slots to spare.
  const long long piece = piece_within(
      req, kp, gp.piece, free_bytes + w.t.bytes() + w.last_h.bytes() + w.last_f.bytes() + w.strip_best.bytes());
  if (piece == 0) throw RunError("too little GPU memory is free for a strip of the target");
  if (piece < gp.piece && !chain)  // pieces where none were planned: their edges too
    w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  const long long max_strips = (piece + strip_width - 1) / strip_width;
  w.t.reserve(static_cast<std::size_t>(piece));
  if (want_row) w.last_h.reserve(static_cast<std::size_t>(piece + 1));
  if (last_row.f) w.last_f.reserve(static_cast<std::size_t>(piece + 1));
  // The 16-bit kernels' local passes note their strips' best cells.
  const bool strip_bests = anywhere || (kp.sixteen() && req.local);
  if (strip_bests) w.strip_best.reserve(static_cast<std::size_t>(max_strips));
  // Kept strips are kKeptWidth columns: a 16-bit kernel's strip holds 2 to
  // 8, and keeps packed cells (kept_cell.hpp).
  const long long checkpoint_rows = kept ? m / kKeptRowsOf<GotohCell<true>> : 0;
  const auto checkpoint_cells = static_cast<std::size_t>(checkpoint_rows * gp.strips * strip_width);
  const auto edge_cells = static_cast<std::size_t>(gp.strips * strip_width / kKeptWidth * m);
  const bool packed = kept && kp.kind == KernelKind::s16_rebased;
  if (packed) {
    // Implied by the rebase (tests/test_kept_cell.cpp checks it over many schemes).
    if (!kept_cell::packs(scheme.gap_open, gap_costs(scheme).open_extend, scheme.max_abs_score(), kKeptRowsOf<GotohCell<true>>))
      throw std::logic_error("a kept pass in 16 bits whose cells do not pack");
    w.packed_checkpoints.reserve(checkpoint_cells, "cudaMalloc (checkpoints)");
    w.packed_edges.reserve(edge_cells, "cudaMalloc (kept strip edges)");
    w.anchors.reserve(static_cast<std::size_t>(checkpoint_rows * gp.strips * strip_width / kKeptWidth), "cudaMalloc (anchors)");
  } else if (kept) {
    w.checkpoints.reserve(checkpoint_cells, "cudaMalloc (checkpoints)");
    w.kept_edges.reserve(edge_cells, "cudaMalloc (kept strip edges)");
  }
  if (saved_rows > 0) {
    w.saved_h.reserve(static_cast<std::size_t>(saved_rows * (n + 1)), "cudaMalloc (saved rows)");
    w.saved_f.reserve(static_cast<std::size_t>(saved_rows * (n + 1)), "cudaMalloc (saved rows)");
  }
  const std::size_t in_workspaces = w.recount();
  count_gpu_stats([&](GpuStats& s) { s.peak_memory_bytes = std::max(s.peak_memory_bytes, in_workspaces); });

  GDP_CUDA_CHECK(cudaMemcpy(w.q.get(), letters.q.data(), letters.q.size(), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(w.sub.get(), letters.sub.data(),
                            static_cast<std::size_t>(letters.rows * scheme.dim) * sizeof(int), cudaMemcpyHostToDevice));
  if (kept) {
    w.walk_q.reserve(static_cast<std::size_t>(m));
    w.walk_sub.reserve(scheme.scores.size());
    GDP_CUDA_CHECK(cudaMemcpy(w.walk_q.get(), q.data(), q.size(), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemcpy(w.walk_sub.get(), scheme.scores.data(), scheme.scores.size() * sizeof(int),
                              cudaMemcpyHostToDevice));
  }

  const GapCosts g = gap_costs(scheme);
  GotohParams p{};
  p.q = w.q.get();
  p.t = w.t.get();
  p.m = static_cast<int>(m);
  p.sub = w.sub.get();
  p.dim = scheme.dim;
  p.rows = letters.rows;
  p.costs = GotohCosts{scheme.gap_open, g.open_extend, g.extend, shape.free_top, shape.left_open};
  set_ring(p, gp, w.ring.get(), w.flags.get());
  p.group = gp.group;
  p.overflow = sixteen ? reinterpret_cast<int*>(w.flags.get() + slots + 1) : nullptr;
  // The rebased kernel's offsets never come near it.
  p.overflow_at = kp.kind == KernelKind::s16_rebased ? INT_MAX : overflow_bound16(scheme);
  p.rebase_mask = kp.rebase.interval - 1, p.reach = kp.rebase.reach;
  p.last = GotohLastRow{want_row ? w.last_h.get() : nullptr, last_row.f ? w.last_f.get() : nullptr};
  p.strip_best = strip_bests ? w.strip_best.get() : nullptr;
  p.checkpoints = kept && !packed ? w.checkpoints.get() : nullptr;
  p.padded_n = gp.strips * strip_width;
  p.kept_edges = kept && !packed ? w.kept_edges.get() : nullptr;
  p.kept_packed_checkpoints = packed ? w.packed_checkpoints.get() : nullptr;
  p.kept_packed_edges = packed ? w.packed_edges.get() : nullptr;
  p.kept_anchors = packed ? w.anchors.get() : nullptr;
  p.saved_h = saved_rows > 0 ? w.saved_h.get() : nullptr;
  p.saved_f = saved_rows > 0 ? w.saved_f.get() : nullptr;
  p.save_every = saved ? static_cast<int>(saved->every) : 0;
  p.save_stride = n + 1;
  if (kept)
    *kept = Kept<GotohTypes>{p.kept_edges, p.checkpoints, w.walk_q.get(), w.t.get(), w.walk_sub.get(), p.padded_n,
                             kKeptRowsOf<GotohCell<true>>, p.kept_packed_edges, p.kept_packed_checkpoints, p.kept_anchors};

  // Row m, where it is needed: all of it, or the corner alone.
  const bool whole_row = last_row.h || shape.end == End::last_row;
  std::vector<int> h(want_row || last_row.f ? static_cast<std::size_t>(whole_row ? n + 1 : 1) : 0);
  std::vector<int> f(last_row.f ? static_cast<std::size_t>(n + 1) : 0);
  std::vector<int4> per_strip;
  PassResult best{0, 0, 0};
  int corner = 0;
  // Each piece reads its left edge from one half of w.edges and writes its
  // right edge to the other.
  GotohEdge* edge_out = w.edges.get();
  GotohEdge* edge_in = edge_out ? edge_out + m : nullptr;
  long long start = 0;
  if (resumed) {
    start = resumed->next_column, best = resumed->best;
    GDP_CUDA_CHECK(cudaMemcpy(edge_in, resumed->edge.data(), static_cast<std::size_t>(m) * sizeof(GotohEdge),
                              cudaMemcpyHostToDevice));
    progress.reach(static_cast<std::uint64_t>(m * start));
  }
  if (edges.left)
    GDP_CUDA_CHECK(cudaMemcpy(edge_in, edges.left->data(), static_cast<std::size_t>(m) * sizeof(GotohEdge),
                              cudaMemcpyHostToDevice));
  Timer piece_timer;
  double piece_seconds = 0;
  // The saved rows reach the host a piece at a time, each while the next
  // piece's kernel runs.
  std::optional<SavedRowsCopy> saved_copy;
  if (saved_rows > 0) {
    if (!chain) saved->allocate(saved_rows, n + 1);  // a chain's, once for all its places
    saved_copy.emplace(w.saved_h.get(), w.saved_f.get(), saved_rows, n, device, *saved);
  }
  // The pieces this run computes: every one from `start`, or a chained
  // place's every places-th of the chain's cuts.
  struct Piece {
    long long from, width, index;
  };
  std::vector<Piece> pieces;
  const long long place = chain ? static_cast<long long>(chain->place) : 0;
  if (chain) {
    const std::vector<long long> cuts = chained_cuts(n, strip_width, piece, static_cast<int>(chain->places));
    if (!chain->ready(cuts)) return RunResult{.declined = true};
    for (const std::size_t k : chain->pieces(cuts))
      pieces.push_back({cuts[k], cuts[k + 1] - cuts[k], static_cast<long long>(k)});
  } else {
    for (long long from = start; from < n; from += piece) pieces.push_back({from, std::min(piece, n - from), from / piece});
  }
  long long done = start;  // the columns this run has computed
  for (const Piece& at : pieces) {
    const long long from = at.from, width = at.width;
    if (from > start && saving.checkpoint && saving.checkpoint->stop_at &&
        std::chrono::steady_clock::now() + std::chrono::duration<double>(piece_seconds) > *saving.checkpoint->stop_at) {
      count_gpu_stats([&](GpuStats& s) { s.stopped_at_column = from; });
      throw Stopped("stopped at column " + std::to_string(from) + " of " + std::to_string(n) + " (" +
                        std::to_string(100 * from / n) + "%), saved in " + saving.checkpoint->path +
                        ": run the same command again to go on");
    }
    piece_timer.restart();
    const long long piece_strips = (width + strip_width - 1) / strip_width;
    GDP_CUDA_CHECK(cudaMemcpy(w.t.get(), t.data() + from, static_cast<std::size_t>(width), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemset(w.flags.get(), 0, static_cast<std::size_t>(2 * slots + 2) * sizeof(unsigned long long)));
    // The 16-bit kernels' ring rows are tagged with their group's number:
    // 0xff bytes are no group's, nor are the last launch's rows left there.
    if (sixteen)
      GDP_CUDA_CHECK(cudaMemset(w.ring.get(), 0xff, static_cast<std::size_t>(slots * gp.ring_rows) * sizeof(GotohEdge)));
    p.n = static_cast<int>(width);
    p.strips = piece_strips;
    p.j_base = from;
    p.left_edge = from > 0 || edges.left ? edge_in : nullptr;
    p.right_edge = from + width < n || edges.right ? edge_out : nullptr;
    p.piece = at.index;
    if (chain) {
      p.left_edge = from > 0 ? chain->left_edge : nullptr;
      p.left_flag = from > 0 ? chain->left_flag : nullptr;
      p.right_edge = from + width < n ? chain->right_edge : nullptr;
      p.right_flag = from + width < n ? chain->right_flag : nullptr;
      p.chain_abort = chain->abort;
    }
    const long long piece_blocks = std::min(gp.blocks, (piece_strips + kWarpsPerBlock - 1) / kWarpsPerBlock);

    {
      const auto watch = progress.watch(p.ticket, p.group, strip_width, m, done, width);
      cuda::KernelTimer timer;
      timer.start();
      kernel<<<static_cast<int>(piece_blocks), kWarpsPerBlock * kLanes, kp.shared_bytes>>>(p);
      GDP_CUDA_CHECK(cudaGetLastError());
      add_gpu_kernel_time(timer.stop_seconds(), false);
      GDP_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    }
    count_gpu_stats([](GpuStats& s) { ++s.passes; });
    if (sixteen) {
      int overflow = 0;
      GDP_CUDA_CHECK(cudaMemcpy(&overflow, p.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
      if (overflow) return {true, {}};
    }
    done += width;
    progress.reach(static_cast<std::uint64_t>(m * done));
    if (anywhere) {  // strips left to right, pieces too: the earlier cell wins a tie
      per_strip.resize(static_cast<std::size_t>(piece_strips));
      GDP_CUDA_CHECK(cudaMemcpy(per_strip.data(), w.strip_best.get(), per_strip.size() * sizeof(int4),
                                cudaMemcpyDeviceToHost));
      for (const int4& b : per_strip) keep_better(best, PassResult{b.x, b.y, from + b.z});
    }
    if (whole_row)
      GDP_CUDA_CHECK(cudaMemcpy(h.data() + from + 1, w.last_h.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
    else if (want_row && from + width == n)
      GDP_CUDA_CHECK(cudaMemcpy(&corner, w.last_h.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
    if (last_row.f)
      GDP_CUDA_CHECK(cudaMemcpy(f.data() + from + 1, w.last_f.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
    if (saving.checkpoint && from + width < n) {
      CheckpointState s{from + width, saving.escalation, best, std::vector<std::int32_t>(static_cast<std::size_t>(2 * m))};
      GDP_CUDA_CHECK(cudaMemcpy(s.edge.data(), edge_out, static_cast<std::size_t>(m) * sizeof(GotohEdge),
                                cudaMemcpyDeviceToHost));
      save_checkpoint(saving.checkpoint->path, saving.fingerprint, s);
    }
    if (saved_copy) saved_copy->start(from + 1, from + width);
    std::swap(edge_in, edge_out);
    piece_seconds = piece_timer.seconds();
  }

  if (edges.right) {  // the last piece's right edge, in edge_in since the swap
    edges.right->resize(static_cast<std::size_t>(2 * m));
    GDP_CUDA_CHECK(cudaMemcpy(edges.right->data(), edge_in, static_cast<std::size_t>(m) * sizeof(GotohEdge),
                              cudaMemcpyDeviceToHost));
  }
  if (saved_copy) {
    saved_copy->wait();
    if (place == 0)
      for (long long k = 1; k <= saved_rows; ++k) saved->h(k)[0] = saved->f(k)[0] = left_h_of(shape, g, k * saved->every);
    saved_copy.reset();
    w.saved_h.release(), w.saved_f.release();  // the traceback's parts may need the room
    w.recount();
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

namespace {

PassResult striped_pass_with(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                             LastRow last_row, GpuTuning tuning, Kept<GotohTypes>* kept, Progress* progress,
                             const PassCheckpoint* checkpoint, SavedRows* saved, const PassEdges& edges) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0) return score_pass_scalar(q, t, scheme, shape, last_row, progress);
  if (m >= (1LL << 31) - kLanes || (kept && n >= (1LL << 31) - kMaxStripWidth))
    throw RunError(kept ? "sequences of 2^31 letters or more are not supported by the GPU traceback"
                        : "queries of 2^31 letters or more are not supported on the GPU");
  if (scheme.max_abs_score() > -kPadScore<8>)
    throw RunError("substitution scores beyond +-1000 are not supported on the GPU");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  // A pass stops where a score comes within the largest substitution
  // score of 32,767, and the whole pass runs again in the rebased kernel,
  // or in 32 bits where the plan cannot rebase (parasail's satcheck): a
  // saturated score is never returned. A saved pass goes on from its
  // checkpoint, whose edge is exact, in the kernel it was saved from or
  // the one it escalates to.
  PassProgress counted(progress);
  Saving saving;
  // Only a pass that hands back no row is saved (row m is not in the file).
  if (checkpoint && checkpoint->wanted() && !kept && !last_row.h && !last_row.f && shape.end != End::last_row) {
    saving.checkpoint = checkpoint;
    saving.fingerprint = pass_fingerprint(q, t, scheme, shape);
    const SavedAt at = saved_at(checkpoint->path, saving.fingerprint, m);
    saving.escalation = at.escalation;
    // This run's start, which stays: a rerun after an overflow may go on
    // from a later piece that this run saved.
    count_gpu_stats([&](GpuStats& s) { s.resumed_from_column = at.next_column; });
    if (saving.escalation == 1) tuning.kernel16 = Kernel16::rebased;
    if (saving.escalation == 2) tuning.bits = 32;
  }
  for (;;) {
    const RunResult r = run_striped(q, t, scheme, shape, device, last_row, tuning, kept, counted, saving, saved, edges);
    if (!r.overflowed) return r.pass;
    count_gpu_stats([](GpuStats& s) { ++s.overflow_reruns; });
    // Where even 8 columns a lane cannot rebase, the plan would run the
    // overflowing kernel again: straight to 32 bits.
    const bool can_rebase = rebase16_of(gap_costs(scheme).open_extend, scheme.max_abs_score(), 8).interval > 0;
    if (tuning.kernel16 != Kernel16::rebased && can_rebase)
      tuning.kernel16 = Kernel16::rebased, saving.escalation = 1;
    else
      tuning.bits = 32, saving.escalation = 2;
  }
}

}  // namespace

PassResult striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                        LastRow last_row, GpuTuning tuning, Kept<GotohTypes>* kept, Progress* progress,
                        const PassCheckpoint* checkpoint, SavedRows* saved) {
  return striped_pass_with(q, t, scheme, shape, device, last_row, tuning, kept, progress, checkpoint, saved, {});
}

std::optional<PassResult> striped_pass_chained(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                               int device, const GpuTuning& tuning, Progress* progress, SavedRows* saved,
                                               const ChainLink<GotohEdge>& chain) {
  GDP_CUDA_CHECK(cudaSetDevice(device));
  PassProgress counted(progress);
  const RunResult r = run_striped(q, t, scheme, shape, device, {}, tuning, nullptr, counted, {}, saved, {}, &chain);
  if (r.overflowed) throw std::logic_error("a chained place's pass overflowed");
  if (r.declined) return std::nullopt;
  return r.pass;
}

PassResult striped_pass_between(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                                const GpuTuning& tuning, Progress* progress, const PassEdges& edges) {
  if (!shape.local || shape.end != End::anywhere)
    throw std::logic_error("striped_pass_between: a local pass, its end anywhere");
  if (q.empty() || t.empty()) throw std::logic_error("striped_pass_between: an empty sequence");
  if (edges.left && edges.left->size() != 2 * q.size()) throw std::logic_error("striped_pass_between: a left edge of other rows");
  return striped_pass_with(q, t, scheme, shape, device, {}, tuning, nullptr, progress, nullptr, nullptr, edges);
}

}  // namespace gdp::pairwise
