#pragma once
// How a part of the matrix is entered at its top-left corner, and the
// borders (row 0 and column 0) that follows from it: cells of the same
// recurrence with minus infinity outside the matrix. Entry::start gives
// recurrence.hpp's boundaries of a whole alignment in S and H (its gap
// runs along a border may also follow a block, never better); the others
// are the parts the linear-space alignment cuts the matrix into
// (cpu/linear_space.cpp).
#include <algorithm>
#include <vector>

#include "syntenic/recurrence.hpp"

namespace gdp::syntenic {

// The alignment's own start (its charge under Ends::charged); after a clean
// cut; inside a vertical gap run whose next column extends it; inside a
// block.
enum class Entry { start, clean, gap, block };

// S, D, I, H of the corner (0, 0). A block in progress at the start has
// paid d and no start charge.
struct Origin {
  int s, d, i, h;
};
inline Origin origin_of(Entry e, const Costs& c) {
  const int alpha = c.open_extend - c.extend;
  switch (e) {
    case Entry::start: return {origin_s(c), origin_gap(c), origin_gap(c), -c.block};
    case Entry::clean: return {0, -alpha, -alpha, -c.block};
    case Entry::gap: return {neg_inf, 0, neg_inf, neg_inf};
    case Entry::block: return {neg_inf, neg_inf, neg_inf, 0};
  }
  return {};
}

inline int clamp_low(int v) { return std::max(v, neg_inf); }
inline constexpr Down kNoDown{neg_inf, neg_inf, neg_inf};
inline constexpr Edge kNoEdge{neg_inf, neg_inf, neg_inf, 0};

// A cell of row 0 after the origin (nothing above it): `edge` holds the
// cell on its left on entry, this one on return; returns its Down and
// direction bits.
inline unsigned border_top(Down& down, Edge& edge, const Costs& c) {
  down = kNoDown;
  const unsigned dirs = update_cell(neg_inf, 0, down, edge, c);
  down = {clamp_low(down.s), clamp_low(down.d), clamp_low(down.h)};
  edge = {clamp_low(edge.s), clamp_low(edge.i), clamp_low(edge.h), 0};
  return dirs;
}
// A cell of column 0 below the origin (nothing on its left): `down` holds
// the cell above on entry, this one on return; `edge` gets its Edge.
inline unsigned border_left(Down& down, Edge& edge, const Costs& c) {
  edge = kNoEdge;
  const unsigned dirs = update_cell(neg_inf, 0, down, edge, c);
  down = {clamp_low(down.s), clamp_low(down.d), clamp_low(down.h)};
  edge = {clamp_low(edge.s), clamp_low(edge.i), clamp_low(edge.h), 0};
  return dirs;
}

// Row 0 (top[j], j = 0..n) and column 0 (left[i] and left_d[i], i = 0..m:
// S, I, H and D) of an m x n part entered by `entry`.
struct Borders {
  std::vector<Down> top;
  std::vector<Edge> left;
  std::vector<int> left_d;
  Down left_down(std::size_t i) const { return {left[i].s, left_d[i], left[i].h}; }
};
inline Borders borders_of(Entry entry, std::size_t m, std::size_t n, const Costs& c) {
  const Origin o = origin_of(entry, c);
  Borders b{std::vector<Down>(n + 1), std::vector<Edge>(m + 1), std::vector<int>(m + 1)};
  b.top[0] = {o.s, o.d, o.h};
  b.left[0] = {o.s, o.i, o.h, 0};
  b.left_d[0] = o.d;
  Edge edge = b.left[0];
  for (std::size_t j = 1; j <= n; ++j) border_top(b.top[j], edge, c);
  Down down = b.top[0];
  for (std::size_t i = 1; i <= m; ++i) {
    border_left(down, b.left[i], c);
    b.left_d[i] = down.d;
  }
  return b;
}

}  // namespace gdp::syntenic
