// gpu-mm's GPU engine (semiring/gpu.hpp): device matrices, cuBLAS, and the
// recursion of recursive.hpp on the device, where a quadrant is a view and
// only sums and products allocate; the classical kernel's launches are
// cuda/classic_products.cu's.
#include <algorithm>
#include <memory>
#include <string>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "semiring/cuda/classic_launch.hpp"
#include "semiring/cuda/cublas_library.hpp"
#include "semiring/gpu.hpp"
#include "semiring/recursive.hpp"

namespace gdp::semiring {
namespace {

void check_cublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw RunError(std::string("out of GPU memory (") + what + ")");
  throw RunError(std::string("cuBLAS error in ") + what + ": " + CublasLibrary::get().status_string(status));
}

// A rows x cols view into device memory with row stride ld; the storage is
// shared by the views into it and freed with the last.
template <class T>
struct DeviceMatrix {
  std::shared_ptr<T> storage;
  T* ptr = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0;

  static DeviceMatrix make(std::int64_t rows, std::int64_t cols) {
    DeviceMatrix m;
    m.rows = rows, m.cols = cols, m.ld = std::max<std::int64_t>(cols, 1);
    T* p = nullptr;
    if (rows * cols > 0)
      cuda::check(cudaMallocAsync(reinterpret_cast<void**>(&p), static_cast<std::size_t>(rows * cols) * sizeof(T), 0),
                  "cudaMallocAsync");
    m.storage = std::shared_ptr<T>(p, [](T* q) { if (q) cudaFreeAsync(q, 0); });
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

dim3 elementwise_grid(std::int64_t rows, std::int64_t cols) {
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

struct CublasHandle {
  cublasHandle_t h = nullptr;
  CublasHandle() { check_cublas(CublasLibrary::get().create(&h), "cublasCreate"); }
  ~CublasHandle() { CublasLibrary::get().destroy(h); }
};

}  // namespace

template <class T>
std::vector<Matrix<T>> multiply_gpu(const std::vector<Matrix<T>>& as, const std::vector<Matrix<T>>& bs,
                                    const GpuRequest& r, double& seconds) {
  if (as.size() != bs.size() || as.empty()) throw InputError("multiply_gpu: one B for every A");
  const std::int64_t m = as[0].rows, k = as[0].cols, n = bs[0].cols, batch = static_cast<std::int64_t>(as.size());
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

  cuda::check(cudaSetDevice(r.device), "cudaSetDevice");
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const double need = static_cast<double>(batch) * static_cast<double>(m * k + k * n + m * n) * sizeof(T);
  if (need > static_cast<double>(free_bytes))
    throw InputError("the matrices need " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                   " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free");

  // Inputs and outputs, each batch in one block of device memory.
  auto a = DeviceMatrix<T>::make(batch * m, k), b = DeviceMatrix<T>::make(batch * k, n);
  auto c = DeviceMatrix<T>::make(batch * m, n);
  for (std::int64_t i = 0; i < batch; ++i) {
    cuda::check(cudaMemcpy(a.ptr + i * m * k, as[i].data.data(), as[i].data.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda::check(cudaMemcpy(b.ptr + i * k * n, bs[i].data.data(), bs[i].data.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::unique_ptr<CublasHandle> handle;
  if (r.algo == GpuAlgo::cublas || (recursive && r.cublas_base)) handle = std::make_unique<CublasHandle>();

  auto run = [&] {
    switch (r.algo) {
      case GpuAlgo::classic:
        launch_classic(DeviceProduct<T>{.semiring = r.semiring,
                                        .m = m,
                                        .k = k,
                                        .n = n,
                                        .batch = batch,
                                        .a = {.ptr = a.ptr, .ld = k, .stride = m * k},
                                        .b = {.ptr = b.ptr, .ld = n, .stride = k * n},
                                        .c = {.ptr = c.ptr, .ld = n, .stride = m * n}});
        break;
      case GpuAlgo::cublas:
        launch_cublas(handle->h, DeviceProduct<T>{.m = m,
                                                  .k = k,
                                                  .n = n,
                                                  .batch = batch,
                                                  .a = {.ptr = a.ptr, .ld = std::max<std::int64_t>(k, 1), .stride = m * k},
                                                  .b = {.ptr = b.ptr, .ld = n, .stride = k * n},
                                                  .c = {.ptr = c.ptr, .ld = n, .stride = m * n}});
        break;
      case GpuAlgo::strassen:
      case GpuAlgo::winograd: {
        const DeviceBackend<T> backend{handle ? handle->h : nullptr};
        const StrassenRecursion<DeviceBackend<T>> recursion{backend, r.algo == GpuAlgo::winograd};
        for (std::int64_t i = 0; i < batch; ++i) {
          DeviceMatrix<T> ai = a, bi = b;
          ai.ptr = a.ptr + i * m * k, ai.rows = m;
          bi.ptr = b.ptr + i * k * n, bi.rows = k;
          const DeviceMatrix<T> ci = recursion.multiply(ai, bi, r.levels);
          copy(ci, m, n, c.ptr + i * m * n, n, m, n);
        }
        break;
      }
    }
  };
  cuda::KernelTimer timer;
  seconds = 0;
  for (int rep = 0; rep < std::max(r.repeat, 1); ++rep) {
    timer.start();
    run();
    const double s = timer.stop_seconds();
    seconds = rep == 0 ? s : std::min(seconds, s);
  }
  cuda::check(cudaDeviceSynchronize(), "the products");

  std::vector<Matrix<T>> out;
  out.reserve(static_cast<std::size_t>(batch));
  for (std::int64_t i = 0; i < batch; ++i) {
    Matrix<T> ci(m, n);
    if (m * n > 0)
      cuda::check(cudaMemcpy(ci.data.data(), c.ptr + i * m * n, ci.data.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    out.push_back(std::move(ci));
  }
  return out;
}

template std::vector<Matrix<float>> multiply_gpu(const std::vector<Matrix<float>>&, const std::vector<Matrix<float>>&,
                                                 const GpuRequest&, double&);
template std::vector<Matrix<double>> multiply_gpu(const std::vector<Matrix<double>>&,
                                                  const std::vector<Matrix<double>>&, const GpuRequest&, double&);
template std::vector<Matrix<std::int32_t>> multiply_gpu(const std::vector<Matrix<std::int32_t>>&,
                                                        const std::vector<Matrix<std::int32_t>>&, const GpuRequest&,
                                                        double&);

}  // namespace gdp::semiring
