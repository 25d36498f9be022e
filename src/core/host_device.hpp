#pragma once
// The one marker for code that the CPU oracles and the kernels share: a
// recurrence written once, compiled for both.
#if defined(__CUDACC__)
#define GDP_HD __host__ __device__ __forceinline__
#else
#define GDP_HD inline
#endif

// Unrolls the loop that follows where nvcc compiles it; nothing on the host.
#if defined(__CUDACC__)
#define GDP_UNROLL _Pragma("unroll")
#else
#define GDP_UNROLL
#endif
