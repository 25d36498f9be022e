#pragma once
// The boundary and end rules of one dynamic-programming pass. The three
// user-visible modes are shapes; so are the passes that Myers-Miller and the
// start-finding of local and semi-global alignment make (pairwise.cpp).
#include <cstdint>
#include <vector>

#include "pairwise/recurrence.hpp"

namespace gdp::pairwise {

enum class End { corner, last_row, anywhere };

struct Shape {
  bool local = false;     // H never below 0; row 0 and column 0 are 0
  bool free_top = false;  // row 0 is 0: gaps before the target's start are free
  int left_open = 0;      // column 0: H(i,0) = -(left_open + i*extend), unless local
  End end = End::corner;
};

// H of row 0 and of column 0. Both have H(0,0) = 0.
inline int top_h_of(const Shape& s, GapCosts g, std::int64_t j) {
  if (j == 0 || s.local || s.free_top) return 0;
  return -static_cast<int>(g.open_extend - g.extend + j * g.extend);
}
inline int left_h_of(const Shape& s, GapCosts g, std::int64_t i) {
  if (i == 0 || s.local) return 0;
  return -static_cast<int>(s.left_open + i * g.extend);
}

// What a pass returns: the best score under the end rule and the cell it was
// reached in (the first such cell in row-major order when there are ties).
struct PassResult {
  int score = 0;
  std::int64_t end_i = 0, end_j = 0;  // cells are 1-based, 0 = boundary
};

// `best` becomes `r` where r is better for End::anywhere: a higher score,
// or an equal one above 0 in an earlier cell (every pass's tie rule), as
// when a pass's parts' results are merged.
inline void keep_better(PassResult& best, const PassResult& r) {
  if (r.score > best.score ||
      (r.score == best.score && r.score > 0 && (r.end_i < best.end_i || (r.end_i == best.end_i && r.end_j < best.end_j))))
    best = r;
}

// Optional output of a pass: H and F of the last row, for Myers-Miller.
// last_f[0] is H(m,0): column 0 is a vertical gap from the corner.
struct LastRow {
  int* h = nullptr;  // n + 1 values
  int* f = nullptr;  // n + 1 values
};

}  // namespace gdp::pairwise
