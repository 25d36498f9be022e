// gpu-mm's GPU engine on one device (semiring/gpu.hpp): the inputs
// uploaded, the classical kernel, cuBLAS or the recursion of recursive.hpp
// run on them (the pieces are cuda/device_matrix.cuh's), the products
// brought back.
#include <algorithm>
#include <memory>
#include <string>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "semiring/cuda/device_matrix.cuh"
#include "semiring/gpu.hpp"
#include "semiring/recursive.hpp"

namespace gdp::semiring {

using namespace device;

template <class T>
std::vector<Matrix<T>> multiply_gpu(const std::vector<Matrix<T>>& as, const std::vector<Matrix<T>>& bs,
                                    const GpuRequest& r, double& seconds) {
  check_request(as, bs, r);
  const std::int64_t m = as[0].rows, k = as[0].cols, n = bs[0].cols, batch = static_cast<std::int64_t>(as.size());
  const bool recursive = r.algo == GpuAlgo::strassen || r.algo == GpuAlgo::winograd;

  cuda::check(cudaSetDevice(r.device), "cudaSetDevice");
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const double need = static_cast<double>(batch) * static_cast<double>(m * k + k * n + m * n) * sizeof(T);
  if (need > static_cast<double>(free_bytes))
    throw InputError("the matrices need " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                   " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free");

  // Inputs and outputs, each batch in one block of device memory, each
  // matrix starting on 256 bytes: cuBLAS may choose its kernel by the
  // pointers' alignment, which must not depend on where a batch was cut
  // (multiply_gpus).
  const std::int64_t align = 256 / static_cast<std::int64_t>(sizeof(T));
  auto aligned = [&](std::int64_t cells) { return (cells + align - 1) / align * align; };
  const std::int64_t sa = aligned(m * k), sb = aligned(k * n), sc = aligned(m * n);
  auto a = DeviceMatrix<T>::make(batch, sa), b = DeviceMatrix<T>::make(batch, sb);
  auto c = DeviceMatrix<T>::make(batch, sc);
  for (std::int64_t i = 0; i < batch; ++i) {
    cuda::check(cudaMemcpy(a.ptr + i * sa, as[i].data.data(), as[i].data.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda::check(cudaMemcpy(b.ptr + i * sb, bs[i].data.data(), bs[i].data.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  const cublasHandle_t handle =
      r.algo == GpuAlgo::cublas || (recursive && r.cublas_base) ? cublas_handle(r.device) : nullptr;

  auto run = [&] {
    switch (r.algo) {
      case GpuAlgo::classic:
        launch_classic(DeviceProduct<T>{.semiring = r.semiring,
                                        .m = m,
                                        .k = k,
                                        .n = n,
                                        .batch = batch,
                                        .a = {.ptr = a.ptr, .ld = k, .stride = sa},
                                        .b = {.ptr = b.ptr, .ld = n, .stride = sb},
                                        .c = {.ptr = c.ptr, .ld = n, .stride = sc}});
        break;
      case GpuAlgo::cublas: {  // in cublas_pieces' pieces
        const CublasPieces pieces = cublas_pieces(m, n);
        for (std::int64_t i = 0; i < batch; i += pieces.products)
          for (std::int64_t row = 0; row < m; row += pieces.rows)
            launch_cublas(handle, DeviceProduct<T>{.m = std::min(pieces.rows, m - row),
                                                      .k = k,
                                                      .n = n,
                                                      .batch = std::min(pieces.products, batch - i),
                                                      .a = {.ptr = a.ptr + i * sa + row * k, .ld = std::max<std::int64_t>(k, 1), .stride = sa},
                                                      .b = {.ptr = b.ptr + i * sb, .ld = n, .stride = sb},
                                                      .c = {.ptr = c.ptr + i * sc + row * n, .ld = n, .stride = sc}});
        break;
      }
      case GpuAlgo::strassen:
      case GpuAlgo::winograd: {
        const DeviceBackend<T> backend{handle};
        const StrassenRecursion<DeviceBackend<T>> recursion{backend, r.algo == GpuAlgo::winograd};
        for (std::int64_t i = 0; i < batch; ++i) {
          DeviceMatrix<T> ai = a, bi = b;
          ai.ptr = a.ptr + i * sa, ai.rows = m, ai.cols = ai.ld = k;
          bi.ptr = b.ptr + i * sb, bi.rows = k, bi.cols = bi.ld = n;
          const DeviceMatrix<T> ci = recursion.multiply(ai, bi, r.levels);
          copy(ci, m, n, c.ptr + i * sc, n, m, n);
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
      cuda::check(cudaMemcpy(ci.data.data(), c.ptr + i * sc, ci.data.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
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
