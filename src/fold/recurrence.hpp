#pragma once
// Nussinov's recurrence as Chang et al. simplify it (dissertation chapter 7),
// written once for the CPU engines (cpu/nussinov.cpp) and the kernels
// (cuda/nussinov_gpu.cu):
//
//   C(i,j) = max( C(i+1,j-1) + 1  if a_i and a_j pair and j - i > min_loop,
//                 max over i <= k < j of C(i,k) + C(k+1,j) )
//
// with C(i,j) = 0 for j <= i. The split at k = i and k = j - 1 covers
// Nussinov's "a_i unpaired" and "a_j unpaired" cases; j - i > min_loop
// leaves at least min_loop unpaired bases inside each hairpin.
//
// cell() is the plain form (the oracle's). Beside it, the forms the faster
// engines compute: rows_cell() (CPU2 and OMP2, over a row and a transposed
// row), packed_cell() (the short records' 16-bit tables) and block_cell()
// (the blocked fill's split max cut at block edges); the CPU tests
// (tests/test_fold_recurrence.cpp) prove each equal to cell().
#include <algorithm>
#include <cstdint>

#include <string_view>

#include "core/host_device.hpp"

namespace gdp::fold {

// Bases as the engines code them; kNoBase (the GPU's padding, or any
// letter that is not a base) never pairs.
inline constexpr std::uint8_t kBaseA = 0, kBaseC = 1, kBaseG = 2, kBaseU = 3, kNoBase = 4;

GDP_HD std::uint8_t base_code(char b) {
  return b == 'A' ? kBaseA : b == 'C' ? kBaseC : b == 'G' ? kBaseG : b == 'U' ? kBaseU : kNoBase;
}

// IUPAC's codes for an unknown or ambiguous base, which gpu-fold reads as
// bases that pair with nothing (as RNAfold does N).
inline constexpr std::string_view kUnpairedBases = "NRYKMSWBDHV";
inline bool is_rna_letter(char b) { return base_code(b) != kNoBase || kUnpairedBases.find(b) != std::string_view::npos; }

// max and min of ints, on the device as the instructions they compile to.
GDP_HD int max_of(int a, int b) {
#if defined(__CUDA_ARCH__)
  return max(a, b);
#else
  return std::max(a, b);
#endif
}
GDP_HD int min_of(int a, int b) {
#if defined(__CUDA_ARCH__)
  return min(a, b);
#else
  return std::min(a, b);
#endif
}

// The pair rule: A-U, G-C, and G-U where `gu` (either order).
GDP_HD bool pairs(std::uint8_t a, std::uint8_t b, bool gu) {
  const int x = min_of(a, b), y = max_of(a, b);
  return (x == kBaseA && y == kBaseU) || (x == kBaseC && y == kBaseG) || (gu && x == kBaseG && y == kBaseU);
}

// Whether bases a (at i) and b (at j = i + span) may close a pair: the
// pair rule, and more than min_loop apart. (The kernels' forms below, and
// trace_small, spell it out as `span > min_loop && pairs(...)` in their
// branch: through a function, nvcc keeps the bool and tests it again, and
// the kernels' code would no longer be what it was.)
template <class Span>
GDP_HD bool closes(std::uint8_t a, std::uint8_t b, Span span, int min_loop, bool gu) {
  return span > min_loop && pairs(a, b, gu);
}

// One split of the max: best so far against C(i,k) + C(k+1,j).
GDP_HD int split(int best, int left, int right) { return max_of(best, left + right); }

// The plain form. `inner()` reads C(i+1, j-1) (called only where i and j
// close a pair); left(k) reads C(i, k) and right(k) C(k+1, j), each 0 on
// or below the main diagonal.
template <class Inner, class Left, class Right>
GDP_HD int cell(bool closes_pair, const Inner& inner, long long i, long long j, const Left& left, const Right& right) {
  int best = closes_pair ? inner() + 1 : 0;
  for (long long k = i; k < j; ++k) best = split(best, left(k), right(k));
  return best;
}

// cell() over row i of C and row j of its transpose (CPU2 and OMP2):
// c_row[k] = C(i, k) and t_row[k] = C(k, j), read only for i < k < j. The
// splits k = i and k = j - 1 are C(i+1, j) and C(i, j-1) alone (C(i,i) =
// C(j,j) = 0), so the splits between them read both rows with no test of
// the diagonal: one branch an iteration instead of three.
template <class Inner>
GDP_HD int rows_cell(bool closes_pair, const Inner& inner, const int* c_row, const int* t_row, long long i,
                     long long j) {
  int best = closes_pair ? inner() + 1 : 0;
  if (j - i < 2) return best;  // the one split, C(i,i) + C(j,j), is 0
  best = max_of(best, max_of(t_row[i + 1], c_row[j - 1]));
  for (long long k = i + 1; k < j - 1; ++k) best = split(best, c_row[k], t_row[k + 1]);
  return best;
}

// C(i, j) of a table whose row i starts at c + row[i] (C(i, j) at
// c[row[i] + j] for j > i; no cell on or below the main diagonal): the
// short records' 16-bit tables in shared memory.
template <class Cell>
struct RowTable {
  const Cell* c;
  const int* row;
  GDP_HD int operator()(int i, int j) const { return j <= i ? 0 : static_cast<int>(c[row[i] + j]); }
};

// cell() in a RowTable: the splits k = i and k = j - 1 are C(i+1, j) and
// C(i, j-1) alone (C(i,i) = C(j,j) = 0), and the splits between them read
// the table without the diagonal's test. Cells of 16 bits add in int.
template <class Cell>
GDP_HD int packed_cell(const RowTable<Cell>& at, const std::uint8_t* bases, int i, int j, int min_loop, bool gu) {
  int best = j - i > min_loop && pairs(bases[i], bases[j], gu) ? at(i + 1, j - 1) + 1 : 0;  // closes(), spelled out
  best = max_of(best, max_of(at(i + 1, j), at(i, j - 1)));
  for (int k = i + 1; k < j - 1; ++k) best = split(best, at.c[at.row[i] + k], at.c[at.row[k + 1] + j]);
  return best;
}

// What the blocked fill's cell of block (I, J), J = I + d, reads, all of
// it in shared memory on the GPU. B x B tiles (Tile is Cell[B][W], W >= B):
//   cur: the block itself, row r col c = C(I*B + r, J*B + c); the cell
//        being finished holds the splits through the blocks strictly
//        between I and J (0 when d < 2), the cells finished before it
//        (lower anti-diagonals) their values;
//   left: block (I, I); below: block (J, J) (d >= 1);
//   next_row: row 0 of block (I+1, J) (d >= 1);
//   left_column[r]: C(I*B + r + 1, J*B - 1) (d >= 1; 0 below the main
//        diagonal);
//   column_bases[c]: the base at J*B + c.
template <class Tile>
struct BlockTiles {
  Tile& cur;
  const Tile& left;
  const Tile& below;
  const int* next_row;
  const int* left_column;
  const std::uint8_t* column_bases;
};

// cell() of row r, column col of the block in `t`, at i, j, with the split
// max cut where the blocks are: the bulk (already in cur), k in block I
// (C(k+1, j) from cur's column, or next_row past its end), k in block J
// (C(k+1, j) from below). On a diagonal block (d = 0) every split is
// inside it. The pragmas keep the kernel's unrolling.
template <int B, class Tile>
GDP_HD int block_cell(const BlockTiles<Tile>& t, int r, int col, long long i, long long j, bool diagonal,
                      std::uint8_t row_base, int min_loop, bool gu) {
  int best = t.cur[r][col];
  if (j - i > min_loop && pairs(row_base, t.column_bases[col], gu)) {  // closes(), spelled out
    // C(i+1, j-1): zero on and below the main diagonal; else in this
    // block, in row 0 of the block below, or in the column on its left.
    const int inner = j - 1 <= i + 1          ? 0
                      : r + 1 < B && col >= 1 ? static_cast<int>(t.cur[r + 1][col - 1])
                      : col >= 1              ? t.next_row[col - 1]
                                              : t.left_column[r];
    best = max_of(best, inner + 1);
  }
  if (diagonal) {  // every split inside the block: C(i,k) + C(k+1,j), k = i .. j-1
    for (int k = r; k < col; ++k) best = split(best, t.cur[r][k], t.cur[k + 1][col]);
  } else {
    // k in block I: C(i,k) from block (I, I); C(k+1, j) from this block's
    // column below row r, or row 0 of block (I+1, J) past its end.
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
    for (int k = r; k < B - 1; ++k) best = split(best, t.left[r][k], t.cur[k + 1][col]);
    best = split(best, t.left[r][B - 1], t.next_row[col]);
    // k in block J: C(i,k) from this block's row left of col; C(k+1, j)
    // from block (J, J).
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
    for (int k = 0; k < col; ++k) best = split(best, t.cur[r][k], t.below[k + 1][col]);
  }
  return best;
}

// The traceback's test of the pair (i, j), bases a and b, for C(i,j) = v:
// they close a pair (closes(), spelled out so that the kernels' branches
// stay as they were) and C(i+1, j-1) + 1 gives v. `at` reads C.
template <class At, class Index>
GDP_HD bool pair_gives(const At& at, std::uint8_t a, std::uint8_t b, Index i, Index j, int v, int min_loop, bool gu) {
  return j - i > min_loop && pairs(a, b, gu) && v == at(i + 1, j - 1) + 1;
}

// The traceback's test of the split k for C(i,j) = v.
GDP_HD bool split_gives(int v, int left, int right) { return left + right == v; }

}  // namespace gdp::fold
