#pragma once
// The GPU's pass over the cube: the same contract as the CPU's last_layer
// (cpu/passes.hpp), computed in chunks (layer_pass.cu). Plain C++: no CUDA
// types.
#include <cstddef>
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

// The same split over two devices, the same point: the forward pass on
// `first` while the backward one runs on `second`, then the backward layer
// copied to `first` (peer to peer where the devices allow), where the
// point is found. SplitPoint::sum is the cube's score. Throws as
// gpu_layer_pass does.
SplitPass gpu_split_pass_on_two(const ScoringScheme& scheme, int gap, int first, int second);

// Phases 1 and 2 of the three-phase traceback (dissertation section 5.3,
// start_points.hpp) with ChainPass's contract: one traced pass keeps, on
// every chunk's faces, where the best path into each face cell entered its
// chunk; a walk back from (|a|, |b|, |c|) along them gives the cells where
// an optimal path enters each chunk it crosses. Declines (nothing) where
// the faces and the pass's buffers would take more than the device has
// free or the faces more than `max_bytes` (0: no limit of its own), and
// where |c| is past kMaxStartPlane. Throws as gpu_layer_pass does.
ChainPass gpu_chain_pass(const ScoringScheme& scheme, int gap, int device, std::size_t max_bytes);

// One pass through gpu_layer_pass.
std::vector<int> last_layer_gpu(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int device);

// What the GPU passes of this process did so far.
struct GpuStats {
  int passes = 0;
  double kernel_seconds = 0;
};
GpuStats gpu_stats();
// Adds to gpu_stats(); safe from several threads.
void add_gpu_stats(int passes, double kernel_seconds);

// The .cu file's side (CUDA builds only).
LayerPass gpu_layer_pass_cuda(const ScoringScheme& scheme, int gap, int device);
SplitPass gpu_split_pass_cuda(const ScoringScheme& scheme, int gap, int device);
SplitPass gpu_split_pass_on_two_cuda(const ScoringScheme& scheme, int gap, int first, int second);
ChainPass gpu_chain_pass_cuda(const ScoringScheme& scheme, int gap, int device, std::size_t max_bytes);

}  // namespace gdp::align3
