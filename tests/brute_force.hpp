#pragma once
// Brute force: every alignment of two tiny sequences enumerated, each scored
// from its columns. Gaps are maximal runs of I or of D; a gap of length k
// costs open + k*extend.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::test {

// The best global alignment of a and b, by enumerating every column sequence.
inline int brute_global(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                        const ScoringScheme& s) {
  int best = INT_MIN;
  // State: positions, the op of the last column (0 none, 1 pair, 2 I, 3 D), score so far.
  auto walk = [&](auto&& self, std::size_t i, std::size_t j, int last, int score) -> void {
    if (i == a.size() && j == b.size()) {
      best = std::max(best, score);
      return;
    }
    if (i < a.size() && j < b.size()) self(self, i + 1, j + 1, 1, score + s.score(a[i], b[j]));
    if (i < a.size()) self(self, i + 1, j, 2, score - s.gap_extend - (last == 2 ? 0 : s.gap_open));
    if (j < b.size()) self(self, i, j + 1, 3, score - s.gap_extend - (last == 3 ? 0 : s.gap_open));
  };
  walk(walk, 0, 0, 0, 0);
  return best;
}

inline std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& v, std::size_t from, std::size_t to) {
  return {v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to)};
}

inline int brute_force_score(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& t,
                             const ScoringScheme& s, pairwise::Mode mode) {
  using pairwise::Mode;
  if (mode == Mode::global) return brute_global(q, t, s);
  int best = mode == Mode::local ? 0 : INT_MIN;
  for (std::size_t tb = 0; tb <= t.size(); ++tb)
    for (std::size_t te = tb; te <= t.size(); ++te) {
      if (mode == Mode::semiglobal) {
        best = std::max(best, brute_global(q, slice(t, tb, te), s));
        continue;
      }
      for (std::size_t qb = 0; qb <= q.size(); ++qb)
        for (std::size_t qe = qb; qe <= q.size(); ++qe)
          best = std::max(best, brute_global(slice(q, qb, qe), slice(t, tb, te), s));
    }
  return best;
}

}  // namespace gdp::test
