#pragma once
// Where a band's reverse pass starts (linear_space.cpp: align_by_saved_rows).
#include <algorithm>
#include <cstdint>
#include <span>

namespace gdp::pairwise {

// The first column of a saved row (H and F: h, f) through which a path to
// column end_j, `rows` rows below, can still score `need`; end_j if none.
// From column j it takes at most min(rows, w) diagonal steps, each scoring
// at most best_substitution (at least 0), and at least w - rows horizontal
// ones, each costing at least extend (w = end_j - j); a vertical gap
// across the row is charged one open less. A local path that starts in the
// band, at column j, is no better than one through (r, j), whose H is at
// least 0.
//
// The row is a local or global pass's from (0, 0), whose row 0 and column
// 0 are at most 0: no path to column j has more than j diagonal steps, so
// its H and F + open are at most best_substitution x j + open (open for
// column 0, whose F the rows hold as H). The columns left of the first
// that this bound lets reach `need` are not looked at: on similar pairs,
// most of the row.

// The first column that bound lets reach `need`: left of end_j - rows
// (w >= rows), column j reaches at most (best_substitution + extend) x j +
// open + best_substitution x rows - extend x (end_j - rows).
inline std::int64_t band_scan_from(std::int64_t end_j, std::int64_t rows, long long need, long long best_substitution,
                                   int open, int extend) {
  const long long slope = best_substitution + extend;
  const long long c = need - open - best_substitution * rows + static_cast<long long>(extend) * (end_j - rows);
  if (slope <= 0 || c <= 0) return 0;
  return std::min<long long>(c / slope, std::max<std::int64_t>(0, end_j - rows));
}

inline std::int64_t band_start(std::span<const int> h, std::span<const int> f, std::int64_t end_j, std::int64_t rows,
                               long long need, long long best_substitution, int open, int extend) {
  for (std::int64_t j = band_scan_from(end_j, rows, need, best_substitution, open, extend); j < end_j; ++j) {
    const long long w = end_j - j;
    const long long reach = best_substitution * std::min<long long>(rows, w) -
                            static_cast<long long>(extend) * std::max<long long>(0, w - rows);
    const auto x = static_cast<std::size_t>(j);
    if (std::max<long long>(h[x], static_cast<long long>(f[x]) + open) + reach >= need) return j;
  }
  return end_j;
}

}  // namespace gdp::pairwise
