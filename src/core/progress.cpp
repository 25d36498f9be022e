#include "core/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace gdp {
namespace {

// A part forwards at most this fraction of its share before it ends, so
// that one whose estimate falls short does not show the whole as done
// while it still works.
constexpr double kBeforeEnd = 0.99;

}  // namespace

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && isatty(STDERR_FILENO)) {}

Progress::Progress(Progress* parent, std::uint64_t share, std::uint64_t total)
    : total_(total), enabled_(false), parent_(parent), share_(parent ? share : 0) {}

Progress::~Progress() {
  if (parent_) {
    const std::uint64_t before = forwarded_.exchange(share_);
    if (share_ > before) parent_->add(share_ - before);
  }
  clear();
}

void Progress::set_total(std::uint64_t total) { total_ = total; }

void Progress::add(std::uint64_t done) {
  const std::uint64_t now = done_ += done;
  if (parent_) {  // forward this part's share of what is done, once; its last hundredth when it ends
    const double fraction =
        total_ > 0 ? std::min(kBeforeEnd, static_cast<double>(now) / static_cast<double>(total_)) : kBeforeEnd;
    const auto target = static_cast<std::uint64_t>(fraction * static_cast<double>(share_));
    std::uint64_t before = forwarded_.load();
    while (target > before && !forwarded_.compare_exchange_weak(before, target)) {
    }
    if (target > before) parent_->add(target - before);
    return;
  }
  if (!enabled_ || total_ == 0) return;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const double t = timer_.seconds();
  if (t < 1.0 || t - last_draw_ < 0.25) return;  // short runs show nothing
  last_draw_ = t;
  draw(now);
}

void Progress::clear() {
  std::lock_guard lock(mutex_);
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 60, "");
  drawn_ = false;
}

void Progress::draw(std::uint64_t done) {
  const double pct = 100.0 * static_cast<double>(done) / static_cast<double>(total_);
  std::fprintf(stderr, "\r%s: %5.1f%%  %.0f s", label_.c_str(), pct > 100 ? 100.0 : pct, timer_.seconds());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace gdp
