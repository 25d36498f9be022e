#include "core/poller.hpp"

#include <chrono>

namespace gdp {

Poller::Poller(std::function<void()> poll) : poll_(std::move(poll)) {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stop_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; })) poll_();
  });
}

Poller::~Poller() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_one();
  thread_.join();
}

}  // namespace gdp
