#pragma once
// The dynamic shared memory a kernel may launch with is the kernel's, not a
// thread's: where several host threads launch one kernel with different
// sizes (a split's parts), one setting it lower under another's launch
// fails that launch. This only ever raises it.
#include <cuda_runtime_api.h>

#include <mutex>

#include "core/cuda_check.hpp"

namespace gdp::cuda {

template <class Kernel>
void allow_dynamic_shared(Kernel kernel, int bytes) {
  static std::mutex raising;
  std::lock_guard lock(raising);
  const auto* entry = reinterpret_cast<const void*>(kernel);
  cudaFuncAttributes now{};
  check(cudaFuncGetAttributes(&now, entry), "cudaFuncGetAttributes");
  if (now.maxDynamicSharedSizeBytes < bytes)
    check(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), "cudaFuncSetAttribute");
}

}  // namespace gdp::cuda
