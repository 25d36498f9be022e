// The GPU entry points: the .cu file's functions where this build has CUDA;
// without it, the pass says so.
#include "syntenic/cuda/gpu_pass.hpp"

#include <algorithm>

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/locked.hpp"
#include "pairwise/cuda/gpu_pass.hpp"

namespace gdp::syntenic {

namespace {

Locked<GpuStats> stats;

}  // namespace

void add_gpu_stats(int passes, double kernel_seconds, std::size_t memory_bytes) {
  stats.update([&](GpuStats& s) {
    s.passes += passes;
    s.kernel_seconds += kernel_seconds;
    s.peak_memory_bytes = std::max(s.peak_memory_bytes, memory_bytes);
  });
}

GpuStats gpu_stats() { return stats.get(); }

LastCell score_pass_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                        const pairwise::GpuTuning& tuning, Progress* progress) {
  if constexpr (have_cuda)
    return striped_score(a, b, scheme, costs, device, tuning, nullptr, nullptr, nullptr, progress);
  else
    throw RunError(no_cuda_message);
}

bool chained_score_takes(std::int64_t m, std::int64_t n, std::size_t places) {
  return places > 1 && m > 0 && n >= pairwise::kChainColumns * static_cast<std::int64_t>(places);
}

LastCell score_pass_gpus(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                         const std::vector<int>& devices, const pairwise::GpuTuning& tuning, Progress* progress,
                         std::vector<long long>* chained_cuts) {
  if constexpr (have_cuda) {
    if (chained_cuts) chained_cuts->clear();
    if (!chained_score_takes(static_cast<std::int64_t>(a.size()), static_cast<std::int64_t>(b.size()), devices.size()))
      return striped_score(a, b, scheme, costs, devices.at(0), tuning, nullptr, nullptr, nullptr, progress);
    std::vector<long long> cuts;
    const LastCell last = chained_score(a, b, scheme, costs, devices, tuning, progress, &cuts);
    if (chained_cuts) *chained_cuts = cuts;
    spdlog::debug("syntenic score pass of {} x {} chained over GPUs {}: {} pieces, of {} columns first and {} last",
                  a.size(), b.size(), fmt::join(devices, ","), cuts.size() - 1, cuts[1],
                  cuts.back() - cuts[cuts.size() - 2]);
    return last;
  } else {
    throw RunError(no_cuda_message);
  }
}

std::optional<Alignment> align_gpu_chunked(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                                           int device, Progress* score, Progress* traceback) {
  if constexpr (have_cuda)
    return chunked_alignment(a, b, scheme, costs, device, score, traceback);
  else
    return std::nullopt;
}

std::vector<Down> last_row_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                               const Borders& borders, int device, const pairwise::GpuTuning& tuning,
                               Progress* progress) {
  if constexpr (have_cuda) {
    std::vector<Down> row;
    striped_score(a, b, scheme, costs, device, tuning, &borders, &row, nullptr, progress);
    return row;
  } else {
    throw RunError(no_cuda_message);
  }
}

}  // namespace gdp::syntenic
