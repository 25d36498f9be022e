#pragma once
// Progress counted in stream order, for host loops that enqueue many
// kernels and wait once: add() records an event on the default stream,
// and a Poller counts the units of each event the GPU has passed. Events
// hold nothing up (a host function in the stream would stall it at each).
// A part of `progress` (progress.hpp): `share` of its units, reached at
// `total` of these. Where `progress` draws nothing, nothing is recorded.
#include <cuda_runtime.h>

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

#include "core/poller.hpp"
#include "core/progress.hpp"

namespace gdp::cuda {

class StreamProgress {
 public:
  StreamProgress(Progress* progress, std::uint64_t share, std::uint64_t total) : part_(progress, share, total) {
    if (progress && progress->shown() && cudaGetDevice(&device_) == cudaSuccess) poller_.emplace([this] { count(); });
  }
  ~StreamProgress() {
    poller_.reset();  // what is left of the share is the part's to add
    for (const Mark& m : pending_) cudaEventDestroy(m.event);
  }
  StreamProgress(const StreamProgress&) = delete;
  StreamProgress& operator=(const StreamProgress&) = delete;

  void add(std::uint64_t units) {
    if (!poller_) return;
    cudaEvent_t event = nullptr;
    if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) != cudaSuccess) return;
    if (cudaEventRecord(event, nullptr) != cudaSuccess) {
      cudaEventDestroy(event);
      return;
    }
    std::lock_guard lock(mutex_);
    pending_.push_back({event, units});
  }

 private:
  struct Mark {
    cudaEvent_t event;
    std::uint64_t units;
  };
  void count() {  // on the poller's thread
    if (cudaSetDevice(device_) != cudaSuccess) return;
    std::lock_guard lock(mutex_);
    while (!pending_.empty() && cudaEventQuery(pending_.front().event) == cudaSuccess) {
      part_.add(pending_.front().units);
      cudaEventDestroy(pending_.front().event);
      pending_.pop_front();
    }
  }
  Progress part_;
  int device_ = 0;
  std::mutex mutex_;
  std::deque<Mark> pending_;
  std::optional<Poller> poller_;  // last: stopped before the rest goes
};

}  // namespace gdp::cuda
