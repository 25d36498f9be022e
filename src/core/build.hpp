#pragma once
// What this build holds. Without CUDA the GPU entry points are declared but
// not defined: callers test have_cuda with `if constexpr`, so that a call in
// the discarded branch needs no definition, and say that the build cannot
// run on a GPU.
namespace gdp {

#if GPUDP_HAVE_CUDA
inline constexpr bool have_cuda = true;
#else
inline constexpr bool have_cuda = false;
#endif

inline constexpr const char* no_cuda_message = "this build of gpu-dp has no CUDA support; use --cpu";

}  // namespace gdp
