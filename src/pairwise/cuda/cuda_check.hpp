#pragma once
// Every CUDA call and launch is checked; a failure becomes a RunError (exit
// status 1) naming the call, never a wrong answer.
#include <cuda_runtime_api.h>

#include <string>

#include "core/error.hpp"

namespace gdp::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the process can go on
  if (status == cudaErrorMemoryAllocation)
    throw RunError(std::string("out of GPU memory (") + what + ")");
  throw RunError(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
}

// Device memory that frees itself.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count, const char* what = "cudaMalloc") : count_(count) {
    if (count_ > 0) check(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)), what);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }
  T* get() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gdp::cuda

#define GDP_CUDA_CHECK(call) ::gdp::cuda::check((call), #call)
