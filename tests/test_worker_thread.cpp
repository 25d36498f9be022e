// WorkerThread (core/worker_thread.hpp): every pushed item is worked once,
// in push order, on a thread other than the pusher's; a failure is rethrown
// by finish() and drops what follows; the destructor drops what is queued.
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/worker_thread.hpp"

using gdp::WorkerThread;

TEST_CASE("a worker thread works every item once, in order, off the caller's thread", "[worker]") {
  std::vector<int> seen;
  int calls = 0;
  bool off_caller = true;
  const auto caller = std::this_thread::get_id();
  WorkerThread<int> worker([&](std::vector<int>& items) {
    ++calls;
    off_caller = off_caller && std::this_thread::get_id() != caller;
    seen.insert(seen.end(), items.begin(), items.end());
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // so that items gather
  });
  for (int k = 0; k < 1000; ++k) worker.push(k);
  worker.finish();
  REQUIRE(seen.size() == 1000);
  for (int k = 0; k < 1000; ++k) REQUIRE(seen[static_cast<std::size_t>(k)] == k);
  CHECK(off_caller);
  CHECK(calls >= 1);
  CHECK(calls < 1000);  // items pushed during a call come together in the next
}

TEST_CASE("a worker thread's failure is rethrown by finish and drops the items after it", "[worker]") {
  std::atomic<int> worked{0};
  WorkerThread<int> worker([&](std::vector<int>& items) {
    for (int k : items) {
      if (k == 3) throw std::runtime_error("item 3");
      ++worked;
    }
  });
  for (int k = 0; k < 100; ++k) worker.push(k);
  REQUIRE_THROWS_WITH(worker.finish(), "item 3");
  CHECK(worked == 3);
}

TEST_CASE("a worker thread left without finish drops its queue and joins", "[worker]") {
  std::atomic<int> worked{0};
  std::atomic<bool> started{false};
  {
    WorkerThread<int> worker([&](std::vector<int>& items) {
      started = true;
      worked += static_cast<int>(items.size());
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    });
    worker.push(0);
    while (!started) std::this_thread::yield();
    for (int k = 1; k < 50; ++k) worker.push(k);
  }  // the destructor, while item 0 is worked: items 1 to 49 are dropped
  CHECK(worked == 1);
}

TEST_CASE("a worker thread with nothing pushed finishes at once", "[worker]") {
  int calls = 0;
  WorkerThread<int> worker([&](std::vector<int>&) { ++calls; });
  worker.finish();
  CHECK(calls == 0);
}
