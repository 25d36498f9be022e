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
  // `enabled` is false for --quiet; the terminal test is made here. A
  // total of 0 draws nothing until set_total gives one.
  Progress(std::string label, std::uint64_t total, bool enabled);
  // A part of `parent`'s work (which may be null: then nothing is counted):
  // it counts `total` units of its own as `share` units of the parent's,
  // and draws nothing itself, at most 99% of the share before it ends.
  // Whatever of the share its units did not reach is added when it is
  // destroyed, so the parent ends complete however far the part's
  // estimate of its own work was off, and shows 100% only then.
  Progress(Progress* parent, std::uint64_t share, std::uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The total, or a better estimate of it: a part's share forwarded so
  // far stays forwarded.
  void set_total(std::uint64_t total);
  void add(std::uint64_t done);
  // A part that will do no more: nothing further of its share is added,
  // now or when it is destroyed.
  void drop() { share_ = forwarded_; }
  std::uint64_t done() const { return done_; }
  std::uint64_t total() const { return total_; }
  // Whether anything is drawn (here or, for a part, by the whole): where
  // not, counting that costs more than an add() may be skipped.
  bool shown() const { return parent_ ? parent_->shown() : enabled_ && total_ > 0; }
  // Erases the line, so that output to the same terminal starts at its
  // left; the next update draws it again.
  void clear();

 private:
  void draw(std::uint64_t done);
  std::string label_;
  std::atomic<std::uint64_t> total_;
  bool enabled_;
  std::atomic<std::uint64_t> done_{0};
  Progress* parent_ = nullptr;
  std::uint64_t share_ = 0;
  std::atomic<std::uint64_t> forwarded_{0};  // of the share, added to the parent
  std::mutex mutex_;
  Timer timer_;
  double last_draw_ = 0;
  bool drawn_ = false;
};

}  // namespace gdp
