#pragma once
// The chunked traceback's recomputation (dissertation chapter 4,
// ChunkedAlignment), for any cell policy. A kept pass (strip_kernel.cuh,
// Kept) leaves every strip's right edge and a checkpoint row every
// kKeptRowsOf<Cell> rows in device memory, which cuts the matrix into
// chunks of that many rows by one strip (kKeptWidth columns); each can be
// recomputed alone from its top row and its left column, with the cell's
// direction bits, by the same row update as the score pass.
#include <cstdint>
#include <type_traits>

#include "pairwise/cuda/strip_params.cuh"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/kept_cell.hpp"
#include "pairwise/cuda/strip_profile.cuh"

namespace gdp::pairwise::striped {

// What a kept pass leaves on the device for the traceback. Valid until the
// next pass. The rebased 16-bit kernel's kept passes (Gotoh cells only)
// leave packed cells (kept_cell.hpp) instead, in the same places.
template <class Types>
struct Kept {
  const typename Types::Edge* columns = nullptr;      // strip s, row i: columns[s * m + i - 1], its last column's
  const typename Types::Down* checkpoints = nullptr;  // after row b * rows: checkpoints[(b - 1) * padded_n + j - 1]
  const std::uint8_t* q = nullptr;  // the sequences and the substitution matrix, on the device
  const std::uint8_t* t = nullptr;
  const int* sub = nullptr;
  long long padded_n = 0;
  int rows = 0;                     // checkpoint spacing
  const unsigned* packed_columns = nullptr;      // not null: the packed cells, in place of columns
  const unsigned* packed_checkpoints = nullptr;  // and of checkpoints
  const int* anchors = nullptr;                  // H after row b * rows of strip s's last column: [(b - 1) * strips + s]
};

// A kept pass's checkpoint cell of row r (a multiple of kept.rows) at
// column j + 1, and its strip s's edge cell of row i, r < i <= r +
// kept.rows; the anchor of either is H(r, (s + 1) * kKeptWidth) (row 0's
// from the matrix's top).
template <class Cell>
__device__ __forceinline__ int kept_anchor(const Params<typename Cell::Types>& p, const Kept<typename Cell::Types>& kept,
                                           int r, long long s) {
  return r == 0 ? Cell::score(Cell::top(p.costs, (s + 1) * kKeptWidth))
                : kept.anchors[static_cast<long long>(r / kept.rows - 1) * (kept.padded_n / kKeptWidth) + s];
}
template <class Cell>
__device__ __forceinline__ typename Cell::Down kept_down(const Params<typename Cell::Types>& p,
                                                         const Kept<typename Cell::Types>& kept, int r, long long j) {
  const long long at = static_cast<long long>(r / kept.rows - 1) * kept.padded_n + j;
  if constexpr (std::is_same_v<typename Cell::Types, GotohTypes>) {
    if (kept.packed_checkpoints) {
      const unsigned w = kept.packed_checkpoints[at];
      const int h = kept_cell::h_of(w, kept_anchor<Cell>(p, kept, r, j / kKeptWidth));
      return {h, kept_cell::x_of(w, h, p.costs.extend)};
    }
  }
  return kept.checkpoints[at];
}
// `anchor`: kept_anchor of row i's chunk. The Edge's E less extend is the
// next column's E, which is all the recomputation reads of it.
template <class Cell>
__device__ __forceinline__ typename Cell::Edge kept_edge(const Params<typename Cell::Types>& p,
                                                         const Kept<typename Cell::Types>& kept, long long s, int i,
                                                         int anchor) {
  const long long at = s * p.m + i - 1;
  if constexpr (std::is_same_v<typename Cell::Types, GotohTypes>) {
    if (kept.packed_columns) {
      const unsigned w = kept.packed_columns[at];
      const int h = kept_cell::h_of(w, anchor);
      return {h, kept_cell::x_of(w, h, p.costs.extend) + p.costs.extend};
    }
  }
  return kept.columns[at];
}

// Strip k's target profile for a warp: profile[a * kKeptWidth + column] =
// score(a, t[column]).
template <class Types>
__device__ void build_profile(const Params<Types>& p, long long k, short* profile, int lane) {
  for (int a = 0; a < p.dim; ++a)
    for (int c = 0; c < kKeptCols; ++c) {
      const long long col = k * kKeptWidth + lane * kKeptCols + c;
      profile[a * kKeptWidth + lane * kKeptCols + c] =
          col < p.n ? static_cast<short>(p.sub[a * p.dim + p.t[col]]) : static_cast<short>(kPadScore<kKeptCols>);
    }
}

// Recomputes, with a warp, the chunk of strip k holding rows r0+1..r1 into
// `dirs` (dirs[row - r0 - 1][lane]: the lane's kKeptCols cells of that
// row, the cell's direction bits each).
template <class Cell>
__device__ void recompute_chunk(const Params<typename Cell::Types>& p, const Kept<typename Cell::Types>& kept,
                                long long k, int r0, int r1, const short* profile,
                                typename Cell::DirWord (*dirs)[kLanes]) {
  using Edge = typename Cell::Edge;
  using Down = typename Cell::Down;
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  const long long j0 = k * kKeptWidth + lane * kKeptCols;
  Down d[kKeptCols];
#pragma unroll
  for (int c = 0; c < kKeptCols; ++c) d[c] = r0 == 0 ? Cell::top(p.costs, j0 + c + 1) : kept_down<Cell>(p, kept, r0, j0 + c);
  typename Cell::TraceCarry carry = Cell::carry_of(d, p.costs);
  // The left edge's anchor for these rows (packed cells only): H(r0, j0).
  const int left_anchor = k > 0 && kept.anchors ? kept_anchor<Cell>(p, kept, r0, k - 1) : 0;
  // The score at (r0, j0): lane 0's from the left edge, the others' from their left neighbour.
  int diag = __shfl_up_sync(kFull, Cell::score(d[kKeptCols - 1]), 1);
  if (lane == 0)
    diag = r0 == 0         ? Cell::score(Cell::top(p.costs, j0))
           : k == 0        ? Cell::score(Cell::left(p.costs, r0))
           : kept.anchors  ? left_anchor
                           : Cell::score(kept.columns[(k - 1) * p.m + r0 - 1]);

  Edge right{}, in_batch{};
  int letters = 0, letter = 0;
  const int rows = r1 - r0;
  for (int step = 0; step < rows + kLanes - 1; ++step) {
    if ((step & (kLanes - 1)) == 0) {  // the next 32 rows of the left edge and of the query
      const int row = r0 + 1 + step + lane;
      if (row <= r1) {
        letters = p.q[row - 1];
        in_batch = k == 0 ? Cell::left(p.costs, row) : kept_edge<Cell>(p, kept, k - 1, row, left_anchor);
      }
    }
    Edge left = shfl_up(right);
    const Edge b = shfl(in_batch, step & (kLanes - 1));
    const int bl = __shfl_sync(kFull, letters, step & (kLanes - 1));
    letter = __shfl_up_sync(kFull, letter, 1);
    if (lane == 0) left = b, letter = bl;
    const int row = step - lane;  // 0-based within the chunk
    if (row >= 0 && row < rows) {
      int sc[kKeptCols];
      load_scores<kKeptCols>(profile + letter * kKeptWidth + lane * kKeptCols, sc);
      Edge e = left;
      typename Cell::DirWord word = 0;
      Cell::template row<kKeptCols, true>(d, sc, e, diag, p.costs, [](int, const Down&, const Down&) {}, &word, &carry);
      dirs[row][lane] = word;
      diag = Cell::score(left);
      right = e;
    }
  }
}

}  // namespace gdp::pairwise::striped
