#pragma once
// A thread that works through items as they are pushed, taking at each turn
// all those that have come since its last: work(items) runs on it, one call
// at a time. finish() waits for every pushed item and rethrows the first
// exception work() threw (the items after it are dropped); the destructor
// drops what is left and joins, for when the pushing side fails.
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gdp {

template <class Item>
class WorkerThread {
 public:
  explicit WorkerThread(std::function<void(std::vector<Item>&)> work)
      : work_(std::move(work)), thread_([this] { loop(); }) {}
  ~WorkerThread() { close(true); }
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  void push(Item item) {
    {
      std::lock_guard lock(mutex_);
      queued_.push_back(std::move(item));
    }
    wake_.notify_one();
  }

  void finish() {
    close(false);
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void loop() {
    for (;;) {
      std::vector<Item> items;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return !queued_.empty() || closing_; });
        if (queued_.empty() || dropping_) return;
        items.swap(queued_);
      }
      if (failure_) continue;
      try {
        work_(items);
      } catch (...) {
        failure_ = std::current_exception();
      }
    }
  }

  void close(bool drop) {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      dropping_ = dropping_ || drop;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  std::function<void(std::vector<Item>&)> work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Item> queued_;
  bool closing_ = false, dropping_ = false;
  std::exception_ptr failure_;  // written by the thread, read after the join
  std::thread thread_;          // last: it starts once the rest is built
};

}  // namespace gdp
