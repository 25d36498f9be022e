#pragma once
// Every CUDA call and launch is checked; a failure becomes a RunError (exit
// status 1) naming the call, never a wrong answer.
#include <cuda_runtime_api.h>

#include <map>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace gdp::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the process can go on
  if (status == cudaErrorMemoryAllocation)
    throw RunError(std::string("out of GPU memory (") + what + ")");
  throw RunError(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
}

// Memory of one kind (device, or page-locked host memory) that frees
// itself, and grows when asked for more.
template <class T, class Memory>
class CudaArray {
 public:
  CudaArray() = default;
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;
  ~CudaArray() { release(); }
  // At least `count` elements; the contents are lost when it grows.
  T* reserve(std::size_t count, const char* what = Memory::name) {
    if (count <= count_) return data_;
    release();
    check(Memory::allocate(reinterpret_cast<void**>(&data_), count * sizeof(T)), what);
    count_ = count;
    return data_;
  }
  void release() {
    if (data_) Memory::free(data_);
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

struct DeviceMemory {
  static constexpr const char* name = "cudaMalloc";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static void free(void* p) { cudaFree(p); }
};
// Page-locked host memory: the GPU copies to and from it directly, and
// asynchronously.
struct PinnedMemory {
  static constexpr const char* name = "cudaMallocHost";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
  static void free(void* p) { cudaFreeHost(p); }
};

template <class T>
using DeviceArray = CudaArray<T, DeviceMemory>;
template <class T>
using PinnedArray = CudaArray<T, PinnedMemory>;

// The calling thread's T for `device`, made on first use and kept until
// the thread ends: device memory a thread keeps between kernels, one a
// device, so that a thread that works on several GPUs neither frees it
// when it moves nor hands a kernel another GPU's.
template <class T>
T& thread_device_local(int device) {
  thread_local std::map<int, T> each;
  return each[device];
}

// An event for ordering only (no timing); freed on the way out.
class Event {
 public:
  Event() { check(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t stream = nullptr) { check(cudaEventRecord(e_, stream), "cudaEventRecord"); }
  void wait() { check(cudaEventSynchronize(e_), "cudaEventSynchronize"); }
  // The work queued on `stream` from now on waits for the event's last record.
  void make_wait(cudaStream_t stream) { check(cudaStreamWaitEvent(stream, e_, 0), "cudaStreamWaitEvent"); }

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
  void start(cudaStream_t stream = nullptr) { check(cudaEventRecord(start_, stream), "cudaEventRecord"); }
  void stop(cudaStream_t stream = nullptr) { check(cudaEventRecord(stop_, stream), "cudaEventRecord"); }
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
  // The kernel's start and stop in seconds after `origin`'s start (waits
  // for the kernel).
  std::pair<double, double> span_after(const KernelTimer& origin) {
    check(cudaEventSynchronize(stop_), "the kernel");
    float start_ms = 0, stop_ms = 0;
    check(cudaEventElapsedTime(&start_ms, origin.start_, start_), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&stop_ms, origin.start_, stop_), "cudaEventElapsedTime");
    return {start_ms / 1000.0, stop_ms / 1000.0};
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gdp::cuda

#define GDP_CUDA_CHECK(call) ::gdp::cuda::check((call), #call)
