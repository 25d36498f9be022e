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

// Device memory that frees itself, and grows when asked for more.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }
  // At least `count` elements; the contents are lost when it grows.
  T* reserve(std::size_t count, const char* what = "cudaMalloc") {
    if (count <= count_) return data_;
    release();
    check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), what);
    count_ = count;
    return data_;
  }
  void release() {
    if (data_) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};


// Page-locked host memory (the GPU copies to and from it directly, and
// asynchronously) that frees itself, and grows when asked for more.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  ~PinnedArray() { release(); }
  // At least `count` elements; the contents are lost when it grows.
  T* reserve(std::size_t count) {
    if (count <= count_) return data_;
    release();
    check(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMallocHost");
    count_ = count;
    return data_;
  }
  void release() {
    if (data_) cudaFreeHost(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// An event for ordering only (no timing); freed on the way out.
class Event {
 public:
  Event() { check(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t stream = nullptr) { check(cudaEventRecord(e_, stream), "cudaEventRecord"); }
  void wait() { check(cudaEventSynchronize(e_), "cudaEventSynchronize"); }

 private:
  cudaEvent_t e_{};
};

// Times the kernel with events; frees them on the way out.
class KernelTimer {
 public:
  KernelTimer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~KernelTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { check(cudaEventRecord(start_), "cudaEventRecord"); }
  void stop() { check(cudaEventRecord(stop_), "cudaEventRecord"); }
  // Waits for the kernel.
  double seconds() {
    check(cudaEventSynchronize(stop_), "the kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms / 1000.0;
  }
  double stop_seconds() {
    stop();
    return seconds();
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gdp::cuda

#define GDP_CUDA_CHECK(call) ::gdp::cuda::check((call), #call)
