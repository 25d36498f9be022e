// Max-plus products inside a triangle of 16-bit unsigned values kept by
// block rows (semiring/triangle.hpp), two cells an instruction with
// Hopper's __viaddmax_u16x2. For gpu-fold's blocked Nussinov: one launch
// computes the products of a whole diagonal of blocks (semiring/gpu.hpp,
// accumulate_triangle_u16).
//
// The tiling is the classical kernel's (gemm_kernel.cuh): a block of 256
// threads computes a 128 x 128 tile of C, each thread an 8 x 8 register
// tile of four 4 x 4 pieces half a tile apart, and k steps 16 at a time
// through two shared-memory buffers. Here a register holds two columns of
// C, so a thread's tile is 8 x 4 registers; A's values are kept in shared
// memory twice, in both halves of a word, so that one instruction adds a
// value of A to two of B. Every dimension is a multiple of the tile, so
// nothing is padded or tested for bounds.
#include <algorithm>
#include <cstdint>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "semiring/gpu.hpp"
#include "semiring/triangle.hpp"

namespace gdp::semiring {
namespace {

constexpr int kTile = 128, kK = 16, kThreads = 256;

// The products of diagonal d: product p (block row I = first + p / splits)
// takes k slice p % splits.
struct TriangleProducts {
  std::uint16_t* t;
  BlockRowTriangle layout;
  long long d;
  long long first;
  int row_shift;
  int splits;
};

__device__ __forceinline__ unsigned in_both_halves(unsigned v) { return v * 0x10001u; }

// old = max(old, v) in each 16-bit half, atomically.
__device__ __forceinline__ void atomic_max_u16x2(unsigned* to, unsigned v) {
  unsigned old = *to;
  for (;;) {
    const unsigned want = __vmaxu2(old, v);
    if (want == old) return;
    const unsigned seen = atomicCAS(to, old, want);
    if (seen == old) return;
    old = seen;
  }
}

__global__ void __launch_bounds__(kThreads, 2) triangle_products_u16(TriangleProducts g) {
  __shared__ __align__(16) unsigned as[2][kK][kTile];        // A transposed, each value in both halves
  __shared__ __align__(16) std::uint16_t bs[2][kK][kTile];
  const long long I = g.first + blockIdx.x / g.splits, J = I + g.d, b = kTile;
  const int slice_index = static_cast<int>(blockIdx.x % g.splits);
  // This block's part of k (A's columns (I+1)b .. Jb-1, counted from 0).
  const long long k_all = (g.d - 1) * b;
  const long long slice = (k_all + g.splits * kK - 1) / (g.splits * kK) * kK;
  const long long k_from = slice_index * slice, k_to = min(k_all, k_from + slice);
  const int tid = static_cast<int>(threadIdx.x), tx = tid % 16, ty = tid / 16;

  // A: row tid / 2 of block row I, 8 of the tile's 16 columns; B: row
  // tid / 16 of the tile, 8 of its 128 columns. Each one 16-byte load.
  const int a_row = tid / 2, a_col = (tid % 2) * 8, b_row = tid / 16, b_col = (tid % 16) * 8;
  const std::uint16_t* a_from = g.t + g.layout.at(I * b + a_row, (I + 1) * b + a_col);
  const long long b_first_row = (I + 1) * b + g.row_shift + b_row, b_first_col = J * b + b_col;
  uint4 a_next, b_next;
  auto load_tile = [&](long long k0) {
    a_next = __ldg(reinterpret_cast<const uint4*>(a_from + k0));
    b_next = __ldg(reinterpret_cast<const uint4*>(g.t + g.layout.at(b_first_row + k0, b_first_col)));
  };
  auto store_tile = [&](int buf) {
    const unsigned words[4] = {a_next.x, a_next.y, a_next.z, a_next.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      as[buf][a_col + 2 * e][a_row] = in_both_halves(words[e] & 0xffffu);
      as[buf][a_col + 2 * e + 1][a_row] = in_both_halves(words[e] >> 16);
    }
    *reinterpret_cast<uint4*>(&bs[buf][b_row][b_col]) = b_next;
  };

  unsigned acc[8][4];  // rows ty*4 + 0..3 and 64 + ty*4 + 0..3; column pairs tx*4 + {0, 2}, 64 + tx*4 + {0, 2}
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int p = 0; p < 4; ++p) acc[i][p] = 0;  // values are >= 0: 0 adds nothing to C

  const long long tiles = (k_to - k_from) / kK;
  if (tiles > 0) {
    load_tile(k_from);
    store_tile(0);
  }
  __syncthreads();
  for (long long s = 0; s < tiles; ++s) {
    const int buf = static_cast<int>(s & 1);
    if (s + 1 < tiles) load_tile(k_from + (s + 1) * kK);
#pragma unroll
    for (int kk = 0; kk < kK; ++kk) {
      const uint4 a0 = *reinterpret_cast<const uint4*>(&as[buf][kk][ty * 4]);
      const uint4 a1 = *reinterpret_cast<const uint4*>(&as[buf][kk][64 + ty * 4]);
      const uint2 b0 = *reinterpret_cast<const uint2*>(&bs[buf][kk][tx * 4]);
      const uint2 b1 = *reinterpret_cast<const uint2*>(&bs[buf][kk][64 + tx * 4]);
      const unsigned fa[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const unsigned fb[4] = {b0.x, b0.y, b1.x, b1.y};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int p = 0; p < 4; ++p) acc[i][p] = __viaddmax_u16x2(fa[i], fb[p], acc[i][p]);
    }
    if (s + 1 < tiles) store_tile(buf ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long row = I * b + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      auto* to = reinterpret_cast<unsigned*>(g.t + g.layout.at(row, J * b + half * 64 + tx * 4));
      if (g.splits > 1) {
        atomic_max_u16x2(to, acc[i][2 * half]);
        atomic_max_u16x2(to + 1, acc[i][2 * half + 1]);
      } else {  // this block alone writes these cells
        uint2 c = *reinterpret_cast<uint2*>(to);
        c.x = __vmaxu2(c.x, acc[i][2 * half]);
        c.y = __vmaxu2(c.y, acc[i][2 * half + 1]);
        *reinterpret_cast<uint2*>(to) = c;
      }
    }
  }
}

}  // namespace

void accumulate_triangle_u16(std::uint16_t* t, const BlockRowTriangle& layout, std::int64_t d, int row_shift,
                             int splits) {
  if (layout.block != kTile || layout.padded % kTile != 0)
    throw RunError("accumulate_triangle_u16: blocks of 128 rows and columns only");
  if (row_shift < 0 || row_shift > 1) throw RunError("accumulate_triangle_u16: the row shift is 0 or 1");
  if (splits < 1 || splits > 65535) throw RunError("accumulate_triangle_u16: splits must lie within 1..65535");
  const std::int64_t products = layout.blocks() - d;
  if (d < 2 || products <= 0) return;
  // blockIdx.x: product * splits + slice, within 2^31 - 1 a launch.
  const std::int64_t per_launch = ((1LL << 31) - 1) / splits;
  for (std::int64_t first = 0; first < products; first += per_launch) {
    const std::int64_t count = std::min(products - first, per_launch);
    const TriangleProducts g{t, layout, d, first, row_shift, splits};
    triangle_products_u16<<<static_cast<unsigned>(count * splits), kThreads>>>(g);
    cuda::check(cudaGetLastError(), "triangle_products_u16");
  }
}

std::vector<std::uint16_t> accumulate_triangle_gpu(const std::vector<std::uint16_t>& t, const BlockRowTriangle& layout,
                                                   std::int64_t d, int row_shift, int splits, int device) {
  if (static_cast<std::int64_t>(t.size()) != layout.cells())
    throw InputError("accumulate_triangle_gpu: the triangle's size does not match its layout");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  cuda::DeviceArray<std::uint16_t> dt;
  dt.reserve(std::max<std::size_t>(t.size(), 1));
  cuda::check(cudaMemcpy(dt.get(), t.data(), t.size() * sizeof(std::uint16_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  accumulate_triangle_u16(dt.get(), layout, d, row_shift, splits);
  std::vector<std::uint16_t> out(t.size());
  cuda::check(cudaMemcpy(out.data(), dt.get(), t.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return out;
}

}  // namespace gdp::semiring
