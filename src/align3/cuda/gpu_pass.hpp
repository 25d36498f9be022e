#pragma once
// The GPU's pass over the cube: the same contract as the CPU's last_layer
// (cpu/passes.hpp), computed in chunks (layer_pass.cu). Plain C++: no CUDA
// types.
#include <vector>

#include "align3/align3.hpp"

namespace gdp::align3 {

// H(|a|, j, k) for every j, k (at [j * (|c| + 1) + k]), as last_layer.
// Throws RunError on a CUDA failure, when the cube's chunk edges do not fit
// the device, for an alphabet of more than 32 letters, and when this build
// has no CUDA (gpu_pass.cpp).
std::vector<int> last_layer_gpu(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int device);

// What the GPU passes of this process did so far.
struct GpuStats {
  int passes = 0;
  double kernel_seconds = 0;
};
GpuStats gpu_stats();

// The .cu file's side (CUDA builds only).
std::vector<int> last_layer_gpu_pass(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                                     int device);
GpuStats& gpu_stats_counters();

}  // namespace gdp::align3
