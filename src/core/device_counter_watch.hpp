#pragma once
// Progress from inside a running kernel: a Poller reads a counter the
// kernel advances in device memory, by a copy on a stream that waits for
// no other, and hands each larger value to `on_value`. It stops (at once)
// when destroyed; the caller then counts whatever the last value left out.
#include <cstdint>
#include <functional>
#include <optional>

#include "core/poller.hpp"

namespace gdp {

class DeviceCounterWatch {
 public:
  DeviceCounterWatch(const unsigned long long* counter, std::function<void(std::uint64_t)> on_value);
  ~DeviceCounterWatch();
  DeviceCounterWatch(const DeviceCounterWatch&) = delete;
  DeviceCounterWatch& operator=(const DeviceCounterWatch&) = delete;

 private:
  void read();
  const unsigned long long* counter_;
  std::function<void(std::uint64_t)> on_value_;
  int device_ = 0;
  void* side_ = nullptr;                 // the copies' cudaStream_t
  unsigned long long* value_ = nullptr;  // pinned: the copy runs beside the kernel
  std::uint64_t last_ = 0;
  std::optional<Poller> poller_;  // last: stopped before the rest goes
};

}  // namespace gdp
