#include "align3_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/error.hpp"

namespace gdp::app {
namespace {

constexpr double int_bytes = 4;

std::string gigabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}

// The longest length L such that three sequences of L letters fit.
std::int64_t fitting_length(std::int64_t longest, bool score_only, bool threaded, double available) {
  std::int64_t lo = 0, hi = longest;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (align3_bytes(mid, mid, mid, score_only, threaded) <= available) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

}  // namespace

double align3_bytes(std::int64_t m, std::int64_t n, std::int64_t p, bool score_only, bool threaded) {
  const double ab = static_cast<double>(m + 1) * static_cast<double>(n + 1);
  const double bc = static_cast<double>(n + 1) * static_cast<double>(p + 1);
  if (score_only) return int_bytes * (threaded ? 4 * ab + bc : 2 * bc);
  const double half = static_cast<double>(m - m / 2 + 1) * static_cast<double>(n + 1);
  return int_bytes * (4 * half + 2 * bc);
}

void check_align3_memory(std::int64_t m, std::int64_t n, std::int64_t p, bool score_only, bool threaded,
                         std::uint64_t available) {
  const double need = align3_bytes(m, n, p, score_only, threaded), have = static_cast<double>(available);
  if (available == 0 || need <= have) return;
  const char* what = !score_only ? "an alignment" : threaded ? "the score on several threads" : "the score on one thread";
  std::string msg = "sequences of " + std::to_string(m) + ", " + std::to_string(n) + " and " + std::to_string(p) +
                    " letters need about " + gigabytes(need) + " of memory for " + what + ", and " +
                    gigabytes(have) + " are available: three of up to " +
                    std::to_string(fitting_length(std::max({m, n, p}), score_only, threaded, have)) +
                    " letters each would fit";
  if (score_only && threaded) {
    const double one = align3_bytes(m, n, p, true, false);
    msg += one <= have ? "; --threads 1 would need " + gigabytes(one) : "";
  }
  throw RunError(msg);
}

}  // namespace gdp::app
