#pragma once
// The three-sequence alignment cell (dissertation chapter 5, section 5.1),
// the one copy every engine uses. A column advances a non-empty subset of
// the three sequences a, b, c by one letter each: a move, bit 1 for a, 2
// for b, 4 for c (1..7). It scores, over its three pairs of rows, c(x, y)
// for two letters, -g for a letter against a gap, 0 for two gaps (sum of
// pairs). H(i, j, k) is the best of the seven predecessors
// H(i - [a], j - [b], k - [c]) plus the column's score; H(0, 0, 0) = 0; a
// predecessor outside the cube is minus infinity. The score is H(|a|, |b|,
// |c|).
#include <algorithm>
#include <cstdint>

#include "core/host_device.hpp"

namespace gdp::align3 {

// Minus infinity: far below any score, yet minus a column stays in int32.
inline constexpr int neg_inf = -(1 << 30);

inline constexpr unsigned kMoveA = 1, kMoveB = 2, kMoveC = 4, kMoves = 7;

// One pair of rows' share of a column: both advance, one does, neither.
GDP_HD int pair_score(bool x, bool y, int sub, int gap) { return x && y ? sub : x != y ? -gap : 0; }

// The score of the column `move` with the letters' pair scores ab, ac, bc
// (read only where both of a pair advance).
GDP_HD int column_score(unsigned move, int ab, int ac, int bc, int gap) {
  const bool a = move & kMoveA, b = move & kMoveB, c = move & kMoveC;
  return pair_score(a, b, ab, gap) + pair_score(a, c, ac, gap) + pair_score(b, c, bc, gap);
}

// One cell: prev[move] is H of the predecessor `move` steps back (minus
// infinity where it lies outside the cube). Returns H; `from` gets the
// move that gave it (the lowest of equal ones).
GDP_HD int update_cell(const int (&prev)[8], int ab, int ac, int bc, int gap, unsigned& from) {
  int best = neg_inf;
  from = 0;
  for (unsigned move = 1; move <= kMoves; ++move) {
    if (prev[move] <= neg_inf) continue;
    const int h = prev[move] + column_score(move, ab, ac, bc, gap);
    if (h > best) best = h, from = move;
  }
  return best;
}

// The best of three (one DPX instruction on sm_90).
GDP_HD int max3(int x, int y, int z) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return __vimax3_s32(x, y, z);
#else
  return std::max(std::max(x, y), z);
#endif
}

// The kernels' form of update_cell's H: the seven predecessors by name (a
// for H(i - 1, j, k), bc for H(i, j - 1, k - 1), ...), each taken even
// where it is minus infinity (neg_inf plus a column stays far below any
// score in the cube), the -2g that every move but abc pays taken once
// (gap2 = 2g), and the predecessor in a, the kernels' chain along i, last.
// Equal to update_cell's H wherever a predecessor is finite
// (tests/test_align3.cpp).
GDP_HD int update_cell_all(int h_a, int h_b, int h_c, int h_ab, int h_ac, int h_bc, int h_abc, int ab, int ac, int bc,
                           int gap2) {
  const int pairs = max3(max3(h_b, h_c, h_ab + ab), h_ac + ac, h_bc + bc);
  return max3(pairs - gap2, h_abc + ab + ac + bc, h_a - gap2);
}

// update_cell_all that also carries where the path it extends started (the
// three-phase traceback's local start points, dissertation section 5.3):
// s_a .. s_abc are the predecessors' start points, in the same order as
// their H. Returns update_cell_all's H; `start` gets the start point of a
// predecessor that gives it, the first in the order a, b, c, ab, ac, bc,
// abc (tests/test_align3.cpp).
GDP_HD int update_cell_traced(int h_a, int h_b, int h_c, int h_ab, int h_ac, int h_bc, int h_abc, int ab, int ac,
                              int bc, int gap2, int s_a, int s_b, int s_c, int s_ab, int s_ac, int s_bc, int s_abc,
                              int& start) {
  const int v_a = h_a - gap2, v_b = h_b - gap2, v_c = h_c - gap2, v_ab = h_ab + ab - gap2, v_ac = h_ac + ac - gap2,
            v_bc = h_bc + bc - gap2, v_abc = h_abc + ab + ac + bc;
  const int best = max3(max3(v_a, v_b, v_c), max3(v_ab, v_ac, v_bc), v_abc);
  int s = s_abc;
  s = v_bc == best ? s_bc : s;
  s = v_ac == best ? s_ac : s;
  s = v_ab == best ? s_ab : s;
  s = v_c == best ? s_c : s;
  s = v_b == best ? s_b : s;
  s = v_a == best ? s_a : s;
  start = s;
  return best;
}

}  // namespace gdp::align3
