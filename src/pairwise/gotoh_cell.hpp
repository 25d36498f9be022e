#pragma once
// The affine-gap (Gotoh) cell as the strip engine's cell policy. The
// engine (cuda/strip_*.cuh) sweeps a matrix in strips of columns for any
// cell that supplies these members; a cell with other states (the
// syntenic cell's S, D, I, H) supplies its own.
//
//   Types            Costs, Edge, Down and LastRow below; kernels of cells
//                    with the same Types share their parameter struct
//   Edge             what a cell hands the cell on its right, and so what a
//                    strip hands the next strip, row by row (8 or 16 bytes)
//   Down             what a cell hands the cell below: a checkpoint row's cell
//   score(Edge|Down) the cell's score, which is also the diagonal input of
//                    the cell to its lower right
//   top(costs, j)    row 0 at column j, as the Down into row 1
//   left(costs, i)   column 0 at row i, as the Edge into column 1
//   row<Cols>(...)   one lane's Cols neighbouring cells of a row
//   DirWord, kDirBits, TraceCarry, carry_of, step_back, stops, trace_op,
//   move_back        the traceback's direction bits a cell, what the
//                    recomputation carries from row to row to make them,
//                    one step back along the path from them, and what the
//                    chunked walk (cuda/chunk_walk.cuh) records of a move
//   keeps_last, keep_last
//                    whether a pass hands back row m's values (Myers-Miller
//                    passes do), and the values of one cell
//
// GotohCell::row is recurrence.hpp's update_cell in its E-from-A form
// (update_cell_from_a); tests/test_recurrence.cpp proves it equal to the
// plain cell on random rows, direction bits included.
#include <cstdint>

#include "core/host_device.hpp"
#include "pairwise/recurrence.hpp"

namespace gdp::pairwise {

// Gap costs and the matrix's boundaries (a Shape, in numbers).
struct GotohCosts {
  int open, open_extend, extend;
  int free_top;   // row 0 costs nothing (semiglobal)
  int left_open;  // column 0 at row i: -(left_open + i * extend), unless local
};
struct alignas(8) GotohEdge {
  int h, e;  // H(i, j) and E(i, j)
};
struct alignas(8) GotohDown {
  int h, f;  // H(i, j) and F(i + 1, j)
};
struct GotohLastRow {
  int* h;  // H(m, j) at [j]; not null when row m is wanted
  int* f;  // F(m, j) at [j]; may be null
};
struct GotohTypes {
  using Costs = GotohCosts;
  using Edge = GotohEdge;
  using Down = GotohDown;
  using LastRow = GotohLastRow;
};

template <bool Local>
struct GotohCell {
  using Types = GotohTypes;
  using Costs = GotohCosts;
  using Edge = GotohEdge;
  using Down = GotohDown;
  using LastRow = GotohLastRow;

  GDP_HD static int score(const Edge& x) { return x.h; }
  GDP_HD static int score(const Down& x) { return x.h; }

  // Row 0 at column j: H(0, j), and F(1, j), opened from it.
  GDP_HD static Down top(const Costs& k, long long j) {
    const int h = j == 0 || Local || k.free_top ? 0 : -(k.open + static_cast<int>(j) * k.extend);
    return {h, h - k.open_extend};
  }
  // Column 0 at row i: H(i, 0); E there is minus infinity.
  GDP_HD static Edge left(const Costs& k, int i) { return {Local ? 0 : -(k.left_open + i * k.extend), neg_inf}; }

  // The traceback's 4 bits a cell: where H came from (the low two bits),
  // whether E opened here, whether F did.
  using DirWord = unsigned;
  static constexpr int kDirBits = 4;
  static constexpr unsigned kFromDiag = 0, kFromE = 1, kFromF = 2, kFromZero = 3, kEOpen = 4, kFOpen = 8;
  // Whether F(i, c) of each column was opened from H(i - 1, c), bit c: what
  // a row's F-open bits need of the row above.
  struct TraceCarry {
    unsigned f_open = 0;
  };
  template <int Cols>
  GDP_HD static TraceCarry carry_of(const Down (&d)[Cols], const Costs& k) {
    TraceCarry t;
GDP_UNROLL
    for (int c = 0; c < Cols; ++c) t.f_open |= (d[c].f == d[c].h - k.open_extend ? 1u : 0u) << c;
    return t;
  }

  // A lane's Cols cells of row i. `d` holds the row above's (H(i-1, c),
  // F(i, c)) on entry and this row's (H(i, c), F(i+1, c)) on return;
  // `edge` holds the cell left of the first column on entry and the last
  // column's on return; `diag` is H(i-1, first column - 1). `on_cell(c,
  // before, after)` sees each cell's Down as it was and as it becomes.
  // With Dirs, `dirs` gets the direction bits, cell c at bits
  // kDirBits * c .., and `carry` goes on to the next row.
  template <int Cols, bool Dirs = false, class OnCell>
  GDP_HD static void row(Down (&d)[Cols], const int (&sc)[Cols], Edge& edge, int diag, const Costs& k,
                         OnCell&& on_cell, DirWord* dirs = nullptr, TraceCarry* carry = nullptr) {
    const GapCosts g{k.open_extend, k.extend};
    int e = edge.e;
    int e_open = edge.h - k.open_extend;  // the open candidate of E(c): H(c-1) - open - extend, or A(c-1)'s
    int hoe = e_open;                     // H(c-1) - open - extend, for the direction bits
    DirWord word = 0;
    unsigned next_f_open = 0;
GDP_UNROLL
    for (int c = 0; c < Cols; ++c) {
      const Down before = d[c];
      int f = before.f;
      const int h = update_cell_from_a<Local>(diag, sc[c], e, e_open, f, g);
      if constexpr (Dirs) {
        const unsigned from = Local && h == 0 ? kFromZero : h == diag + sc[c] ? kFromDiag : h == e ? kFromE : kFromF;
        const unsigned bits = from | (e == hoe ? kEOpen : 0u) | ((carry->f_open >> c) & 1u ? kFOpen : 0u);
        word |= bits << (kDirBits * c);
      }
      diag = before.h;
      d[c] = {h, f};
      hoe = h - k.open_extend;
      if constexpr (Dirs) next_f_open |= (hoe >= before.f - k.extend ? 1u : 0u) << c;
      on_cell(c, before, d[c]);
    }
    edge = {d[Cols - 1].h, e};
    if constexpr (Dirs) {
      *dirs = word;
      carry->f_open = next_f_open;
    }
  }

  // Row m's H, and F where wanted, at column j (when keeps_last).
  GDP_HD static bool keeps_last(const LastRow& out) { return out.h != nullptr; }
  GDP_HD static void keep_last(const LastRow& out, long long j, const Down& before, const Down& after) {
    out.h[j] = after.h;
    if (out.f) out.f[j] = before.f;
  }

  // The traceback: a path is in H, or inside a horizontal gap (E) or a
  // vertical one (F). One step back from a cell in `state`, by its
  // direction bits: the move it makes (a column, a gap letter of either
  // sequence, none while only the state changes, or the local start).
  enum State : int { in_h = 0, in_e = 1, in_f = 2 };
  enum class Move : int { diagonal, target_gap, query_gap, none, stop };
  GDP_HD static Move step_back(int& state, unsigned bits) {
    if (state == in_h) {
      const unsigned from = bits & 3u;
      if (from == kFromZero) return Move::stop;
      if (from == kFromDiag) return Move::diagonal;
      state = from == kFromE ? in_e : in_f;
      return Move::none;
    }
    if (state == in_e) {
      if (bits & kEOpen) state = in_h;
      return Move::target_gap;  // a letter of the target against a gap: 'D'
    }
    if (bits & kFOpen) state = in_h;
    return Move::query_gap;  // a letter of the query against a gap: 'I'
  }
  // The walk's record of a move (its CIGAR op; 0 for none), the letters
  // it moves back over, and whether the path starts here.
  GDP_HD static bool stops(Move m) { return m == Move::stop; }
  GDP_HD static char trace_op(Move m, const std::uint8_t* q, const std::uint8_t* t, int i, int j) {
    if (m == Move::diagonal) return q[i - 1] == t[j - 1] ? '=' : 'X';
    return m == Move::target_gap ? 'D' : m == Move::query_gap ? 'I' : 0;
  }
  GDP_HD static void move_back(Move m, int& i, int& j) {
    if (m == Move::diagonal || m == Move::query_gap) --i;
    if (m == Move::diagonal || m == Move::target_gap) --j;
  }
};

}  // namespace gdp::pairwise
