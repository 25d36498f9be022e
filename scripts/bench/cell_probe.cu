// The 32-bit cell ceilings, register-only: each thread sweeps rows of 8
// cells (a lane's row in the strip kernels) through a cell policy's row
// update, each row's left edge the row before's right edge, with scores and
// no memory, the GPU full of warps. Cells a second for the affine cell
// (GotohCell, local, the E-from-A form) and the syntenic cell
// (SyntenicCell): the ceilings the strip kernels are judged against.
// Built and run by scripts/bench/cell-probe.sh.
#include <cstdio>
#include <cuda_runtime.h>

#include "pairwise/gotoh_cell.hpp"
#include "syntenic/syntenic_cell.hpp"

namespace {

constexpr int kCols = 8, kRows = 4096;

template <class Cell>
__global__ void sweep(typename Cell::Costs costs, int* out) {
  using Down = typename Cell::Down;
  using Edge = typename Cell::Edge;
  Down d[kCols];
#pragma unroll
  for (int c = 0; c < kCols; ++c) d[c] = Cell::top(costs, c + 1 + threadIdx.x);
  Edge edge = Cell::left(costs, 1);
  int diag = Cell::score(Cell::top(costs, 0));
  const int seed = static_cast<int>(threadIdx.x + blockIdx.x);
  for (int i = 0; i < kRows; ++i) {
    int sc[kCols];
#pragma unroll
    for (int c = 0; c < kCols; ++c) sc[c] = ((seed + i + c) & 3) == 0 ? 2 : -3;  // a match in four, as random DNA
    const int next_diag = Cell::score(edge);
    Cell::template row<kCols>(d, sc, edge, diag, costs, [](int, const Down&, const Down&) {});
    diag = next_diag;
  }
  if (Cell::score(d[kCols - 1]) == 0x12345678) out[0] = Cell::score(edge);  // keeps the work alive
}

template <class Cell>
void run(const char* name, const typename Cell::Costs& costs, const cudaDeviceProp& p, int* out) {
  const int threads = 128, blocks = p.multiProcessorCount * 16;
  sweep<Cell><<<blocks, threads>>>(costs, out);  // warm-up
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  const int reps = 5;
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) sweep<Cell><<<blocks, threads>>>(costs, out);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  const double cells = double(reps) * blocks * threads * kRows * kCols;
  std::printf("| %s | %.2f |\n", name, cells / (ms / 1e3) / 1e12);
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  std::printf("%s, %d SMs\n\n| cell (32 bits, 8 columns a lane) | T cells/s |\n|---|---|\n", p.name, p.multiProcessorCount);
  run<gdp::pairwise::GotohCell<true>>("affine (Gotoh), local", gdp::pairwise::GotohCosts{5, 7, 2, 0, 0}, p, out);
  run<gdp::pairwise::GotohCell<false>>("affine (Gotoh), global", gdp::pairwise::GotohCosts{5, 7, 2, 0, 5}, p, out);
  run<gdp::syntenic::SyntenicCell>("syntenic (Huang-Chao)",
                                   gdp::syntenic::GpuCosts{{7, 2, 40, true}, nullptr}, p, out);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return std::printf("CUDA error: %s\n", cudaGetErrorString(e)), 1;
  return 0;
}
