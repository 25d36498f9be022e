// The host side of gpu-syntenic's score pass: plan (pairwise/strip_plan.hpp,
// the 32-bit kernel with the syntenic cell's 16-byte edge), then allocate,
// fill the parameters and launch the strip engine's kernel
// (pairwise/cuda/strip_kernel.cuh) instantiated with SyntenicCell. A target
// too long for one launch goes through in pieces, the right edge of one the
// left edge of the next. The pass wants row m's last cell only.
#include <algorithm>
#include <string>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "pairwise/cuda/strip_kernel.cuh"
#include "pairwise/query_letters.hpp"
#include "syntenic/cuda/gpu_pass.hpp"
#include "syntenic/syntenic_cell.hpp"

namespace gdp::syntenic {
namespace {

using namespace pairwise::striped;
using SyntenicParams = Params<CellTypes>;
using Kernel = void (*)(SyntenicParams);

Kernel kernel_for(int lane_columns) {
  return lane_columns == 16 ? strip_score<SyntenicCell, 16, false, false> : strip_score<SyntenicCell, 8, false, false>;
}

// Device memory kept between passes: it only grows.
struct Workspace {
  int device = -1;
  cuda::DeviceArray<std::uint8_t> q, t;
  cuda::DeviceArray<int> sub, last_s, last_h;
  cuda::DeviceArray<Edge> ring, edges;
  cuda::DeviceArray<unsigned long long> flags;
  std::size_t bytes() const {
    return q.bytes() + t.bytes() + sub.bytes() + last_s.bytes() + last_h.bytes() + ring.bytes() + edges.bytes() +
           flags.bytes();
  }
  void release() {
    q.release(), t.release(), sub.release(), last_s.release(), last_h.release(), ring.release(), edges.release(),
        flags.release();
  }
};

Workspace& workspace() {
  static Workspace w;
  return w;
}

}  // namespace

LastCell striped_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                       pairwise::GpuTuning tuning) {
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size());
  if (m == 0 || n == 0) return score_scalar(a, b, scheme, costs);
  if (m >= (1LL << 31) - kLanes) throw RunError("queries of 2^31 letters or more are not supported on the GPU");
  if (scheme.max_abs_score() > -kPadScore<8>)
    throw RunError("substitution scores beyond +-1000 are not supported on the GPU");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  Workspace& w = workspace();
  if (w.device != device) w.release(), w.device = device;
  cudaDeviceProp prop{};
  GDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const DeviceLimits limits{prop.multiProcessorCount, prop.sharedMemPerBlockOptin};

  const pairwise::QueryLetters letters = pairwise::query_letters(a, scheme);
  PassRequest req;
  req.m = m, req.n = n, req.max_abs_score = scheme.max_abs_score(), req.profile_rows = letters.rows;
  req.last_h = true, req.edge_bytes = static_cast<int>(sizeof(Edge));
  tuning.bits = 32;  // the syntenic cell has no 16-bit form
  const KernelPlan kp = plan_kernel(req, tuning, limits);
  const Kernel kernel = kernel_for(kp.lane_columns);
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kp.shared_bytes)));
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
  w.ring.reserve(static_cast<std::size_t>(slots * m), "cudaMalloc (boundary columns)");
  w.flags.reserve(static_cast<std::size_t>(slots) + 1);  // the slots' flags, the ticket
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const long long piece = piece_within(req, kp, gp.piece, free_bytes + w.t.bytes() + w.last_s.bytes() + w.last_h.bytes());
  if (piece == 0) throw RunError("too little GPU memory is free for a strip of the target");
  if (piece < n) w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  w.t.reserve(static_cast<std::size_t>(piece));
  w.last_s.reserve(static_cast<std::size_t>(piece + 1));
  w.last_h.reserve(static_cast<std::size_t>(piece + 1));
  GpuStats& stats = gpu_stats_counters();
  stats.peak_memory_bytes = std::max(stats.peak_memory_bytes, w.bytes());
  GDP_CUDA_CHECK(cudaMemcpy(w.q.get(), letters.q.data(), letters.q.size(), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(w.sub.get(), letters.sub.data(), letters.sub.size() * sizeof(int), cudaMemcpyHostToDevice));

  SyntenicParams p{};
  p.q = w.q.get();
  p.t = w.t.get();
  p.m = static_cast<int>(m);
  p.sub = w.sub.get();
  p.dim = scheme.dim;
  p.rows = letters.rows;
  p.costs = costs;
  p.slots = slots;
  p.group = gp.group;
  p.ring = w.ring.get();
  p.flags = w.flags.get();
  p.ticket = w.flags.get() + slots;
  p.last = LastRow{w.last_s.get(), w.last_h.get()};
  p.padded_n = gp.strips * strip_width;

  LastCell last;
  for (long long from = 0; from < n; from += piece) {
    const long long width = std::min(piece, n - from), piece_strips = (width + strip_width - 1) / strip_width;
    GDP_CUDA_CHECK(cudaMemcpy(w.t.get(), b.data() + from, static_cast<std::size_t>(width), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemset(w.flags.get(), 0, static_cast<std::size_t>(slots + 1) * sizeof(unsigned long long)));
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
    stats.kernel_seconds += timer.stop_seconds();
    GDP_CUDA_CHECK(cudaDeviceSynchronize());
    ++stats.passes;
    if (from + width == n) {
      GDP_CUDA_CHECK(cudaMemcpy(&last.s, w.last_s.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
      GDP_CUDA_CHECK(cudaMemcpy(&last.h, w.last_h.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
    }
  }
  return last;
}

}  // namespace gdp::syntenic
