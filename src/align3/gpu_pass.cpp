// The GPU entry point: the .cu file's pass where this build has CUDA;
// without it, the pass says so.
#include "align3/cuda/gpu_pass.hpp"

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/locked.hpp"

namespace gdp::align3 {

namespace {

Locked<GpuStats> stats;

}  // namespace

void add_gpu_stats(int passes, double kernel_seconds) {
  stats.update([&](GpuStats& s) {
    s.passes += passes;
    s.kernel_seconds += kernel_seconds;
  });
}

GpuStats gpu_stats() { return stats.get(); }

LayerPass gpu_layer_pass(const ScoringScheme& scheme, int gap, int device) {
  if constexpr (have_cuda)
    return gpu_layer_pass_cuda(scheme, gap, device);
  else
    throw RunError(no_cuda_message);
}

SplitPass gpu_split_pass(const ScoringScheme& scheme, int gap, int device) {
  if constexpr (have_cuda)
    return gpu_split_pass_cuda(scheme, gap, device);
  else
    throw RunError(no_cuda_message);
}

SplitPass gpu_split_pass_on_two(const ScoringScheme& scheme, int gap, int first, int second) {
  if constexpr (have_cuda)
    return gpu_split_pass_on_two_cuda(scheme, gap, first, second);
  else
    throw RunError(no_cuda_message);
}

ChainPass gpu_chain_pass(const ScoringScheme& scheme, int gap, int device, std::size_t max_bytes) {
  if constexpr (have_cuda)
    return gpu_chain_pass_cuda(scheme, gap, device, max_bytes);
  else
    throw RunError(no_cuda_message);
}

std::vector<int> last_layer_gpu(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int device) {
  return gpu_layer_pass(scheme, gap, device)(a, b, c);
}

}  // namespace gdp::align3
