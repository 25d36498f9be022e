#include "core/device_counter_watch.hpp"

#if GPUDP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gdp {

DeviceCounterWatch::DeviceCounterWatch(const unsigned long long* counter, std::function<void(std::uint64_t)> on_value)
    : counter_(counter), on_value_(std::move(on_value)) {
#if GPUDP_HAVE_CUDA
  cudaStream_t side = nullptr;
  if (cudaGetDevice(&device_) != cudaSuccess || cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking) != cudaSuccess)
    return;  // no progress; the work's own calls report the failure
  side_ = side;
  if (cudaMallocHost(reinterpret_cast<void**>(&value_), sizeof *value_) != cudaSuccess) return;
  poller_.emplace([this] { read(); });
#endif
}

DeviceCounterWatch::~DeviceCounterWatch() {
  poller_.reset();
#if GPUDP_HAVE_CUDA
  if (value_) cudaFreeHost(value_);
  if (side_) cudaStreamDestroy(static_cast<cudaStream_t>(side_));
#endif
}

void DeviceCounterWatch::read() {
#if GPUDP_HAVE_CUDA
  const auto side = static_cast<cudaStream_t>(side_);
  if (cudaSetDevice(device_) != cudaSuccess ||
      cudaMemcpyAsync(value_, counter_, sizeof *value_, cudaMemcpyDeviceToHost, side) != cudaSuccess ||
      cudaStreamSynchronize(side) != cudaSuccess)
    return;
  if (*value_ > last_) on_value_(last_ = *value_);
#endif
}

}  // namespace gdp
