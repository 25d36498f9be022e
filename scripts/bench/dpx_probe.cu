// Throughput of single instructions on the GPU, register-only: every
// thread runs 8 independent chains of one operation, the GPU full of
// threads. Prints warp instructions a cycle a scheduler (SMSP) and lane
// operations a second, then the latency of a chain of them in one warp. Built and run by scripts/bench/dpx-probe.sh.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kChains = 8, kIters = 4096;

template <int Op>
__device__ __forceinline__ unsigned apply(unsigned x, unsigned y, unsigned z) {
  if constexpr (Op == 0) return __viaddmax_s16x2(x, y, z);
  if constexpr (Op == 1) return __viaddmax_s16x2_relu(x, y, z);
  if constexpr (Op == 2) return static_cast<unsigned>(__viaddmax_s32(static_cast<int>(x), static_cast<int>(y), static_cast<int>(z)));
  if constexpr (Op == 3) return __vimax3_s16x2_relu(x, y, z);
  if constexpr (Op == 4) return __vimax3_s16x2(x, y, z);
  if constexpr (Op == 5) return __vmaxs2(x, y);
  if constexpr (Op == 6) return __vimax_s16x2_relu(x, y);
  if constexpr (Op == 7) return __viaddmax_u16x2(x, y, z);
  return x;
}
const char* kNames[] = {"__viaddmax_s16x2", "__viaddmax_s16x2_relu", "__viaddmax_s32", "__vimax3_s16x2_relu",
                        "__vimax3_s16x2",   "__vmaxs2",              "__vimax_s16x2_relu",
                        "__viaddmax_u16x2"};

template <int Op>
__global__ void probe(unsigned* out, unsigned y, unsigned z) {
  unsigned x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = threadIdx.x * 7u + c * 13u + blockIdx.x;
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = apply<Op>(x[c], y, z + c);
  }
  unsigned s = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) s ^= x[c];
  if (s == 0x12345678u) out[0] = s;  // keeps the chains alive
}

// One chain, one warp: cycles from an instruction to the next that needs
// its result.
template <int Op>
__global__ void latency(unsigned* out, long long* cycles, unsigned y, unsigned z) {
  unsigned x = threadIdx.x;
  const long long t0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int u = 0; u < 8; ++u) x = apply<Op>(x, y, z);
  }
  const long long t1 = clock64();
  if (x == 0x12345678u) out[0] = x;
  if (threadIdx.x == 0) *cycles = t1 - t0;
}

template <int Op>
void run(const cudaDeviceProp& p, unsigned* out) {
  const int blocks = p.multiProcessorCount * 8, threads = 256;
  probe<Op><<<blocks, threads>>>(out, 0xfffefffeu, 0x00030003u);  // warm-up
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  const int reps = 5;
  for (int r = 0; r < reps; ++r) probe<Op><<<blocks, threads>>>(out, 0xfffefffeu, 0x00030003u);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  const double lane_ops = double(reps) * blocks * threads * kChains * kIters;
  const double seconds = ms / 1e3;
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  const double warp_instr_per_cycle_smsp = lane_ops / 32 / seconds / (4.0 * p.multiProcessorCount) / (clock_khz * 1e3);
  long long* cycles = nullptr;
  cudaMalloc(&cycles, sizeof(long long));
  latency<Op><<<1, 32>>>(out, cycles, 0xfffefffeu, 0x00030003u);
  long long c = 0;
  cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost);
  cudaFree(cycles);
  std::printf("| %s | %.2f | %.3f | %.1f |\n", kNames[Op], lane_ops / seconds / 1e12, warp_instr_per_cycle_smsp,
              double(c) / (8.0 * kIters));
}

int main() {
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  unsigned* out = nullptr;
  cudaMalloc(&out, 4);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("%s, %d SMs, %.0f MHz (the attribute; the runs' clocks as found)\n\n", p.name, p.multiProcessorCount, clock_khz / 1e3);
  std::printf("| operation | T lane ops/s | warp instructions a cycle a scheduler | cycles from one to the next dependent one |\n|---|---|---|---|\n");
  run<0>(p, out); run<1>(p, out); run<2>(p, out); run<3>(p, out); run<4>(p, out);
  run<5>(p, out); run<6>(p, out); run<7>(p, out);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::printf("CUDA error: %s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
