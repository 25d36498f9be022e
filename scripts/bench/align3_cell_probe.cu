// The three-sequence cell's ceiling, register-only: each thread computes
// lines of kLine cells along k (a thread's share of a plane in a GPU
// kernel), cell (i, j, k) from (i, j, k - 1) of its own line and six cells
// of the three lines before it, all in registers, through recurrence.hpp's
// update_cell and through the kernels' form, update_cell_all; the GPU full
// of warps. Built and run by
// scripts/bench/align3-cell-probe.sh.
#include <cstdio>
#include <cuda_runtime.h>

#include "align3/recurrence.hpp"

namespace {

constexpr int kLine = 8, kLines = 2048;

template <bool All>
__global__ void lines(int gap, int* out) {
  using namespace gdp::align3;
  // H of the lines (i-1, j), (i, j-1), (i-1, j-1), and the one being made.
  int up[kLine + 1], left[kLine + 1], corner[kLine + 1], line[kLine + 1];
  const int seed = static_cast<int>(threadIdx.x + blockIdx.x * blockDim.x);
#pragma unroll
  for (int k = 0; k <= kLine; ++k) up[k] = left[k] = corner[k] = -3 * k - (seed & 7);
  for (int l = 0; l < kLines; ++l) {
    line[0] = left[0] - 2 * gap;
#pragma unroll
    for (int k = 1; k <= kLine; ++k) {
      const int prev[8] = {neg_inf,     up[k],        left[k],        corner[k],
                           line[k - 1], up[k - 1],    left[k - 1],    corner[k - 1]};
      const bool same = ((seed + l + k) & 3) == 0;  // a match in four, as random DNA
      const int ab = same ? 2 : -3, ac = ((seed + l) & 3) ? -3 : 2, bc = same ? 2 : -3;
      unsigned from = 0;
      line[k] = All ? update_cell_all(prev[1], prev[2], prev[4], prev[3], prev[5], prev[6], prev[7], ab, ac, bc, 2 * gap)
                    : update_cell(prev, ab, ac, bc, gap, from);
    }
#pragma unroll
    for (int k = 0; k <= kLine; ++k) corner[k] = left[k], left[k] = up[k], up[k] = line[k];
  }
  if (up[kLine] == 0x12345678) out[0] = up[kLine];  // keeps the work alive
}

// G cells/s of the kernel `All`.
template <bool All>
double rate(int blocks, int threads, int* out) {
  const int reps = 5;
  lines<All><<<blocks, threads>>>(4, out);  // warm-up
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) lines<All><<<blocks, threads>>>(4, out);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return double(reps) * blocks * threads * kLines * kLine / (ms / 1e3) / 1e9;
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  const int threads = 128, blocks = p.multiProcessorCount * 16;
  std::printf("%s, %d SMs\n\n| cell | G cells/s |\n|---|---|\n", p.name, p.multiProcessorCount);
  std::printf("| three sequences, sum of pairs (update_cell) | %.1f |\n", rate<false>(blocks, threads, out));
  std::printf("| the kernels' form (update_cell_all) | %.1f |\n", rate<true>(blocks, threads, out));
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return std::printf("CUDA error: %s\n", cudaGetErrorString(e)), 1;
  return 0;
}
