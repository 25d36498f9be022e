#pragma once
// Progress from inside the strip engine's kernels, for gpu-sw and
// gpu-syntenic alike, read while they run (core/device_counter_watch.hpp):
// a score pass by the strips its kernel has taken (the ticket), the
// chunked traceback by how far back its walk has come.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/cuda_check.hpp"
#include "core/device_counter_watch.hpp"
#include "core/progress.hpp"

namespace gdp::pairwise::striped {

// A pass's cells counted into `progress`, if set, at most once over a pass
// run again (a 16-bit pass that overflowed, in 32 bits).
class PassProgress {
 public:
  explicit PassProgress(Progress* progress) : progress_(progress) {}

  void reach(std::uint64_t cells) {
    if (progress_ && cells > counted_) progress_->add(cells - counted_), counted_ = cells;
  }

  // While the result lives, where progress is shown: the cells of the
  // strips the kernel of one piece of the target (width columns of m rows,
  // strips of strip_width, `group` strips a ticket) has taken, after the
  // `done` columns of the pieces before. Call reach() for the whole piece
  // when the kernel is done.
  std::optional<DeviceCounterWatch> watch(const unsigned long long* ticket, long long group, long long strip_width,
                                          long long m, long long done, long long width) {
    if (!progress_ || !progress_->shown()) return std::nullopt;
    return std::optional<DeviceCounterWatch>(std::in_place, ticket, [=, this](std::uint64_t taken) {
      const long long columns = std::min(static_cast<long long>(taken) * group * strip_width, width);
      reach(static_cast<std::uint64_t>(m * (done + columns)));
    });
  }

 private:
  Progress* progress_;
  std::uint64_t counted_ = 0;
};

// The chunked walk's progress: the anti-diagonals walked back from the end
// cell, of end_i + end_j, counted into `traceback`, if set (its total set
// here). Where progress is shown, gives the walk (`tp`, chunk_walk.cuh's
// WalkParams) a counter to keep, and reads it until stop().
class WalkProgress {
 public:
  template <class WalkParams>
  WalkProgress(Progress* traceback, WalkParams& tp) {
    if (!traceback) return;
    traceback->set_total(static_cast<std::uint64_t>(tp.end_i) + static_cast<std::uint64_t>(tp.end_j));
    if (!traceback->shown()) return;
    tp.walked = counter_.reserve(1);
    GDP_CUDA_CHECK(cudaMemset(tp.walked, 0, sizeof(unsigned long long)));
    watch_.emplace(tp.walked, [traceback, counted = std::uint64_t{0}](std::uint64_t now) mutable {
      traceback->add(now - counted);
      counted = now;
    });
  }
  void stop() { watch_.reset(); }

 private:
  cuda::DeviceArray<unsigned long long> counter_;  // declared first: outlives the watch
  std::optional<DeviceCounterWatch> watch_;
};

}  // namespace gdp::pairwise::striped
