#pragma once
// Block pruning for local alignment (CUDAlign 2.1): a block of the matrix
// whose every path cannot beat the best score found so far is skipped.
//
// A path through a block enters it at a cell of its top row or left column
// (or starts inside, at 0), then gains at most `gain`, the highest
// substitution score, a step, and takes at most min(rows after, columns
// after) steps that gain. So no path through a block whose first row is i0
// and first column j0 ends above
//   max(entering H, 0) + gain * min(m - i0, n - j0),
// where E and F never exceed the H beside them. A block whose bound is
// below a score already found (strictly: ties keep the oracle's first end
// cell) changes neither the best score nor any cell that reaches it, so it
// may hand the blocks after it H = 0 and E = F = minus infinity instead of
// its own values: every cell then holds at most its true value, and the
// cells of the best score, whose best paths avoid it, theirs.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/scoring.hpp"

namespace gdp::pairwise {

// The most a path gains a step: the highest substitution score, or 0.
inline int pruning_gain(const ScoringScheme& s) {
  int gain = 0;
  for (int v : s.scores) gain = v > gain ? v : gain;
  return gain;
}

// Whether a block may be skipped: `entering` is the largest H of its top
// row and left column (the cells before it), rows_after and cols_after
// count the matrix's rows and columns from its first ones on.
GDP_HD bool block_prunable(int entering, std::int64_t rows_after, std::int64_t cols_after, int gain, int best_found) {
  const std::int64_t steps = rows_after < cols_after ? rows_after : cols_after;
  return (entering > 0 ? entering : 0) + static_cast<std::int64_t>(gain) * steps < best_found;
}

}  // namespace gdp::pairwise
