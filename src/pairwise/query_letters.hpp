#pragma once
// What a strip's profile is built from: a row for each letter the query
// uses, not for each of the alphabet's (DNA's 15 letters include 11
// ambiguity codes), so that it takes less shared memory.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/scoring.hpp"

namespace gdp::pairwise {

// The query rewritten in ranks of the letters it uses, and the rows of the
// substitution matrix for those letters, in that order.
struct QueryLetters {
  std::vector<std::uint8_t> q;
  std::vector<int> sub;  // rows x dim
  int rows = 0;
};

inline QueryLetters query_letters(std::span<const std::uint8_t> q, const ScoringScheme& scheme) {
  std::vector<int> rank(static_cast<std::size_t>(scheme.dim), -1);
  for (const std::uint8_t a : q) rank[a] = 0;
  QueryLetters out;
  for (int a = 0; a < scheme.dim; ++a) {
    if (rank[a] < 0) continue;
    rank[a] = out.rows++;
    const int* row = scheme.row(static_cast<std::uint8_t>(a));
    out.sub.insert(out.sub.end(), row, row + scheme.dim);
  }
  out.q.resize(q.size());
  std::transform(q.begin(), q.end(), out.q.begin(), [&](std::uint8_t a) { return static_cast<std::uint8_t>(rank[a]); });
  return out;
}

}  // namespace gdp::pairwise
