#pragma once
// The classical product C = A (x) B on CUDA cores, over any of the three
// semirings: one register-blocked kernel (dissertation chapter 2's last
// version, rebuilt the way CUTLASS's SIMT kernels are) with the semiring's
// multiply-add as a template parameter.
//
// A block computes a 128 x 128 tile of C, 256 threads each holding an 8 x 8
// register tile made of four 4 x 4 pieces half a tile apart (so that a
// warp's shared-memory reads are contiguous). The k loop steps BK at a time
// through tiles of A (stored transposed) and B in shared memory, two
// buffers deep: the next tile is loaded from global memory into registers
// while the current one is used. Where a tile overhangs the matrix, A and B
// are padded with values whose product is the semiring's zero (0; or sums
// at or beyond minus / plus infinity), so no thread tests bounds in the
// inner loop. Batched products run one per blockIdx.z. Split products
// (int32 max-plus and min-plus) cut k into slices, one block each, which
// add their part into C with an atomic max or min: C = C (+) A (x) B.
#include <cstdint>
#include <cuda/std/limits>
#include <type_traits>

#include "semiring/semiring.hpp"

namespace gdp::semiring::gpu {

// The multiply-add of a semiring, and the padding of A and B that adds
// nothing: pad_a (x) pad_b is at least as bad as any real product.
template <class T, Semiring S>
struct Mac;

template <class T>
struct Mac<T, Semiring::plus_times> {
  static constexpr bool kSplits = false;
  static __device__ __forceinline__ void add_to(T*, T) {}
  static __device__ __forceinline__ T zero() { return T{0}; }
  static __device__ __forceinline__ T pad_a() { return T{0}; }
  static __device__ __forceinline__ T pad_b() { return T{0}; }
  static __device__ __forceinline__ T apply(T acc, T a, T b) {
    if constexpr (std::is_same_v<T, float>) return __fmaf_rn(a, b, acc);
    else if constexpr (std::is_same_v<T, double>) return __fma_rn(a, b, acc);
    else return static_cast<T>(static_cast<unsigned>(acc) + static_cast<unsigned>(a) * static_cast<unsigned>(b));
  }
};

template <class T>
struct Mac<T, Semiring::max_plus> {
  static __device__ __forceinline__ T zero() {
    if constexpr (std::is_integral_v<T>) return ::cuda::std::numeric_limits<T>::lowest();
    else return -::cuda::std::numeric_limits<T>::infinity();
  }
  // Integers: -2^30 twice is -2^31, the lowest int32; real sums are above it.
  static __device__ __forceinline__ T pad_a() { return std::is_integral_v<T> ? T(-(1 << 30)) : zero(); }
  static __device__ __forceinline__ T pad_b() { return pad_a(); }
  static constexpr bool kSplits = std::is_same_v<T, std::int32_t>;  // an atomic semiring addition
  static __device__ __forceinline__ void add_to(T* c, T v) {
    if constexpr (kSplits) atomicMax(c, v);
  }
  static __device__ __forceinline__ T apply(T acc, T a, T b) {
    if constexpr (std::is_integral_v<T>) return __viaddmax_s32(a, b, acc);
    else if constexpr (std::is_same_v<T, float>) return fmaxf(acc, a + b);
    else return fmax(acc, a + b);
  }
};

template <class T>
struct Mac<T, Semiring::min_plus> {
  static __device__ __forceinline__ T zero() {
    if constexpr (std::is_integral_v<T>) return ::cuda::std::numeric_limits<T>::max();
    else return ::cuda::std::numeric_limits<T>::infinity();
  }
  // Integers: 2^30 + 2^30 - 1 is 2^31 - 1, the highest int32; real sums are below it.
  static __device__ __forceinline__ T pad_a() { return std::is_integral_v<T> ? T(1 << 30) : zero(); }
  static __device__ __forceinline__ T pad_b() { return std::is_integral_v<T> ? T((1 << 30) - 1) : zero(); }
  static constexpr bool kSplits = std::is_same_v<T, std::int32_t>;
  static __device__ __forceinline__ void add_to(T* c, T v) {
    if constexpr (kSplits) atomicMin(c, v);
  }
  static __device__ __forceinline__ T apply(T acc, T a, T b) {
    if constexpr (std::is_integral_v<T>) return __viaddmin_s32(a, b, acc);
    else if constexpr (std::is_same_v<T, float>) return fminf(acc, a + b);
    else return fmin(acc, a + b);
  }
};

struct GemmShape {
  int m, n, k;
  long long stride_a, stride_b, stride_c;  // elements between the products of a batch
  int lda, ldb, ldc;                       // row strides
  int splits = 1;                          // > 1: slices of k a product, blockIdx.z = product * splits + slice
};

// A 16-byte vector's four 4-byte elements as T.
template <class T>
__device__ __forceinline__ void unpack4(int4 v, T* to) {
  const int w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int x = 0; x < 4; ++x) {
    if constexpr (std::is_same_v<T, float>) to[x] = __int_as_float(w[x]);
    else to[x] = w[x];
  }
}

// Four consecutive elements from shared memory, 16-byte aligned, in one
// or two vector loads.
template <class T>
__device__ __forceinline__ void load4(const T* from, T* to) {
  if constexpr (sizeof(T) == 4) {
    unpack4(*reinterpret_cast<const int4*>(from), to);
  } else {
    const double2 v0 = reinterpret_cast<const double2*>(from)[0], v1 = reinterpret_cast<const double2*>(from)[1];
    to[0] = v0.x, to[1] = v0.y, to[2] = v1.x, to[3] = v1.y;
  }
}

// Four consecutive elements from global memory: one vector load for
// 4-byte types (16-byte aligned), four loads for doubles.
template <class T>
__device__ __forceinline__ void load4_global(const T* from, T* to) {
  if constexpr (sizeof(T) == 4) {
    unpack4(__ldg(reinterpret_cast<const int4*>(from)), to);
  } else {
#pragma unroll
    for (int x = 0; x < 4; ++x) to[x] = from[x];
  }
}

constexpr int kThreads = 256;  // 16 x 16, each an 8 x 8 tile of C
constexpr int kBM = 128, kBN = 128;
// The k tile: 16 for 4-byte types (two blocks an SM, 66 KB of shared
// memory), 8 for doubles (their 8 x 8 tile takes most of the registers).
template <class T>
constexpr int kBK = sizeof(T) == 4 ? 16 : 8;
template <class T>
constexpr int kMinBlocks = sizeof(T) == 4 ? 2 : 1;

template <class T, Semiring S, int BK = kBK<T>>
__global__ void __launch_bounds__(kThreads, kMinBlocks<T>) gemm_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                                       T* __restrict__ c, GemmShape g) {
  using M = Mac<T, S>;
  // A's tile, transposed (as[k][row]); 4 elements of padding a row keep
  // the transposing stores free of bank conflicts.
  __shared__ __align__(16) T as[2][BK][kBM + 4];
  __shared__ __align__(16) T bs[2][BK][kBN];
  const long long product = blockIdx.z / g.splits;
  a += product * g.stride_a;
  b += product * g.stride_b;
  c += product * g.stride_c;
  int k = g.k;  // this block's part of k: all of it, or its slice
  if (g.splits > 1) {
    const int slice = (g.k + g.splits * BK - 1) / (g.splits * BK) * BK, from = static_cast<int>(blockIdx.z % g.splits) * slice;
    k = max(0, min(g.k, from + slice) - from);
    a += from;
    b += static_cast<long long>(from) * g.ldb;
  }
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % 16, ty = tid / 16;
  const int row0 = static_cast<int>(blockIdx.y) * kBM, col0 = static_cast<int>(blockIdx.x) * kBN;

  // Global loads: BK / 2 elements of A and of B a thread per k tile.
  // A: rows row0 + tid / BK + (256 / BK) * r, column k0 + tid % BK.
  // B: rows k0 + tid / 32 + 8 * p, columns col0 + (tid % 32) * 4 + 0..3.
  constexpr int kARows = kThreads / BK, kALoads = kBM / kARows, kBRows = BK / 8;
  const int a_row = tid / BK, a_col = tid % BK;
  const int b_row = tid / 32, b_col = (tid % 32) * 4;
  T a_next[kALoads], b_next[kBRows][4];
  // Blocks wholly inside C take their tiles without bounds tests, and B's
  // four columns in one vector load where its rows are 16-byte aligned.
  const bool inside = row0 + kBM <= g.m && col0 + kBN <= g.n;
  const bool vector_b = sizeof(T) == 4 && g.ldb % 4 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
  const T* a_from = a + static_cast<long long>(row0 + a_row) * g.lda + a_col;
  const T* b_from = b + static_cast<long long>(b_row) * g.ldb + col0 + b_col;
  auto load_tile = [&](int k0) {
    if (inside && k0 + BK <= k) {
#pragma unroll
      for (int r = 0; r < kALoads; ++r) a_next[r] = a_from[static_cast<long long>(kARows * r) * g.lda + k0];
#pragma unroll
      for (int p = 0; p < kBRows; ++p) {
        const T* from = b_from + static_cast<long long>(k0 + 8 * p) * g.ldb;
        if (vector_b) {
          load4_global(from, b_next[p]);
        } else {
#pragma unroll
          for (int q = 0; q < 4; ++q) b_next[p][q] = from[q];
        }
      }
      return;
    }
#pragma unroll
    for (int r = 0; r < kALoads; ++r) {
      const int i = row0 + a_row + kARows * r, kk = k0 + a_col;
      a_next[r] = i < g.m && kk < k ? a[static_cast<long long>(i) * g.lda + kk] : M::pad_a();
    }
#pragma unroll
    for (int p = 0; p < kBRows; ++p)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int kk = k0 + b_row + 8 * p, j = col0 + b_col + q;
        b_next[p][q] = kk < k && j < g.n ? b[static_cast<long long>(kk) * g.ldb + j] : M::pad_b();
      }
  };
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int r = 0; r < kALoads; ++r) as[buf][a_col][a_row + kARows * r] = a_next[r];
#pragma unroll
    for (int p = 0; p < kBRows; ++p)
#pragma unroll
      for (int q = 0; q < 4; ++q) bs[buf][b_row + 8 * p][b_col + q] = b_next[p][q];
  };

  T acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = M::zero();

  const int tiles = (k + BK - 1) / BK;
  if (tiles > 0) {
    load_tile(0);
    store_tile(0);
  }
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    const int buf = t & 1;
    if (t + 1 < tiles) load_tile((t + 1) * BK);
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      T fa[8], fb[8];
      load4(&as[buf][kk][ty * 4], fa);
      load4(&as[buf][kk][64 + ty * 4], fa + 4);
      load4(&bs[buf][kk][tx * 4], fb);
      load4(&bs[buf][kk][64 + tx * 4], fb + 4);
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = M::apply(acc[i][j], fa[i], fb[j]);
    }
    if (t + 1 < tiles) store_tile(buf ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    if (row >= g.m) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int col = col0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4);
      if (col >= g.n) continue;
      T* to = c + static_cast<long long>(row) * g.ldc + col;
      if constexpr (M::kSplits) {
        if (g.splits > 1) {
          M::add_to(to, acc[i][j]);
          continue;
        }
      }
      *to = acc[i][j];
    }
  }
}

}  // namespace gdp::semiring::gpu
