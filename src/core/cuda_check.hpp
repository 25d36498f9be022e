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


// A CUDA event that frees itself; `timing` false makes a lighter one that
// only orders work between streams.
class Event {
 public:
  explicit Event(bool timing = true) {
    check(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming), "cudaEventCreate");
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(other.event_) { other.event_ = nullptr; }
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  void record(cudaStream_t stream = nullptr) { check(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  // Seconds from `earlier` to this event, once this one has happened.
  double seconds_since(const Event& earlier) const {
    check(cudaEventSynchronize(event_), "the kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, earlier.event_, event_), "cudaEventElapsedTime");
    return ms / 1000.0;
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// A stream that frees itself, not synchronised with the legacy default
// stream.
class Stream {
 public:
  Stream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_{};
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
  double stop_seconds() {
    check(cudaEventRecord(stop_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "the kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms / 1000.0;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gdp::cuda

#define GDP_CUDA_CHECK(call) ::gdp::cuda::check((call), #call)
