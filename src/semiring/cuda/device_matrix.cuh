#pragma once
// gpu-mm's device pieces (cuda/gpu_multiply.cu, cuda/spread_products.cu):
// device matrices, the elementwise kernels, cuBLAS's launches and the
// recursion's device backend (recursive.hpp), where a quadrant is a view
// and only sums and products allocate.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "semiring/cuda/classic_launch.hpp"
#include "semiring/cuda/cublas_library.hpp"
#include "semiring/gpu.hpp"

namespace gdp::semiring::device {

inline void check_cublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw RunError(std::string("out of GPU memory (") + what + ")");
  throw RunError(std::string("cuBLAS error in ") + what + ": " + CublasLibrary::get().status_string(status));
}

// Throws InputError for products multiply_gpu cannot run: no inputs, shapes
// that do not chain, the recursion outside plus-times, cuBLAS where it has
// no product, sides of 2^31 or more.
template <class T>
void check_request(const std::vector<Matrix<T>>& as, const std::vector<Matrix<T>>& bs, const GpuRequest& r) {
  if (as.size() != bs.size() || as.empty()) throw InputError("multiply_gpu: one B for every A");
  const std::int64_t m = as[0].rows, k = as[0].cols, n = bs[0].cols;
  for (std::size_t i = 0; i < as.size(); ++i)
    if (as[i].rows != m || as[i].cols != k || bs[i].rows != k || bs[i].cols != n)
      throw InputError("shapes do not chain: " + std::to_string(as[i].rows) + " x " + std::to_string(as[i].cols) +
                       " times " + std::to_string(bs[i].rows) + " x " + std::to_string(bs[i].cols));
  const bool recursive = r.algo == GpuAlgo::strassen || r.algo == GpuAlgo::winograd;
  if (recursive && r.semiring != Semiring::plus_times)
    throw InputError(std::string(to_string(r.algo)) + " needs subtraction: it runs plus-times only");
  if ((r.algo == GpuAlgo::cublas || (recursive && r.cublas_base)) && !cublas_has<T>(r.semiring))
    throw InputError("cuBLAS has plus-times on f32 and f64 only");
  if (m >= (1LL << 31) || n >= (1LL << 31) || k >= (1LL << 31)) throw InputError("sides of 2^31 or more are not supported");
}

// A rows x cols view into device memory with row stride ld; the storage is
// shared by the views into it and freed with the last, on the device that
// holds it whichever device is current then.
template <class T>
struct DeviceMatrix {
  std::shared_ptr<T> storage;
  T* ptr = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0;

  static DeviceMatrix make(std::int64_t rows, std::int64_t cols) {
    DeviceMatrix m;
    m.rows = rows, m.cols = cols, m.ld = std::max<std::int64_t>(cols, 1);
    T* p = nullptr;
    int device = 0;
    cuda::check(cudaGetDevice(&device), "cudaGetDevice");
    if (rows * cols > 0)
      cuda::check(cudaMallocAsync(reinterpret_cast<void**>(&p), static_cast<std::size_t>(rows * cols) * sizeof(T), 0),
                  "cudaMallocAsync");
    m.storage = std::shared_ptr<T>(p, [device](T* q) {
      if (!q) return;
      int current = device;
      cudaGetDevice(&current);
      if (current != device) cudaSetDevice(device);
      cudaFreeAsync(q, 0);
      if (current != device) cudaSetDevice(current);
    });
    m.ptr = p;
    return m;
  }
};

// z = x + y or x - y, elementwise; integers wrap.
template <class T, bool Subtract>
__global__ void combine_kernel(const T* x, std::int64_t ldx, const T* y, std::int64_t ldy, T* z, std::int64_t rows,
                               std::int64_t cols) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  for (std::int64_t i = blockIdx.y; i < rows; i += gridDim.y) {
    if (j >= cols) return;
    const T a = x[i * ldx + j], b = y[i * ldy + j];
    if constexpr (std::is_integral_v<T>)
      z[i * cols + j] = static_cast<T>(Subtract ? static_cast<unsigned>(a) - static_cast<unsigned>(b)
                                                : static_cast<unsigned>(a) + static_cast<unsigned>(b));
    else
      z[i * cols + j] = Subtract ? a - b : a + b;
  }
}

// dst (rows x cols, row stride ld_dst) = src's cells (i, j) for i < src_rows,
// j < src_cols, and zero elsewhere.
template <class T>
__global__ void copy_kernel(const T* src, std::int64_t ld_src, std::int64_t src_rows, std::int64_t src_cols, T* dst,
                            std::int64_t ld_dst, std::int64_t rows, std::int64_t cols) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  for (std::int64_t i = blockIdx.y; i < rows; i += gridDim.y) {
    if (j >= cols) return;
    dst[i * ld_dst + j] = i < src_rows && j < src_cols ? src[i * ld_src + j] : T{0};
  }
}

inline dim3 elementwise_grid(std::int64_t rows, std::int64_t cols) {
  return dim3(static_cast<unsigned>((cols + 255) / 256), static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)));
}

template <class T>
void copy(const DeviceMatrix<T>& src, std::int64_t src_rows, std::int64_t src_cols, T* dst, std::int64_t ld_dst,
          std::int64_t rows, std::int64_t cols) {
  if (rows * cols == 0) return;
  copy_kernel<<<elementwise_grid(rows, cols), 256>>>(src.ptr, src.ld, src_rows, src_cols, dst, ld_dst, rows, cols);
  cuda::check(cudaGetLastError(), "copy kernel");
}

// cuBLAS is column-major: row-major C = A B is column-major C^T = B^T A^T.
// Plus-times only; p.semiring and p.splits are not read.
template <class T>
void launch_cublas(cublasHandle_t h, const DeviceProduct<T>& p) {
  const std::int64_t m = p.m, k = p.k, n = p.n, batch = p.batch;
  const T *a = p.a.ptr, *b = p.b.ptr;
  T* c = p.c.ptr;
  const std::int64_t lda = p.a.ld, ldb = p.b.ld, ldc = p.c.ld;
  const std::int64_t stride_a = p.a.stride, stride_b = p.b.stride, stride_c = p.c.stride;
  if (m == 0 || n == 0 || batch == 0) return;
  const T one = 1, zero = 0;
  const int im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k);
  const CublasLibrary& cublas = CublasLibrary::get();
  if constexpr (std::is_same_v<T, float>) {
    if (batch == 1)
      check_cublas(cublas.sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &one, b, static_cast<int>(ldb), a,
                               static_cast<int>(lda), &zero, c, static_cast<int>(ldc)), "cublasSgemm");
    else
      check_cublas(cublas.sgemm_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &one, b, static_cast<int>(ldb),
                                             stride_b, a, static_cast<int>(lda), stride_a, &zero, c,
                                             static_cast<int>(ldc), stride_c, static_cast<int>(batch)),
                   "cublasSgemmStridedBatched");
  } else if constexpr (std::is_same_v<T, double>) {
    if (batch == 1)
      check_cublas(cublas.dgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &one, b, static_cast<int>(ldb), a,
                               static_cast<int>(lda), &zero, c, static_cast<int>(ldc)), "cublasDgemm");
    else
      check_cublas(cublas.dgemm_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &one, b, static_cast<int>(ldb),
                                             stride_b, a, static_cast<int>(lda), stride_a, &zero, c,
                                             static_cast<int>(ldc), stride_c, static_cast<int>(batch)),
                   "cublasDgemmStridedBatched");
  } else {
    throw InputError("cuBLAS has no int32 product");
  }
}

// The recursion's device backend (recursive.hpp): quadrants are views,
// odd sides are padded by a copy, sums and products allocate.
template <class T>
struct DeviceBackend {
  using Matrix = DeviceMatrix<T>;
  cublasHandle_t cublas = nullptr;  // base products by cuBLAS when set

  static std::int64_t rows(const Matrix& m) { return m.rows; }
  static std::int64_t cols(const Matrix& m) { return m.cols; }
  static Matrix padded(const Matrix& m) {
    if (m.rows % 2 == 0 && m.cols % 2 == 0) return m;
    Matrix p = Matrix::make(m.rows + m.rows % 2, m.cols + m.cols % 2);
    copy(m, m.rows, m.cols, p.ptr, p.ld, p.rows, p.cols);
    return p;
  }
  static Matrix quadrant(const Matrix& m, int qi, int qj) {
    Matrix q = m;
    q.rows = m.rows / 2, q.cols = m.cols / 2;
    q.ptr = m.ptr + qi * q.rows * m.ld + qj * q.cols;
    return q;
  }
  template <bool Subtract>
  static Matrix combine(const Matrix& x, const Matrix& y) {
    Matrix z = Matrix::make(x.rows, x.cols);
    if (z.rows * z.cols > 0) {
      combine_kernel<T, Subtract><<<elementwise_grid(z.rows, z.cols), 256>>>(x.ptr, x.ld, y.ptr, y.ld, z.ptr, z.rows, z.cols);
      cuda::check(cudaGetLastError(), "combine kernel");
    }
    return z;
  }
  static Matrix add(const Matrix& x, const Matrix& y) { return combine<false>(x, y); }
  static Matrix sub(const Matrix& x, const Matrix& y) { return combine<true>(x, y); }
  Matrix base(const Matrix& a, const Matrix& b) const {
    Matrix c = Matrix::make(a.rows, b.cols);
    const DeviceProduct<T> p{.semiring = Semiring::plus_times,
                             .m = a.rows,
                             .k = a.cols,
                             .n = b.cols,
                             .a = {.ptr = a.ptr, .ld = a.ld},
                             .b = {.ptr = b.ptr, .ld = b.ld},
                             .c = {.ptr = c.ptr, .ld = c.ld}};
    if (cublas)
      launch_cublas(cublas, p);
    else
      launch_classic(p);
    return c;
  }
  static Matrix assemble(const Matrix& c11, const Matrix& c12, const Matrix& c21, const Matrix& c22,
                         std::int64_t rows, std::int64_t cols) {
    Matrix c = Matrix::make(rows, cols);
    const std::int64_t h = c11.rows, w = c11.cols;
    copy(c11, h, w, c.ptr, c.ld, std::min(h, rows), std::min(w, cols));
    if (cols > w) copy(c12, h, w, c.ptr + w, c.ld, std::min(h, rows), cols - w);
    if (rows > h) copy(c21, h, w, c.ptr + h * c.ld, c.ld, rows - h, std::min(w, cols));
    if (rows > h && cols > w) copy(c22, h, w, c.ptr + h * c.ld + w, c.ld, rows - h, cols - w);
    return c;
  }
};

// The process's cuBLAS handle on a device, made on first use and kept:
// cublasCreate synchronizes the device, so it is not made for every
// product, nor by threads at once. cuBLAS calls from several threads may
// share a handle whose settings do not change (these never do). Sets the
// device current.
inline cublasHandle_t cublas_handle(int device) {
  static std::mutex mutex;
  static std::map<int, cublasHandle_t> handles;
  const std::lock_guard lock(mutex);
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  cublasHandle_t& h = handles[device];
  if (!h) check_cublas(CublasLibrary::get().create(&h), "cublasCreate");
  return h;
}

}  // namespace gdp::semiring::device
