#pragma once
// Whether two passes saved the same rows (SavedRows), H and F, cell for cell.
#include <algorithm>

#include "pairwise/saved_rows.hpp"

namespace gdp::test {

inline bool same_rows(const pairwise::SavedRows& a, const pairwise::SavedRows& b) {
  if (a.rows() != b.rows() || a.columns() != b.columns()) return false;
  for (std::int64_t k = 1; k <= a.rows(); ++k)
    if (!std::ranges::equal(a.h(k), b.h(k)) || !std::ranges::equal(a.f(k), b.f(k))) return false;
  return true;
}

}  // namespace gdp::test
