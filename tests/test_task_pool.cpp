// TaskPool (core/task_pool.hpp): every task runs once, on the pool's
// threads (several at a time), or at once on the caller's with one thread;
// finish() rethrows the first failure and drops the tasks not yet started;
// the destructor drops what is queued.
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/task_pool.hpp"

using gdp::TaskPool;

TEST_CASE("a task pool runs every task once, several at a time, off the caller's thread", "[task-pool]") {
  std::vector<std::atomic<int>> runs(200);
  std::atomic<int> running{0}, most{0};
  std::atomic<bool> off_caller{true};
  const auto caller = std::this_thread::get_id();
  TaskPool pool(4);
  for (std::size_t k = 0; k < runs.size(); ++k)
    pool.push([&, k] {
      const int now = ++running;
      for (int seen = most; now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      if (std::this_thread::get_id() == caller) off_caller = false;
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      ++runs[k];
      --running;
    });
  pool.finish();
  for (const auto& r : runs) REQUIRE(r == 1);
  CHECK(off_caller);
  CHECK(most > 1);
  CHECK(most <= 4);
}

TEST_CASE("a task pool of one thread runs each task at once on the caller's", "[task-pool]") {
  std::vector<int> order;
  const auto caller = std::this_thread::get_id();
  bool on_caller = true;
  TaskPool pool(1);
  for (int k = 0; k < 5; ++k) {
    pool.push([&, k] {
      order.push_back(k);
      on_caller = on_caller && std::this_thread::get_id() == caller;
    });
    REQUIRE(order.size() == static_cast<std::size_t>(k + 1));  // run before push returned
  }
  pool.finish();
  CHECK(on_caller);
  REQUIRE_THROWS_WITH(pool.push([] { throw std::runtime_error("at once"); }), "at once");
}

TEST_CASE("a task pool's failure is seen, rethrown by finish, and the tasks queued after it are dropped", "[task-pool]") {
  std::atomic<int> ran{0};
  TaskPool pool(2);
  CHECK_FALSE(pool.failed());
  pool.push([] { throw std::runtime_error("task 0"); });
  while (!pool.failed()) std::this_thread::yield();
  for (int k = 0; k < 100; ++k) pool.push([&] { ++ran; });
  REQUIRE_THROWS_WITH(pool.finish(), "task 0");
  CHECK(ran == 0);
}

TEST_CASE("a task pool left without finish drops its queue and joins", "[task-pool]") {
  std::atomic<int> started{0}, ran{0};
  {
    TaskPool pool(2);
    for (int k = 0; k < 2; ++k)
      pool.push([&] {
        ++started;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ++ran;
      });
    while (started < 2) std::this_thread::yield();
    for (int k = 0; k < 50; ++k) pool.push([&] { ++ran; });
  }  // the destructor, while the first two run: the other 50 are dropped
  CHECK(ran == 2);
}
