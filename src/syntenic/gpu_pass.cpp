// The GPU entry points: the .cu file's functions where this build has CUDA;
// without it, the pass says so.
#include "syntenic/cuda/gpu_pass.hpp"

#include "core/build.hpp"
#include "core/error.hpp"

namespace gdp::syntenic {

GpuStats& gpu_stats_counters() {
  static GpuStats s;
  return s;
}

GpuStats gpu_stats() { return gpu_stats_counters(); }

LastCell score_pass_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                        const pairwise::GpuTuning& tuning, Progress* progress) {
  if constexpr (have_cuda)
    return striped_score(a, b, scheme, costs, device, tuning, nullptr, nullptr, nullptr, progress);
  else
    throw RunError(no_cuda_message);
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
