#pragma once
// The three-phase traceback's local start points (dissertation section
// 5.3) on the GPU pass's chunks: kChunkRows rows of a by kChunkCols columns
// of b, each over every plane k. A cell's start point is where the best
// path into it entered its chunk: a cell of the row just above the chunk
// (i0 - 1, columns j0 - 1 .. j0 + 32 - 1) or of the column just left of it
// (j0 - 1, rows i0 .. i0 + 15), both on the faces of the chunks before it;
// or, in the first chunk, the cube's origin. One int holds it: the plane
// k times 64 plus the cell's place on those faces.
//
// Phase 1 (layer_pass.cu) keeps the start points of the cells on each
// chunk's last row and last column, the faces that later chunks read;
// phase 2 (walk_starts) follows them back from the cube's last cell.
// Plain C++: the host's tests use it too.
#include "core/host_device.hpp"

namespace gdp::align3 {

inline constexpr int kChunkRows = 16;  // rows of a in a chunk: the cells a lane keeps
inline constexpr int kChunkCols = 32;  // columns of b in a chunk: a warp's lanes
inline constexpr int kOriginStart = 63;  // the place of the cube's origin
// The largest plane a start point holds: |c| must stay below it.
inline constexpr long long kMaxStartPlane = (1LL << 25) - 1;

// The row above the chunk, its cell at column j0 - 1 + column (0 .. 32).
GDP_HD int start_above(int column, int k) { return k * 64 + column; }
// The column left of the chunk, its cell at row i0 + row (0 .. 15).
GDP_HD int start_left(int row, int k) { return k * 64 + kChunkCols + 1 + row; }

struct CubeCell {
  long long i = 0, j = 0, k = 0;
};

// The cell a start point of chunk (ci, cj) names.
GDP_HD CubeCell start_cell(int start, int ci, int cj) {
  const int place = start % 64;
  const long long k = start / 64, i0 = static_cast<long long>(ci) * kChunkRows,
                  j0 = static_cast<long long>(cj) * kChunkCols;
  if (place == kOriginStart) return {0, 0, 0};
  if (place <= kChunkCols) return {i0 - 1, j0 - 1 + place, k};
  return {i0 + place - (kChunkCols + 1), j0 - 1, k};
}

// Where phase 1 keeps the start points of the faces: a chunk row's last
// row (i = i0 + 15) at [(ci (p + 32) + k + j % 32) n_pad + j], as the pass
// hands that row over (a step's 32 lanes write 32 neighbouring ints); a
// chunk's last column (j = j0 + 31) at [((ci cols + cj)(p + 1) + k) 16 + i - i0].
struct FaceLayout {
  long long p = 0;      // |c|
  long long n_pad = 0;  // |b| + 1 rounded up to 32
  int rows = 0, cols = 0;

  GDP_HD long long bottom_cells() const { return static_cast<long long>(rows) * (p + kChunkCols) * n_pad; }
  GDP_HD long long right_cells() const { return static_cast<long long>(rows) * cols * (p + 1) * kChunkRows; }
  GDP_HD long long bottom(long long i, long long j, long long k) const {
    return ((i / kChunkRows) * (p + kChunkCols) + k + j % kChunkCols) * n_pad + j;
  }
  GDP_HD long long right(long long i, long long j, long long k) const {
    return (((i / kChunkRows) * cols + j / kChunkCols) * (p + 1) + k) * kChunkRows + i % kChunkRows;
  }
};

// Phase 2: from `end_start`, the start point of the cube's last cell
// (m, n, p), back to the origin along the kept faces. Writes the cells
// where the path enters each chunk it crosses, the last chunk's first,
// then the origin, into `out` (room for rows + cols); returns how many, or
// -1 if the faces do not lead back to the origin in that many.
GDP_HD int walk_starts(const int* bottom, const int* right, const FaceLayout& f, long long m, long long n,
                       int end_start, CubeCell* out) {
  int ci = static_cast<int>(m / kChunkRows), cj = static_cast<int>(n / kChunkCols), start = end_start;
  for (int count = 0; count < f.rows + f.cols; ++count) {
    const CubeCell e = start_cell(start, ci, cj);
    out[count] = e;
    if (start % 64 == kOriginStart) return count + 1;
    if (e.i < 0 || e.j < 0) return -1;
    ci = static_cast<int>(e.i / kChunkRows), cj = static_cast<int>(e.j / kChunkCols);
    // The cell lies on a face its chunk hands on: the last row, to a chunk
    // below, or the last column, to a chunk on the right.
    if (e.i % kChunkRows == kChunkRows - 1 && ci + 1 < f.rows)
      start = bottom[f.bottom(e.i, e.j, e.k)];
    else if (e.j % kChunkCols == kChunkCols - 1 && cj + 1 < f.cols)
      start = right[f.right(e.i, e.j, e.k)];
    else
      return -1;
    if (start < 0) return -1;
  }
  return -1;
}

}  // namespace gdp::align3
