#pragma once
// Calls `poll` a few times a second on a thread of its own until destroyed
// (which stops it at once): how progress is read from work running on the
// GPU without holding up the thread that waits for it.
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gdp {

class Poller {
 public:
  explicit Poller(std::function<void()> poll);
  ~Poller();
  Poller(const Poller&) = delete;
  Poller& operator=(const Poller&) = delete;

 private:
  std::function<void()> poll_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace gdp
