// Built without CUDA: the GPU pass exists, but says it cannot run.
#include "core/error.hpp"
#include "pairwise/cuda/gpu_pass.hpp"

namespace gdp::pairwise {

GpuStats gpu_stats() { return {}; }


PassResult score_pass_gpu(Residues, Residues, const ScoringScheme&, const Shape&, int, LastRow, GpuTuning) {
  throw RunError("this build of gpu-dp has no CUDA support; use --cpu");
}

std::optional<Alignment> align_gpu_chunked(Residues, Residues, const ScoringScheme&, Mode, int) {
  return std::nullopt;
}

}  // namespace gdp::pairwise
