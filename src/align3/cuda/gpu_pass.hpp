#pragma once
// The GPU's pass over the cube: the same contract as the CPU's last_layer
// (cpu/passes.hpp), computed in chunks (layer_pass.cu). Plain C++: no CUDA
// types.
#include <vector>

#include "align3/align3.hpp"
#include "align3/cpu/passes.hpp"

namespace gdp::align3 {

// A pass on the GPU with last_layer's contract: H(|a|, j, k) for every j, k
// (at [j * (|c| + 1) + k]). Its device memory lasts from one call to the
// next (the linear-space alignment's many passes). Throws RunError on a
// CUDA failure, when a cube's chunk edges do not fit the device, for an
// alphabet of more than 32 letters, and when this build has no CUDA
// (gpu_pass.cpp).
LayerPass gpu_layer_pass(const ScoringScheme& scheme, int gap, int device);

// A split point (cpu/passes.hpp) from two such passes, found on the GPU: the
// layers stay there.
SplitPass gpu_split_pass(const ScoringScheme& scheme, int gap, int device);

// One pass through gpu_layer_pass.
std::vector<int> last_layer_gpu(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int device);

// What the GPU passes of this process did so far.
struct GpuStats {
  int passes = 0;
  double kernel_seconds = 0;
};
GpuStats gpu_stats();

// The .cu file's side (CUDA builds only).
LayerPass gpu_layer_pass_cuda(const ScoringScheme& scheme, int gap, int device);
SplitPass gpu_split_pass_cuda(const ScoringScheme& scheme, int gap, int device);
GpuStats& gpu_stats_counters();

}  // namespace gdp::align3
