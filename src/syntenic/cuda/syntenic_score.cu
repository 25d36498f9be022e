// The host side of gpu-syntenic's score pass: plan (pairwise/strip_plan.hpp,
// the 32-bit kernel with the syntenic cell's 16-byte edge), then allocate,
// fill the parameters and launch the strip engine's kernel
// (pairwise/cuda/strip_kernel.cuh) instantiated with SyntenicCell. A target
// too long for one launch goes through in pieces, the right edge of one the
// left edge of the next. A part of the matrix with borders of its own
// (borders.hpp, the linear-space alignment's) hands the kernel its row 0
// in the costs and its column 0 as the first strip's left edge. The pass
// reads back row m's last cell, or all of row m. A score pass chained over
// several GPUs (chained_score) deals its pieces to them in turn, the edges
// handed over as gpu-sw's are (pairwise/cuda/chain_places.cuh).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "core/cuda_shared_limit.hpp"
#include "core/error.hpp"
#include "pairwise/cuda/chain_places.cuh"
#include "pairwise/cuda/chunk_recompute.cuh"
#include "pairwise/cuda/strip_kernel.cuh"
#include "pairwise/cuda/strip_progress.cuh"
#include "pairwise/query_letters.hpp"
#include "syntenic/cuda/gpu_pass.hpp"
#include "syntenic/syntenic_cell.hpp"

namespace gdp::syntenic {
namespace {

using namespace pairwise::striped;
using SyntenicParams = Params<CellTypes>;
using Kernel = void (*)(SyntenicParams);

Kernel kernel_for(int lane_columns, bool kept) {
  if (kept) return strip_score<SyntenicCell, kKeptCols, false, true>;
  return lane_columns == 16 ? strip_score<SyntenicCell, 16, false, false> : strip_score<SyntenicCell, 8, false, false>;
}

// Device memory kept between passes: it only grows.
struct Workspace {
  cuda::DeviceArray<std::uint8_t> q, t;
  cuda::DeviceArray<int> sub, last_s, last_d, last_h;
  cuda::DeviceArray<Edge> ring, edges, left, kept_edges;
  cuda::DeviceArray<Down> top, checkpoints;
  cuda::DeviceArray<unsigned long long> flags;
  std::size_t bytes() const {
    return q.bytes() + t.bytes() + sub.bytes() + last_s.bytes() + last_d.bytes() + last_h.bytes() + ring.bytes() +
           edges.bytes() + left.bytes() + kept_edges.bytes() + top.bytes() + checkpoints.bytes() + flags.bytes();
  }
};

// One a thread and device: the threads of Options::devices run passes
// side by side, two of them even on one device.
Workspace& workspace(int device) { return cuda::thread_device_local<Workspace>(device); }

}  // namespace

long long kept_bytes(long long m, long long n) {
  const long long strips = (n + kKeptWidth - 1) / kKeptWidth;
  return strips * m * static_cast<long long>(sizeof(Edge)) +
         (m / kKeptRowsOf<SyntenicCell>) * strips * kKeptWidth * static_cast<long long>(sizeof(Down));
}

namespace {

// With `chain`, one place of a chained score pass: its pieces only, their
// edges through the chain's buffers; the place of the last piece has the
// corner's cell, the others a default one.
LastCell run_striped(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                     pairwise::GpuTuning tuning, const Borders* borders, std::vector<Down>* row, Kept<CellTypes>* kept,
                     Progress* whole, const ChainLink<Edge>* chain) {
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size());
  if (m == 0 || n == 0) {
    if (!row) return score_scalar(a, b, scheme, costs, whole);
    const Borders whole = borders ? Borders{} : borders_of(Entry::start, a.size(), b.size(), costs);
    *row = last_row_tiled(a, b, scheme, costs, borders ? *borders : whole, 1);
    return {row->back().s, row->back().h};
  }
  if (m >= (1LL << 31) - kLanes) throw RunError("queries of 2^31 letters or more are not supported on the GPU");
  if (scheme.max_abs_score() > -kPadScore<8>)
    throw RunError("substitution scores beyond +-1000 are not supported on the GPU");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  Workspace& w = workspace(device);
  cudaDeviceProp prop{};
  GDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const DeviceLimits limits{prop.multiProcessorCount, prop.sharedMemPerBlockOptin};

  // Kept passes keep the alphabet's ranks, which the traceback's profiles read.
  const pairwise::QueryLetters letters =
      kept ? pairwise::QueryLetters{{a.begin(), a.end()}, scheme.scores, scheme.dim} : pairwise::query_letters(a, scheme);
  PassRequest req;
  req.m = m, req.n = n, req.max_abs_score = scheme.max_abs_score(), req.profile_rows = letters.rows;
  req.last_h = true, req.edge_bytes = static_cast<int>(sizeof(Edge)), req.kept = kept != nullptr;
  if (chain) req.chained = static_cast<int>(chain->places), req.sharing = chain->sharing;
  tuning.bits = 32;  // the syntenic cell has no 16-bit form
  const KernelPlan kp = plan_kernel(req, tuning, limits);
  const Kernel kernel = kernel_for(kp.lane_columns, kept != nullptr);
  cuda::allow_dynamic_shared(kernel, static_cast<int>(kp.shared_bytes));
  int fit = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kWarpsPerBlock * kLanes, kp.shared_bytes));
  if (fit == 0) throw RunError("the GPU kernel does not fit on this device (shared memory)");
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const GridPlan gp = plan_grid(req, kp, tuning, limits, fit, free_bytes + w.ring.bytes());
  if (!gp.fits)
    throw RunError("a query of " + std::to_string(m) + " letters needs " +
                   std::to_string((2 * m * static_cast<long long>(sizeof(Edge))) >> 20) +
                   " MiB of GPU memory for its boundary columns; " + std::to_string(free_bytes >> 20) + " MiB are free");

  const long long strip_width = kp.strip_width, slots = gp.slots;
  w.q.reserve(static_cast<std::size_t>(m));
  w.sub.reserve(letters.sub.size());
  w.ring.reserve(static_cast<std::size_t>(slots * gp.ring_rows), "cudaMalloc (boundary columns)");
  w.flags.reserve(static_cast<std::size_t>(2 * slots) + 2);  // set_ring's
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const long long piece = piece_within(req, kp, gp.piece, free_bytes + w.t.bytes() + w.last_s.bytes() + w.last_h.bytes());
  if (piece == 0) throw RunError("too little GPU memory is free for a strip of the target");
  if (piece < n && !chain) w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  w.t.reserve(static_cast<std::size_t>(piece));
  w.last_s.reserve(static_cast<std::size_t>(piece + 1));
  w.last_h.reserve(static_cast<std::size_t>(piece + 1));
  if (row) w.last_d.reserve(static_cast<std::size_t>(piece + 1));
  if (borders) {
    w.top.reserve(static_cast<std::size_t>(n + 1), "cudaMalloc (row 0)");
    w.left.reserve(static_cast<std::size_t>(m), "cudaMalloc (column 0)");
    GDP_CUDA_CHECK(cudaMemcpy(w.top.get(), borders->top.data(), borders->top.size() * sizeof(Down), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemcpy(w.left.get(), borders->left.data() + 1, static_cast<std::size_t>(m) * sizeof(Edge),
                              cudaMemcpyHostToDevice));
  }
  const long long checkpoint_rows = kept ? m / kKeptRowsOf<SyntenicCell> : 0;
  if (checkpoint_rows > 0)
    w.checkpoints.reserve(static_cast<std::size_t>(checkpoint_rows * gp.strips * strip_width), "cudaMalloc (checkpoints)");
  if (kept) w.kept_edges.reserve(static_cast<std::size_t>(gp.strips * m), "cudaMalloc (kept strip edges)");
  add_gpu_stats(0, 0, w.bytes());
  GDP_CUDA_CHECK(cudaMemcpy(w.q.get(), letters.q.data(), letters.q.size(), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(w.sub.get(), letters.sub.data(), letters.sub.size() * sizeof(int), cudaMemcpyHostToDevice));

  SyntenicParams p{};
  p.q = w.q.get();
  p.t = w.t.get();
  p.m = static_cast<int>(m);
  p.sub = w.sub.get();
  p.dim = scheme.dim;
  p.rows = letters.rows;
  p.costs = GpuCosts{costs, borders ? w.top.get() : nullptr};
  set_ring(p, gp, w.ring.get(), w.flags.get());
  p.group = gp.group;
  p.last = LastRow{w.last_s.get(), row ? w.last_d.get() : nullptr, w.last_h.get()};
  std::vector<int> s_row, d_row, h_row;
  if (row) s_row.resize(static_cast<std::size_t>(n + 1)), d_row.resize(s_row.size()), h_row.resize(s_row.size());
  p.padded_n = gp.strips * strip_width;
  p.checkpoints = checkpoint_rows > 0 ? w.checkpoints.get() : nullptr;
  p.kept_edges = kept ? w.kept_edges.get() : nullptr;
  if (kept) *kept = Kept<CellTypes>{p.kept_edges, p.checkpoints, w.q.get(), w.t.get(), w.sub.get(), p.padded_n, kKeptRowsOf<SyntenicCell>};

  // The pieces this run computes: every one, each reading its left edge
  // from one half of w.edges and writing its right edge to the other; or a
  // chained place's every places-th of the chain's cuts.
  std::vector<long long> cuts;
  std::vector<std::size_t> mine;
  if (chain) {
    cuts = chained_cuts(n, strip_width, piece, static_cast<int>(chain->places));
    if (!chain->ready(cuts)) throw std::logic_error("a chained syntenic pass declined");
    mine = chain->pieces(cuts);
  } else {
    for (long long from = 0; from < n; from += piece) cuts.push_back(from);
    cuts.push_back(n);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) mine.push_back(k);
  }
  LastCell last;
  PassProgress progress(whole);
  long long done = 0;  // the columns this run has computed
  for (const std::size_t index : mine) {
    const long long from = cuts[index], width = cuts[index + 1] - from;
    const long long piece_strips = (width + strip_width - 1) / strip_width;
    GDP_CUDA_CHECK(cudaMemcpy(w.t.get(), b.data() + from, static_cast<std::size_t>(width), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemset(w.flags.get(), 0, static_cast<std::size_t>(2 * slots + 2) * sizeof(unsigned long long)));
    p.n = static_cast<int>(width);
    p.strips = piece_strips;
    p.j_base = from;
    p.piece = static_cast<long long>(index);
    if (chain) {
      p.left_edge = from > 0 ? chain->left_edge : nullptr;
      p.left_flag = from > 0 ? chain->left_flag : nullptr;
      p.right_edge = from + width < n ? chain->right_edge : nullptr;
      p.right_flag = from + width < n ? chain->right_flag : nullptr;
      p.chain_abort = chain->abort;
    } else {
      p.left_edge = from > 0 ? w.edges.get() + (index % 2 ? 0 : m) : borders ? w.left.get() : nullptr;
      p.right_edge = from + width < n ? w.edges.get() + (index % 2 ? m : 0) : nullptr;
    }
    const long long piece_blocks = std::min(gp.blocks, (piece_strips + kWarpsPerBlock - 1) / kWarpsPerBlock);

    {
      const auto watch = progress.watch(p.ticket, p.group, strip_width, m, done, width);
      cuda::KernelTimer timer;
      timer.start();
      kernel<<<static_cast<int>(piece_blocks), kWarpsPerBlock * kLanes, kp.shared_bytes>>>(p);
      GDP_CUDA_CHECK(cudaGetLastError());
      add_gpu_stats(1, timer.stop_seconds(), 0);
      GDP_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    }
    done += width;
    progress.reach(static_cast<std::uint64_t>(m * done));
    if (row) {
      const std::size_t bytes = static_cast<std::size_t>(width) * sizeof(int);
      GDP_CUDA_CHECK(cudaMemcpy(s_row.data() + from + 1, w.last_s.get() + 1, bytes, cudaMemcpyDeviceToHost));
      GDP_CUDA_CHECK(cudaMemcpy(d_row.data() + from + 1, w.last_d.get() + 1, bytes, cudaMemcpyDeviceToHost));
      GDP_CUDA_CHECK(cudaMemcpy(h_row.data() + from + 1, w.last_h.get() + 1, bytes, cudaMemcpyDeviceToHost));
    } else if (from + width == n) {
      GDP_CUDA_CHECK(cudaMemcpy(&last.s, w.last_s.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
      GDP_CUDA_CHECK(cudaMemcpy(&last.h, w.last_h.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
    }
  }
  if (row) {
    row->resize(static_cast<std::size_t>(n + 1));
    (*row)[0] = borders ? borders->left_down(static_cast<std::size_t>(m))
                        : borders_of(Entry::start, a.size(), 0, costs).left_down(static_cast<std::size_t>(m));
    for (std::size_t j = 1; j <= static_cast<std::size_t>(n); ++j) (*row)[j] = {s_row[j], d_row[j], h_row[j]};
    last = {(*row)[static_cast<std::size_t>(n)].s, (*row)[static_cast<std::size_t>(n)].h};
  }
  return last;
}

}  // namespace

LastCell striped_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                       pairwise::GpuTuning tuning, const Borders* borders, std::vector<Down>* row,
                       Kept<CellTypes>* kept, Progress* progress) {
  return run_striped(a, b, scheme, costs, device, tuning, borders, row, kept, progress, nullptr);
}

LastCell chained_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                       const std::vector<int>& devices, const pairwise::GpuTuning& tuning, Progress* progress,
                       std::vector<long long>* cuts) {
  const auto m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size());
  if (!chained_score_takes(m, n, devices.size())) throw std::logic_error("chained_score: a pass it does not take");
  const auto results = run_chain<Edge, LastCell>(
      devices, m,
      [&](std::size_t k, const ChainLink<Edge>& link) -> std::optional<LastCell> {
        return run_striped(a, b, scheme, costs, devices[k], tuning, nullptr, nullptr, nullptr, progress, &link);
      },
      cuts);
  if (!results) throw std::logic_error("a chained syntenic pass declined");
  return (*results)[(cuts->size() - 2) % devices.size()];  // the place of the last piece has the corner
}

}  // namespace gdp::syntenic
