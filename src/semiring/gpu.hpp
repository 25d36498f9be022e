#pragma once
// gpu-mm's GPU engine (cuda/gpu_multiply.cu): the classical product on CUDA
// cores in any semiring (cuda/gemm_kernel.cuh), cuBLAS for plus-times on
// floats, and Strassen's and Winograd's recursion (recursive.hpp) on the
// device. Plain C++: no CUDA types. A build without CUDA declares these
// functions but does not define them: callers test gdp::have_cuda
// (core/build.hpp) with `if constexpr`.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "semiring/semiring.hpp"
#include "semiring/triangle.hpp"

namespace gdp::semiring {

enum class GpuAlgo { classic, cublas, strassen, winograd };
std::string_view to_string(GpuAlgo a);

// cuBLAS has plus-times on f32 and f64 only.
template <class T>
bool cublas_has(Semiring s) {
  return s == Semiring::plus_times && std::is_floating_point_v<T>;
}

// cuBLAS's products run in pieces that depend on the shape only, not on
// how many products or rows a device holds: blocks of `rows` rows of C (a
// multiple of 256, at least 4096 and 2^24 cells), or, where a product is
// one block, `products` products of a batch a call (at least 2^24 cells of
// C). multiply_gpus deals whole pieces, so that cuBLAS, which chooses its
// kernel by the shape, runs the same calls on one device or several.
struct CublasPieces {
  std::int64_t rows = 0, products = 1;
};
inline CublasPieces cublas_pieces(std::int64_t m, std::int64_t n) {
  constexpr std::int64_t cells = std::int64_t{1} << 24;
  const std::int64_t wide = std::max<std::int64_t>(n, 1);
  const std::int64_t rows = (std::max<std::int64_t>(4096, (cells + wide - 1) / wide) + 255) / 256 * 256;
  const std::int64_t products = m > rows ? 1 : std::max<std::int64_t>(1, cells / std::max<std::int64_t>(m * wide, 1));
  return {rows, products};
}

struct GpuRequest {
  Semiring semiring = Semiring::plus_times;
  GpuAlgo algo = GpuAlgo::classic;
  int levels = 1;            // strassen, winograd: 1 to 4
  bool cublas_base = false;  // strassen, winograd: base products by cuBLAS instead of the classical kernel
  int device = 0;
  int repeat = 1;            // run the products this many times and keep the fastest time
};

// Free memory on the device, in bytes. Throws RunError when CUDA fails.
std::size_t gpu_free_memory(int device);

// C[i] = A[i] (x) B[i] for every i; all A, and all B, of one shape. The
// classical kernel and cuBLAS run a batch as one launch; the recursive
// products one product at a time. `seconds`: device time of the fastest
// run, inputs already on the device. Throws InputError when the shapes
// do not chain or the request is not possible (the recursion for another
// semiring, cuBLAS for i32), RunError when device memory is short or CUDA
// fails.
template <class T>
std::vector<Matrix<T>> multiply_gpu(const std::vector<Matrix<T>>& a, const std::vector<Matrix<T>>& b,
                                    const GpuRequest& request, double& seconds);

// The same products over several devices at once (cuda/spread_products.cu),
// the bits the same as multiply_gpu's on one device: a batch is dealt in
// contiguous parts, one a device; one product of the classical kernel or
// cuBLAS is cut into blocks of C's rows (of 256 rows, or whole
// cublas_pieces), one a device; one product by Strassen or Winograd has
// its top level's seven products dealt over the devices and combined on
// the first (the others' products copied to it peer to peer, or through
// the host where the devices have no peer access). `seconds`: the fastest
// run, the devices side by side: for the parts, the slowest device's time;
// for a spread recursion, the time from the first launch until the
// combined C is done. `request.device` is not read. Throws as multiply_gpu
// does; std::logic_error for no devices.
template <class T>
std::vector<Matrix<T>> multiply_gpus(const std::vector<Matrix<T>>& a, const std::vector<Matrix<T>>& b,
                                     const GpuRequest& request, const std::vector<int>& devices, double& seconds);

// A batch of row-major matrices in device memory: matrix i of the batch
// starts at ptr + i * stride, and its rows are ld elements apart.
template <class T>
struct DeviceBatch {
  T* ptr = nullptr;
  std::int64_t ld = 0;
  std::int64_t stride = 0;
};

// The arguments of a product on matrices already on the device: `batch`
// products of A (m x k) and B (k x n) into C (m x n), each side's matrices
// as DeviceBatch says. Built with designated initialisers:
//   accumulate_device_i32({.semiring = Semiring::max_plus, .m = 128, ...,
//                          .a = {.ptr = a, .ld = lda, .stride = sa}, ...});
template <class T>
struct DeviceProduct {
  Semiring semiring = Semiring::plus_times;
  std::int64_t m = 0, k = 0, n = 0;
  std::int64_t batch = 1;
  DeviceBatch<const T> a{}, b{};
  DeviceBatch<T> c{};
  int splits = 1;  // accumulate_device_i32: slices of k, 1 to 65,535; multiply_device_i32: 1
};
using DeviceProductI32 = DeviceProduct<std::int32_t>;

// C = A (x) B by the classical kernel on int32 matrices already on the
// device, on the default stream: for engines that keep their matrices on
// the GPU, such as gpu-fold's blocked Nussinov. Throws RunError for splits
// other than 1 or a failed launch.
void multiply_device_i32(const DeviceProductI32& product);

// C = C (+) A (x) B in max-plus or min-plus (RunError for plus-times), the
// same way, with k cut into `splits` slices computed at once and added into
// C by atomic max or min: many blocks for a few products of long k. C must
// hold what the products add to (the semiring's zero for the product alone).
// Throws RunError for splits outside 1..65,535 or a failed launch.
void accumulate_device_i32(const DeviceProductI32& product);

// Max-plus inside a triangle of 16-bit unsigned values on the device, kept
// by block rows of 128 (triangle.hpp), two cells an instruction: for every
// block (I, J = I + d) of diagonal d >= 2 at once,
//   C(I, J) = C(I, J) (+) A (x) B, with A = block row I's columns
//   (I+1)*128 .. J*128 - 1 and B = rows (I+1)*128 + row_shift ..
//   J*128 - 1 + row_shift of block column J,
// with k cut into `splits` slices added in by atomic max. gpu-fold's
// blocked Nussinov takes row_shift 1 (C(i,k) + C(k+1,j)). Values are
// non-negative and every sum must stay below 65,536: the caller's to ensure
// (16-bit sums wrap). Throws RunError for another block size, a row shift
// other than 0 or 1, or a failed launch.
void accumulate_triangle_u16(std::uint16_t* t, const BlockRowTriangle& layout, std::int64_t d, int row_shift,
                             int splits);
// The same from a host copy of the triangle (tests); returns the result.
std::vector<std::uint16_t> accumulate_triangle_gpu(const std::vector<std::uint16_t>& t, const BlockRowTriangle& layout,
                                                   std::int64_t d, int row_shift, int splits, int device = 0);

// The same from host matrices: C (+) A (x) B, A m x k, B k x n, C m x n.
Matrix<std::int32_t> accumulate_gpu(Semiring s, const Matrix<std::int32_t>& a, const Matrix<std::int32_t>& b,
                                    const Matrix<std::int32_t>& c, int splits, int device = 0);

}  // namespace gdp::semiring
