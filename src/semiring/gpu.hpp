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

// The same from host matrices: C (+) A (x) B, A m x k, B k x n, C m x n.
Matrix<std::int32_t> accumulate_gpu(Semiring s, const Matrix<std::int32_t>& a, const Matrix<std::int32_t>& b,
                                    const Matrix<std::int32_t>& c, int splits, int device = 0);

}  // namespace gdp::semiring
