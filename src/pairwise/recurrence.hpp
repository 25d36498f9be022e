#pragma once
// The affine-gap cell update (Gotoh), the one copy every backend uses.
//
//   E(i,j) = max(E(i,j-1) - extend, H(i,j-1) - open - extend)   gap in the query (consumes target)
//   F(i,j) = max(F(i-1,j) - extend, H(i-1,j) - open - extend)   gap in the target (consumes query)
//   H(i,j) = max(H(i-1,j-1) + s(q_i, t_j), E(i,j), F(i,j), floor)
//
// floor is 0 for local alignment and minus infinity otherwise. A gap of
// length k costs open + k * extend. Rows are query positions, columns target.
#include <cstdint>

#if defined(__CUDACC__)
#define GDP_HD __host__ __device__ __forceinline__
#else
#define GDP_HD inline
#endif

namespace gdp::pairwise {

// Minus infinity: far below any score, yet minus a gap stays inside int32
// (scores are checked to stay within +-2^30 before an engine runs).
inline constexpr int neg_inf = -(1 << 30) - (1 << 29);

GDP_HD int max2(int a, int b) { return a > b ? a : b; }

struct GapCosts {
  int open_extend;  // open + extend: the cost of a gap's first residue
  int extend;
};

// One cell. `e` holds E(i,j-1) on entry and E(i,j) on return; `f` holds
// F(i-1,j) on entry and F(i,j) on return. Returns H(i,j).
template <bool Local>
GDP_HD int update_cell(int diag_h, int up_h, int left_h, int sub, int& e, int& f, GapCosts g) {
  e = max2(e - g.extend, left_h - g.open_extend);
  f = max2(f - g.extend, up_h - g.open_extend);
  int h = max2(max2(diag_h + sub, e), f);
  if constexpr (Local) h = max2(h, 0);
  return h;
}

}  // namespace gdp::pairwise
