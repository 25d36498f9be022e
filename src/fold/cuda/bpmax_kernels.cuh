#pragma once
// BPMax's kernels (cuda/bpmax_gpu.cu runs them). F is kept as one P x P
// matrix a strand-1 interval (i1, j1) of the window, strand 2 padded to P
// bases, a multiple of 128, with bases that pair with nothing, so that
// every cell of the padded matrices is BPMax of the padded strand and the
// real cells are unchanged. Only the window's band of cells,
// 0 <= j2 - i2 <= span2, is ever stored, and only blocks that meet it are
// computed. Matrices are filled a diagonal of strand-1 intervals
// (d1 = j1 - i1) at a time, each matrix by 128 x 128 blocks:
//
//   1. `products<Shorter>`: every block of every matrix of the diagonal at
//      once, the candidates that read only shorter strand-1 intervals:
//      the double reduction D as max-plus products F(i1, k1) (x) F(k1+1, j1)
//      over k1 and the blocks of k2 between the block's row and column
//      (B's rows one down: F(k1+1, j1, k2+1, j2)), then S1 + S2, the pair
//      (i1, j1) and the strand-1 single-strand splits, cell by cell;
//   2. for each diagonal of blocks d, every block of it in every matrix:
//      `products<Close>` (d >= 1), strand 2's single-strand splits whose k2
//      lies in finished blocks, as products F (x) S2 and S2 (x) F; then
//      `close_blocks`, the rest cell by cell by the block's anti-diagonals
//      in shared memory: the pair (i2, j2) and the splits whose k2 lies in
//      the block itself.
//
// Below the diagonal (and in a row past the last, which B's shifted rows
// reach) cells hold kNeg, so that a product term that would pair a real
// cell with one that is not adds nothing: the products need no masks.
// Where the band is narrower than the matrix, a row's stride is only the
// band and the 128 cells left of the diagonal that the products read
// (bpmax_row_stride), so a cell further right shares its place with one of
// the next row: a term that reads one only ever reaches a cell outside the
// band, which is never stored.
// The candidates are those of bpmax_recurrence.hpp (for_each_candidate),
// so every cell is the oracle's: tests/test_bpmax_gpu.cpp checks the
// scores and the structures traced through the cells.
#include <cstdint>

#include "fold/bpmax_recurrence.hpp"

namespace gdp::fold::bpmax_gpu {

constexpr int kB = 128;               // a block of rows and columns, and the products' tile
constexpr int kK = 16;                // the products' step along k
constexpr int kProductThreads = 256;  // each an 8 x 8 piece of the tile
// kNeg + kNeg and kNeg + any real value stay below every real value and
// within an int; cudaMemset's byte 0xC0 writes it.
constexpr int kNeg = static_cast<int>(0xC0C0C0C0u);

// The tables on the device.
struct DeviceTables {
  int* f = nullptr;                  // F's matrices, each P + 1 rows at `stride` (row P all kNeg)
  const int* s2 = nullptr;           // S2 of the padded strand 2, the same shape, kNeg below the diagonal
  const int* s1 = nullptr;           // S1 as the host's SingleTable keeps it
  const std::uint8_t* a = nullptr;   // strand 1's base codes
  const std::uint8_t* b = nullptr;   // strand 2's, reversed, padded to P with kNoBase
  PairWeights w;
  int m = 0;
  long long n = 0, p = 0, stride = 0;
  long long span1 = 0, span2 = 0;  // the window's (bpmax_tables.hpp, Strands)
  long long band = 0;              // blocks (I, J) with J - I <= band meet the band

  GDP_HD long long blocks() const { return p / kB; }
  GDP_HD long long matrix_cells() const { return p * stride + p; }
  GDP_HD long long cell(long long i2, long long j2) const { return i2 * stride + j2; }
  GDP_HD bool in_band(long long i2, long long j2) const { return j2 >= i2 && j2 - i2 <= span2; }
  // Matrix (i1, j1) is number first(d1) + i1: one diagonal's matrices are
  // consecutive.
  GDP_HD long long matrix(long long i1, long long j1) const { return bpmax_interval(m, i1, j1); }
  GDP_HD int* at(long long i1, long long j1) const { return f + matrix(i1, j1) * matrix_cells(); }
  GDP_HD int s1_at(long long i, long long j) const { return s1[i * span1 + j]; }
};

// One kB-long piece of a tile's reduction: A's kB rows from a, B's kB
// columns from b, both at the tables' row stride.
struct Segment {
  const int* a;
  const int* b;
};

// Block (I, J) of matrix (i1, j1).
struct Tile {
  int i1, j1;
  long long I, J;
};

// The blocks (I, J) of a matrix that meet the band, longest first: those
// with J - I = band - g come after g c0 + g (g - 1) / 2 others, c0 = nb - band.
GDP_HD long long band_tiles(long long nb, long long band) { return (band + 1) * (nb - band) + band * (band + 1) / 2; }

// Step 1 for the diagonal d1 of `count` matrices: block x of the grid is
// tile x / count (ordered by falling J - I, the longest first) of matrix
// x % count.
struct Shorter {
  DeviceTables t;
  int d1, count;
  int splits = 1;  // blocks a tile, each a slice of its segments

  __device__ Tile tile(long long x) const {
    const long long e = x / count, c0 = t.blocks() - t.band;
    auto before = [&](long long g) { return g * c0 + g * (g - 1) / 2; };
    const double h = static_cast<double>(c0) - 0.5;
    long long g = static_cast<long long>(sqrt(h * h + 2.0 * static_cast<double>(e)) - h);
    while (g > 0 && before(g) > e) --g;
    while (before(g + 1) <= e) ++g;
    const long long I = e - before(g), d = t.band - g;
    const int i1 = static_cast<int>(x % count);
    return {i1, i1 + d1, I, I + d};
  }
  __device__ int segments(const Tile& s) const { return d1 * static_cast<int>(s.J - s.I + 1); }
  __device__ Segment segment(const Tile& s, int x) const {
    const int blocks = static_cast<int>(s.J - s.I + 1);
    const long long k1 = s.i1 + x / blocks, K = s.I + x % blocks;
    return {t.at(s.i1, k1) + t.cell(s.I * kB, K * kB), t.at(k1 + 1, s.j1) + t.cell(K * kB + 1, s.J * kB)};
  }
  // The product's value and (by the first slice) the cell-by-cell
  // candidates, into F(i1, j1), which holds kNeg before.
  __device__ void finish(const Tile& s, long long i2, long long j2, int product, int slice) const {
    if (!t.in_band(i2, j2)) return;  // below the diagonal or past the window: kNeg stays
    const long long at = t.cell(i2, j2);
    const int i1 = s.i1, j1 = s.j1;
    int v = product;
    if (slice == 0) {
      v = max(v, t.s1_at(i1, j1) + t.s2[at]);
      const int w1 = pair_weight(t.w, t.a[i1], t.a[j1]);
      if (j1 - i1 > kBpmaxMinSpan && w1 > 0) v = max(v, t.at(i1 + 1, j1 - 1)[at] + w1);
      for (int k1 = i1; k1 < j1; ++k1)
        v = max(v, max(t.at(i1, k1)[at] + t.s1_at(k1 + 1, j1), t.s1_at(i1, k1) + t.at(k1 + 1, j1)[at]));
    }
    if (splits > 1) atomicMax(t.at(i1, j1) + at, v);
    else t.at(i1, j1)[at] = v;
  }
};

// Step 2's products for the diagonal of blocks d >= 1: block x of the grid
// is block (x / count, x / count + d) of matrix x % count; its k2 in the
// blocks that are final: F(i2, k2) + S2(k2+1, j2) for k2 in blocks I ..
// J-1, S2(i2, k2) + F(k2+1, j2) for k2 in blocks I+1 .. J.
struct Close {
  DeviceTables t;
  int d1, count;
  long long d;
  int splits = 1;

  __device__ Tile tile(long long x) const {
    const int i1 = static_cast<int>(x % count);
    const long long I = x / count;
    return {i1, i1 + d1, I, I + d};
  }
  __device__ int segments(const Tile&) const { return static_cast<int>(2 * d); }
  __device__ Segment segment(const Tile& s, int x) const {
    const int* f = t.at(s.i1, s.j1);
    if (x < d) {
      const long long K = s.I + x;
      return {f + t.cell(s.I * kB, K * kB), t.s2 + t.cell(K * kB + 1, s.J * kB)};
    }
    const long long K = s.I + 1 + (x - d);
    return {t.s2 + t.cell(s.I * kB, K * kB), f + t.cell(K * kB + 1, s.J * kB)};
  }
  __device__ void finish(const Tile& s, long long i2, long long j2, int product, int) const {
    if (!t.in_band(i2, j2)) return;
    int* cell = t.at(s.i1, s.j1) + t.cell(i2, j2);
    if (splits > 1) atomicMax(cell, product);
    else *cell = max(*cell, product);
  }
};

// A tile's products, the classical max-plus kernel's way (semiring's
// gemm_kernel.cuh): 256 threads, each an 8 x 8 piece made of four 4 x 4
// pieces half a tile apart, kK steps through two shared-memory buffers,
// the next step's operands loaded while the current one is used; with
// Hopper's __viaddmax_s32. Then Task::finish for each cell. Where few
// tiles would leave SMs idle, Task::splits blocks share a tile (block x:
// slice x % splits of tile x / splits), each a slice of its segments,
// combined by atomic max.
template <class Task>
__global__ void __launch_bounds__(kProductThreads, 2) products(Task task) {
  __shared__ __align__(16) int as[2][kK][kB + 4];  // A transposed; the padding keeps its stores apart
  __shared__ __align__(16) int bs[2][kK][kB];
  const int slice = static_cast<int>(blockIdx.x % task.splits);
  const Tile tile = task.tile(blockIdx.x / task.splits);
  const int segments = task.segments(tile), per_slice = (segments + task.splits - 1) / task.splits;
  const int first = slice * per_slice, steps = max(0, min(segments, first + per_slice) - first) * (kB / kK);
  const long long p = task.t.stride;
  const int tid = static_cast<int>(threadIdx.x), tx = tid % 16, ty = tid / 16;
  // A: rows a_row + 16 r, column a_col of the step; B: rows b_row and
  // b_row + 8, columns b_col .. b_col + 3.
  const int a_row = tid / kK, a_col = tid % kK, b_row = tid / 32, b_col = (tid % 32) * 4;
  int a_next[kB / 16];
  int4 b_next[2];
  auto load = [&](int step) {
    const Segment s = task.segment(tile, first + step / (kB / kK));
    const int k0 = step % (kB / kK) * kK;
#pragma unroll
    for (int r = 0; r < kB / 16; ++r) a_next[r] = __ldg(s.a + (a_row + 16 * r) * p + k0 + a_col);
#pragma unroll
    for (int q = 0; q < 2; ++q) b_next[q] = __ldg(reinterpret_cast<const int4*>(s.b + (k0 + b_row + 8 * q) * p + b_col));
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int r = 0; r < kB / 16; ++r) as[buf][a_col][a_row + 16 * r] = a_next[r];
#pragma unroll
    for (int q = 0; q < 2; ++q) *reinterpret_cast<int4*>(&bs[buf][b_row + 8 * q][b_col]) = b_next[q];
  };

  int acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = kNeg;
  if (steps > 0) {
    load(0);
    store(0);
  }
  __syncthreads();
  for (int step = 0; step < steps; ++step) {
    const int buf = step & 1;
    if (step + 1 < steps) load(step + 1);
#pragma unroll
    for (int kk = 0; kk < kK; ++kk) {
      const int4 a0 = *reinterpret_cast<const int4*>(&as[buf][kk][ty * 4]);
      const int4 a1 = *reinterpret_cast<const int4*>(&as[buf][kk][64 + ty * 4]);
      const int4 b0 = *reinterpret_cast<const int4*>(&bs[buf][kk][tx * 4]);
      const int4 b1 = *reinterpret_cast<const int4*>(&bs[buf][kk][64 + tx * 4]);
      const int fa[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const int fb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = __viaddmax_s32(fa[i], fb[j], acc[i][j]);
    }
    if (step + 1 < steps) store(buf ^ 1);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
      task.finish(tile, tile.I * kB + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4),
                  tile.J * kB + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4), acc[i][j], slice);
}

// close_blocks' shared memory: the block, S2's blocks (I, I) and (J, J),
// row 0 of block (I+1, J), the column left of the block from row 0 to 128
// and the bases of the block's columns. Rows padded by one int keep
// column reads free of bank conflicts.
struct CloseShared {
  int cur[kB][kB + 1];
  int s2_rows[kB][kB + 1];  // S2(i0 + r, i0 + c)
  int s2_cols[kB][kB + 1];  // S2(j0 + r, j0 + c)
  int next_row[kB];         // F(i0 + 128, j0 + c)
  int left_col[kB + 1];     // F(i0 + r, j0 - 1)
  std::uint8_t col_bases[kB];
};

// Step 2's finish for the diagonal of blocks d: block x of the grid
// finishes block (x / count, x / count + d) of matrix x % count by
// anti-diagonals (each cell reads cells left of it in its row and below it
// in its column). Four threads a row r, so that each step is short: two
// take halves of the splits along the row, two halves of those along the
// column, and the first the rest.
constexpr int kRowThreads = 4;
constexpr int kCloseThreads = kRowThreads * kB;

__global__ void __launch_bounds__(kCloseThreads) close_blocks(DeviceTables t, int d1, int count, int d) {
  extern __shared__ __align__(16) unsigned char close_shared[];
  CloseShared& sh = *reinterpret_cast<CloseShared*>(close_shared);
  const int i1 = static_cast<int>(blockIdx.x % count), j1 = i1 + d1;
  const long long I = blockIdx.x / count, i0 = I * kB, j0 = (I + d) * kB;
  int* f = t.at(i1, j1);
  const int tid = static_cast<int>(threadIdx.x);
  for (int x = tid; x < kB * kB; x += kCloseThreads) {
    const int row = x / kB, col = x % kB;
    sh.cur[row][col] = f[t.cell(i0 + row, j0 + col)];
    sh.s2_rows[row][col] = t.s2[t.cell(i0 + row, i0 + col)];
    sh.s2_cols[row][col] = t.s2[t.cell(j0 + row, j0 + col)];
  }
  if (tid < kB) {
    if (d >= 1) {
      sh.next_row[tid] = f[t.cell(i0 + kB, j0 + tid)];
      sh.left_col[tid] = f[t.cell(i0 + tid, j0 - 1)];
      if (tid == 0) sh.left_col[kB] = f[t.cell(i0 + kB, j0 - 1)];
    }
    sh.col_bases[tid] = t.b[j0 + tid];
  }
  const int r = tid / kRowThreads, part = tid % kRowThreads;
  const unsigned row_lanes = 0xfu << (tid % 32 / kRowThreads * kRowThreads);
  const std::uint8_t row_base = t.b[i0 + r];
  const int inter = pair_weight(t.w, t.a[i1], row_base);
  __syncthreads();

  for (int s = d == 0 ? 0 : -(kB - 1); s < kB; ++s) {
    const int c = r + s;
    if (c >= 0 && c < kB) {
      const long long i2 = i0 + r, j2 = j0 + c;
      const bool inter_cell = d1 == 0 && i2 == j2;  // the pair between the strands, the only candidate
      int split = kNeg;
      if (!inter_cell && part < 2) {
        // F(i2, k2) + S2(k2+1, j2), k2 in block J, left of j2: local k from..c-1, halved.
        const int from = d == 0 ? r : 0, mid = (from + c) / 2;
        const int k_to = part == 0 ? mid : c;
#pragma unroll 4
        for (int k = part == 0 ? from : mid; k < k_to; ++k) split = max(split, sh.cur[r][k] + sh.s2_cols[k + 1][c]);
      } else if (!inter_cell) {
        // S2(i2, k2) + F(k2+1, j2), k2 in block I: local k r..k_end-1, halved; F's row past the
        // block's last is next_row.
        const int k_end = d == 0 ? c : kB - 1, mid = (r + k_end) / 2;
        const int k_to = part == 2 ? mid : k_end;
#pragma unroll 4
        for (int k = part == 2 ? r : mid; k < k_to; ++k) split = max(split, sh.s2_rows[r][k] + sh.cur[k + 1][c]);
        if (d >= 1 && part == 3) split = max(split, sh.s2_rows[r][kB - 1] + sh.next_row[c]);
      }
      split = max(split, __shfl_xor_sync(row_lanes, split, 1));
      split = max(split, __shfl_xor_sync(row_lanes, split, 2));
      if (part == 0) {
        int v = inter;
        if (!inter_cell) {
          v = max(sh.cur[r][c], split);
          const int w2 = pair_weight(t.w, row_base, sh.col_bases[c]);
          if (j2 - i2 > kBpmaxMinSpan && w2 > 0) {
            const int inner = r + 1 < kB ? (c > 0 ? sh.cur[r + 1][c - 1] : sh.left_col[r + 1])
                                         : (c > 0 ? sh.next_row[c - 1] : sh.left_col[kB]);
            v = max(v, inner + w2);
          }
        }
        sh.cur[r][c] = v;
      }
    }
    __syncthreads();
  }
  for (int x = tid; x < kB * kB; x += kCloseThreads) {
    const int row = x / kB, col = x % kB;
    if (t.in_band(i0 + row, j0 + col)) f[t.cell(i0 + row, j0 + col)] = sh.cur[row][col];
  }
}

// F(i1, i1 + span1, i2, i2 + span2) for every i1 and i2 of the strands
// into out[i1 (n - span2) + i2]: the cells that may hold the score.
__global__ void longest_cells(DeviceTables t, int* out) {
  const long long across = t.n - t.span2, count = (t.m - t.span1) * across;
  for (long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; x < count;
       x += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long i1 = x / across, i2 = x % across;
    out[x] = t.at(i1, i1 + t.span1)[t.cell(i2, i2 + t.span2)];
  }
}

}  // namespace gdp::fold::bpmax_gpu
