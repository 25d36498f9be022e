#pragma once
// Progress of a long run on stderr, only when stderr is a terminal.
// Thread-safe; redraws at most a few times a second.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "core/timer.hpp"

namespace gdp {

class Progress {
 public:
  // `enabled` is false for --quiet; the terminal test is made here.
  Progress(std::string label, std::uint64_t total, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t done);

 private:
  void draw(std::uint64_t done);
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mutex_;
  Timer timer_;
  double last_draw_ = 0;
  bool drawn_ = false;
};

}  // namespace gdp
