#pragma once
// The syntenic cell (Huang and Chao; dissertation section 6.1), the one copy
// every backend uses. With c(a_i, b_j) the substitution score, a gap of k
// letters costing alpha + k * beta, and d the block penalty:
//
//   S(i,j) = max{ S(i-1,j-1) + c(a_i, b_j), D(i,j), I(i,j), H(i,j) }
//   D(i,j) = max{ D(i-1,j) - beta, S(i-1,j) - alpha - beta }   a_i against a gap
//   I(i,j) = max{ I(i,j-1) - beta, S(i,j-1) - alpha - beta }   b_j against a gap
//   H(i,j) = max{ H(i,j-1), H(i-1,j), S(i,j-1) - d, S(i-1,j) - d }   inside a block
//
// Rows are query positions (a), columns target positions (b). Boundaries:
// S(0,0) = -d under Ends::charged (the start's charge), 0 under plain;
// D(0,0) = I(0,0) = S(0,0) - alpha, so that a leading gap pays the start's
// charge as a leading column does; H(i,0) = H(0,j) = -d (a leading block);
// D(i,0) = D(i-1,0) - beta, I(0,j) = I(0,j-1) - beta; S(i,0) = max{D(i,0),
// H(i,0)}, S(0,j) = max{I(0,j), H(0,j)}; D(0,j), I(i,0), H(0,0) are minus
// infinity. The score is max{S(m,n) - d, H(m,n)} under charged (the end's
// charge, unless the alignment ends with a block), S(m,n) under plain.
//
// Every S and H past the origin is at least -d (H(i,j) >= H(i,j-1) and
// H(i,0) = H(0,j) = -d), so only the boundary's gap runs fall without
// bound; they are held at minus infinity.
#include <cstdint>

#include "core/host_device.hpp"
#include "pairwise/recurrence.hpp"

namespace gdp::syntenic {

using pairwise::max2;
using pairwise::neg_inf;

struct Costs {
  int open_extend;  // alpha + beta: a gap's first letter
  int extend;       // beta
  int block;        // d
  bool charged;     // Ends::charged
};

// What flows down a column: S, D, H of (i-1, j).
struct Down {
  int s, d, h;
};
// What flows along a row: S, I, H of (i, j-1). 16 bytes, so that the strip
// engine moves it between strips in one load or store.
struct alignas(16) Edge {
  int s, i, h;
  int unused;  // 0
};

// Direction bits of one cell, for the traceback: which term gave each
// state. Ties go to the first term as the recurrences list them.
enum : unsigned {
  kSFromDiag = 0, kSFromD = 1, kSFromI = 2, kSFromH = 3,  // bits 0-1
  kDOpen = 1u << 2,                                         // D from S(i-1,j)
  kIOpen = 1u << 3,                                         // I from S(i,j-1)
  kHFromHLeft = 0u << 4, kHFromHUp = 1u << 4, kHFromSLeft = 2u << 4, kHFromSUp = 3u << 4,  // bits 4-5
};
inline constexpr unsigned kSMask = 3u, kHMask = 3u << 4;

// One cell. `down` holds (i-1, j) on entry and (i, j) on return; `edge`
// holds (i, j-1) on entry and (i, j) on return; `diag_s` is S(i-1, j-1).
// Returns the cell's direction bits.
GDP_HD unsigned update_cell(int diag_s, int sub, Down& down, Edge& edge, const Costs& c) {
  const int d_ext = down.d - c.extend, d_open = down.s - c.open_extend;
  const int i_ext = edge.i - c.extend, i_open = edge.s - c.open_extend;
  const int d = max2(d_ext, d_open), i = max2(i_ext, i_open);
  const int h_left = edge.h, h_up = down.h, s_left = edge.s - c.block, s_up = down.s - c.block;
  const int h = max2(max2(h_left, h_up), max2(s_left, s_up));
  const int diag = diag_s + sub;
  const int s = max2(max2(diag, d), max2(i, h));
  unsigned dirs = s == diag ? kSFromDiag : s == d ? kSFromD : s == i ? kSFromI : kSFromH;
  if (d_open > d_ext) dirs |= kDOpen;
  if (i_open > i_ext) dirs |= kIOpen;
  dirs |= h == h_left ? kHFromHLeft : h == h_up ? kHFromHUp : h == s_left ? kHFromSLeft : kHFromSUp;
  down = {s, d, h};
  edge = {s, i, h, 0};
  return dirs;
}

// The traceback: a path is in S, or inside a vertical gap run (D), a
// horizontal one (I) or a block (H). One step back from a cell in `state`
// by its direction bits: the move it makes (a column; a letter of a block,
// the block's first where it opened here; none while only the state
// changes), and the state it leaves in.
enum TraceState : int { in_s = 0, in_d = 1, in_i = 2, in_h = 3 };
enum class Move : int { diagonal, query_gap, target_gap, none, block_query, block_target, block_query_first, block_target_first };
GDP_HD Move step_back(int& state, unsigned bits) {
  if (state == in_s) {
    const unsigned from = bits & kSMask;
    if (from == kSFromDiag) return Move::diagonal;
    state = from == kSFromD ? in_d : from == kSFromI ? in_i : in_h;
    return Move::none;
  }
  if (state == in_d) {
    if (bits & kDOpen) state = in_s;
    return Move::query_gap;  // a letter of the query against a gap
  }
  if (state == in_i) {
    if (bits & kIOpen) state = in_s;
    return Move::target_gap;  // a letter of the target against a gap
  }
  switch (bits & kHMask) {
    case kHFromHLeft: return Move::block_target;
    case kHFromHUp: return Move::block_query;
    case kHFromSLeft: state = in_s; return Move::block_target_first;
    default: state = in_s; return Move::block_query_first;
  }
}

// The boundary cells.
GDP_HD int origin_s(const Costs& c) { return c.charged ? -c.block : 0; }
GDP_HD int origin_gap(const Costs& c) { return origin_s(c) - (c.open_extend - c.extend); }  // D(0,0) = I(0,0)
// A leading gap run of k letters, held at minus infinity.
GDP_HD int leading_gap(const Costs& c, std::int64_t k) {
  const std::int64_t v = origin_gap(c) - k * static_cast<std::int64_t>(c.extend);
  return v < neg_inf ? neg_inf : static_cast<int>(v);
}
// Row 0 at column j >= 1: what flows down into row 1.
GDP_HD Down top(const Costs& c, std::int64_t j) {
  const int i = leading_gap(c, j);
  return {max2(i, -c.block), neg_inf, -c.block};
}
// Row 0 at column 0.
GDP_HD Down top_origin(const Costs& c) { return {origin_s(c), origin_gap(c), neg_inf}; }
// Column 0 at row i >= 1: what flows along row i into column 1.
GDP_HD Edge left(const Costs& c, std::int64_t i) {
  const int d = leading_gap(c, i);
  return {max2(d, -c.block), neg_inf, -c.block, 0};
}
// D(i, 0) for i >= 1 (column 0 holds no I).
GDP_HD int left_d(const Costs& c, std::int64_t i) { return leading_gap(c, i); }

// The score from the last cell's S and H.
GDP_HD int final_score(const Costs& c, int s, int h) { return c.charged ? max2(s - c.block, h) : s; }

}  // namespace gdp::syntenic
