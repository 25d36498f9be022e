#pragma once
// The syntenic cell as the strip engine's cell policy (the members
// pairwise/gotoh_cell.hpp lists): its state is S, D, I, H; a strip hands
// the next one S, I and H of its last column; recurrence.hpp's
// update_cell is the row's cell, unchanged.
#include <cstdint>

#include "core/host_device.hpp"
#include "syntenic/recurrence.hpp"

namespace gdp::syntenic {

// Row m's S, D and H at column j (a pass that wants row m).
struct LastRow {
  int* s;
  int* d;
  int* h;
};

// The costs, and row 0 where a part of the matrix has borders of its own
// (borders.hpp; on the device): null for recurrence.hpp's.
struct GpuCosts : Costs {
  const Down* top_row;
};

struct CellTypes {
  using Costs = GpuCosts;
  using Edge = syntenic::Edge;
  using Down = syntenic::Down;
  using LastRow = syntenic::LastRow;
};

struct SyntenicCell {
  using Types = CellTypes;
  using Costs = GpuCosts;
  using Edge = syntenic::Edge;
  using Down = syntenic::Down;
  using LastRow = syntenic::LastRow;

  GDP_HD static int score(const Edge& x) { return x.s; }
  GDP_HD static int score(const Down& x) { return x.s; }

  // Row 0 at column j (the origin at j = 0), as the Down into row 1.
  GDP_HD static Down top(const Costs& c, long long j) {
    return c.top_row ? c.top_row[j] : j == 0 ? top_origin(c) : syntenic::top(c, j);
  }
  // Column 0 at row i >= 1, as the Edge into column 1 (a part with
  // borders of its own hands its column 0 to the kernel as a left edge).
  GDP_HD static Edge left(const Costs& c, long long i) { return syntenic::left(c, i); }

  // The traceback's bits a cell: recurrence.hpp's direction bits (S 2, D
  // 1, I 1, H 2), cell c at bits kDirBits * c of a word. They need nothing
  // of the row above beyond its Down: the carry is empty.
  using DirWord = unsigned long long;
  static constexpr int kDirBits = 6;
  struct TraceCarry {};
  template <int Cols>
  GDP_HD static TraceCarry carry_of(const Down (&)[Cols], const Costs&) {
    return {};
  }

  // A lane's Cols cells of a row: `d` holds the row above's on entry and
  // this row's on return; `edge` the cell left of the first column on
  // entry and the last column's on return; `diag` is S(i-1, first column
  // - 1). `on_cell(c, before, after)` sees each cell's Down. With Dirs,
  // `dirs` gets the direction bits.
  template <int Cols, bool Dirs = false, class OnCell>
  GDP_HD static void row(Down (&d)[Cols], const int (&sc)[Cols], Edge& edge, int diag, const Costs& c,
                         OnCell&& on_cell, DirWord* dirs = nullptr, TraceCarry* = nullptr) {
    DirWord word = 0;
GDP_UNROLL
    for (int k = 0; k < Cols; ++k) {
      const Down before = d[k];
      const unsigned bits = update_cell(diag, sc[k], d[k], edge, c);
      if constexpr (Dirs) word |= static_cast<DirWord>(bits) << (kDirBits * k);
      diag = before.s;
      on_cell(k, before, d[k]);
    }
    if constexpr (Dirs) *dirs = word;
  }

  // One step back along the path (recurrence.hpp's step_back).
  using State = TraceState;
  using Move = syntenic::Move;
  GDP_HD static Move step_back(int& state, unsigned bits) { return syntenic::step_back(state, bits); }
  // What the chunked walk (pairwise/cuda/chunk_walk.cuh) records of a
  // move, a character regions.hpp's step_of_op decodes: M a pair, I a
  // query letter against a gap, D a target letter against a gap, q and t a
  // block's query and target letters, Q and T a block's first; 0 for none.
  // And the letters it moves back over. A syntenic path runs to the border.
  GDP_HD static bool stops(Move) { return false; }
  GDP_HD static char trace_op(Move m, const std::uint8_t*, const std::uint8_t*, int, int) {
    switch (m) {
      case Move::diagonal: return 'M';
      case Move::query_gap: return 'I';
      case Move::target_gap: return 'D';
      case Move::block_query: return 'q';
      case Move::block_target: return 't';
      case Move::block_query_first: return 'Q';
      case Move::block_target_first: return 'T';
      case Move::none: break;
    }
    return 0;
  }
  GDP_HD static void move_back(Move m, int& i, int& j) {
    if (m == Move::diagonal || m == Move::query_gap || m == Move::block_query || m == Move::block_query_first) --i;
    if (m == Move::diagonal || m == Move::target_gap || m == Move::block_target || m == Move::block_target_first) --j;
  }

  GDP_HD static bool keeps_last(const LastRow& out) { return out.s != nullptr; }
  GDP_HD static void keep_last(const LastRow& out, long long j, const Down&, const Down& after) {
    out.s[j] = after.s;
    if (out.d) out.d[j] = after.d;
    out.h[j] = after.h;
  }
};

}  // namespace gdp::syntenic
