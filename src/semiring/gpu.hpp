#pragma once
// gpu-mm's GPU engine (cuda/gpu_multiply.cu): the classical product on CUDA
// cores in any semiring (cuda/gemm_kernel.cuh), cuBLAS for plus-times on
// floats, and Strassen's and Winograd's recursion (recursive.hpp) on the
// device. Plain C++: no CUDA types. Builds without CUDA throw RunError.
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

struct GpuRequest {
  Semiring semiring = Semiring::plus_times;
  GpuAlgo algo = GpuAlgo::classic;
  int levels = 1;            // strassen, winograd: 1 to 4
  bool cublas_base = false;  // strassen, winograd: base products by cuBLAS instead of the classical kernel
  int device = 0;
  int repeat = 1;            // run the products this many times and keep the fastest time
};

// C[i] = A[i] (x) B[i] for every i; all A, and all B, of one shape. The
// classical kernel and cuBLAS run a batch as one launch; the recursive
// products one product at a time. `seconds`: device time of the fastest
// run, inputs already on the device. Throws InputError when the shapes
// do not chain or the request is not possible (the recursion for another
// semiring, cuBLAS for i32), RunError when device memory is short or CUDA
// fails.
// Free memory on the device, in bytes.
std::size_t gpu_free_memory(int device);

template <class T>
std::vector<Matrix<T>> multiply_gpu(const std::vector<Matrix<T>>& a, const std::vector<Matrix<T>>& b,
                                    const GpuRequest& request, double& seconds);

// The classical kernel on int32 matrices already on the device (row-major,
// row strides ld*, `batch` products stride_* elements apart), on the
// default stream: for engines that keep their matrices on the GPU, such as
// gpu-fold's blocked Nussinov. Throws RunError when the launch fails.
void multiply_device_i32(Semiring s, const std::int32_t* a, const std::int32_t* b, std::int32_t* c, std::int64_t m,
                         std::int64_t k, std::int64_t n, std::int64_t lda, std::int64_t ldb, std::int64_t ldc,
                         std::int64_t batch, std::int64_t stride_a, std::int64_t stride_b, std::int64_t stride_c);

// C = C (+) A (x) B in max-plus or min-plus (RunError for plus-times), the
// same way, with k cut into `splits` slices computed at once and added into
// C by atomic max or min: many blocks for a few products of long k. C must
// hold what the products add to (the semiring's zero for the product alone).
void accumulate_device_i32(Semiring s, const std::int32_t* a, const std::int32_t* b, std::int32_t* c, std::int64_t m,
                           std::int64_t k, std::int64_t n, std::int64_t lda, std::int64_t ldb, std::int64_t ldc,
                           std::int64_t batch, std::int64_t stride_a, std::int64_t stride_b, std::int64_t stride_c,
                           int splits);

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
