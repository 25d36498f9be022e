#pragma once
// Independent tasks on a few threads, in the order pushed: push() queues a
// task (or, with one thread or none, runs it at once on the caller's);
// finish() waits for every task and rethrows the first exception one threw
// (the tasks not started by then are dropped); failed() says whether one
// has, so that the pushing side can stop early. The destructor drops what
// is queued and joins, for when the pushing side fails.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gdp {

class TaskPool {
 public:
  explicit TaskPool(int threads) {
    for (int k = 0; threads > 1 && k < threads; ++k) threads_.emplace_back([this] { loop(); });
  }
  ~TaskPool() { close(true); }
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void push(std::function<void()> task) {
    if (threads_.empty()) return task();
    {
      std::lock_guard lock(mutex_);
      queued_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

  bool failed() {
    std::lock_guard lock(mutex_);
    return failure_ != nullptr;
  }

  void finish() {
    close(false);
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return !queued_.empty() || closing_; });
        if (queued_.empty() || dropping_ || failure_) return;
        task = std::move(queued_.front());
        queued_.pop_front();
      }
      try {
        task();
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
      }
    }
  }

  void close(bool drop) {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      dropping_ = dropping_ || drop;
    }
    wake_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queued_;
  bool closing_ = false, dropping_ = false;
  std::exception_ptr failure_;  // under mutex_ while the threads run
  std::vector<std::thread> threads_;
};

}  // namespace gdp
