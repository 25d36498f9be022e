#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace gdp {

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && total > 0 && isatty(STDERR_FILENO)) {}

Progress::~Progress() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 60, "");
}

void Progress::add(std::uint64_t done) {
  const std::uint64_t now = done_ += done;
  if (!enabled_) return;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const double t = timer_.seconds();
  if (t < 1.0 || t - last_draw_ < 0.25) return;  // short runs show nothing
  last_draw_ = t;
  draw(now);
}

void Progress::draw(std::uint64_t done) {
  const double pct = 100.0 * static_cast<double>(done) / static_cast<double>(total_);
  std::fprintf(stderr, "\r%s: %5.1f%%  %.0f s", label_.c_str(), pct > 100 ? 100.0 : pct, timer_.seconds());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace gdp
