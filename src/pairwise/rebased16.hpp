#pragma once
// 16-bit local-alignment cells whatever the score: offsets from a 32-bit
// base, which moves up with the cells every few rows.
//
// Neighbouring cells of a local alignment differ by little: H(i,j) -
// H(i-1,j) and H(i,j) - H(i,j-1) lie in [-oe, oe + s_max] (F and E give the
// lower bound; the upper follows by induction over the columns, since the
// diagonal's and E's candidates are at most oe + s_max above the cell
// above, and the floor 0 is below it). So every H within `rows` rows and
// `span` columns of the base's cell is within (rows + span) bounds of the
// base, es and fs (E and F plus oe) within one bound and oe more, a
// diagonal candidate within one bound and a score more: 16 bits hold them
// exactly and the s16x2 instructions never wrap. The floor H >= 0 becomes
// offset >= -base; once the base is above `reach` (every cell it serves is
// then above 0) the floor is -reach instead, where a candidate clamped
// loses to the cell's own value anyway.
//
// The diagonal 16-bit kernel (striped_score16.cu) gives each half of a
// warp one base; tests/test_rebased16.cpp sweeps lanes with a base each.
#include "core/host_device.hpp"
#include "pairwise/recurrence.hpp"

namespace gdp::pairwise::rebased16 {

struct Plan {
  int rows = 0;   // rows a base serves; 0 where the scores' bound leaves no room
  int reach = 0;  // how far below its base a cell it serves can be
};
// A base's rows, for cells within `span` columns of its cell.
GDP_HD Plan plan(int open_extend, int max_score, int span) {
  const int bound = open_extend + (max_score > 1 ? max_score : 1);
  const int rows = (32767 - open_extend - 128) / bound - span - 3;
  if (rows < 1) return {};
  return {rows, (rows + span) * bound};
}

// The floor of cells whose halves have these bases.
GDP_HD unsigned floor_of(int base_lo, int base_hi, int reach) {
  return pair(-(base_lo < reach ? base_lo : reach), -(base_hi < reach ? base_hi : reach));
}

// One row of a lane's Cols columns: recurrence.hpp's 16-bit pair cell
// (a_s16x2, finish_s16x2) with the base's floor for 0. `diag` is H(i-1) of
// the column before the lane's first; `es` goes from the lane's first
// column's to the next lane's.
template <int Cols>
GDP_HD void lane_row(unsigned (&h)[Cols], unsigned (&fs)[Cols], const unsigned (&sub)[Cols], unsigned& es,
                     unsigned diag, unsigned floor, unsigned minus_oe, unsigned minus_extend) {
GDP_UNROLL
  for (int c = 0; c < Cols; ++c) {
    const unsigned a = add_max_s16x2(fs[c], minus_oe, add_max_s16x2(diag, sub[c], floor));
    diag = h[c];
    h[c] = finish_s16x2(a, es, fs[c], minus_oe, minus_extend);
  }
}

// An offset pair as offsets from bases (lo, hi) higher, whose floor is
// `floor` (no value a base serves is below it).
GDP_HD unsigned lowered(unsigned x, int lo, int hi, unsigned floor) { return add_max_s16x2(x, pair(-lo, -hi), floor); }

// A lane's row and fs, its bases moved up by (lo, hi) to ones whose floor
// is `floor`.
template <int Cols>
GDP_HD void rebase(unsigned (&h)[Cols], unsigned (&fs)[Cols], int lo, int hi, unsigned floor) {
GDP_UNROLL
  for (int c = 0; c < Cols; ++c) h[c] = lowered(h[c], lo, hi, floor), fs[c] = lowered(fs[c], lo, hi, floor);
}

}  // namespace gdp::pairwise::rebased16
