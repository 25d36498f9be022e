#pragma once
// A value that several host threads update (the GPU counters of the
// engines' timing reports, added to by a pass on each device): every
// update and every read under one lock.
#include <mutex>

namespace gdp {

template <class T>
class Locked {
 public:
  template <class Update>
  void update(Update&& update) {
    const std::lock_guard lock(mutex_);
    update(value_);
  }
  T get() const {
    const std::lock_guard lock(mutex_);
    return value_;
  }

 private:
  mutable std::mutex mutex_;
  T value_{};
};

}  // namespace gdp
