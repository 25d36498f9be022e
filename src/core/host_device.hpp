#pragma once
// The one marker for code that the CPU oracles and the kernels share: a
// recurrence written once, compiled for both.
#if defined(__CUDACC__)
#define GDP_HD __host__ __device__ __forceinline__
#else
#define GDP_HD inline
#endif
