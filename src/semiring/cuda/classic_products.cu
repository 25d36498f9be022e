// The classical max-plus/min-plus/plus-times kernel's launches on device
// matrices (semiring/gpu.hpp): gpu-mm's `classic` and the base products of
// its recursion (cuda/gpu_multiply.cu), and the int32 products that
// engines keeping their matrices on the GPU call, such as gpu-fold's
// blocked Nussinov. No cuBLAS here, so a tool that needs only these does
// not load it.
#include <algorithm>
#include <cstdint>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "semiring/cuda/classic_launch.hpp"
#include "semiring/cuda/gemm_kernel.cuh"
#include "semiring/gpu.hpp"

namespace gdp::semiring {

template <class T>
void launch_classic(const DeviceProduct<T>& p) {
  const std::int64_t m = p.m, k = p.k, n = p.n, batch = p.batch;
  const int splits = p.splits;
  if (m == 0 || n == 0 || batch == 0) return;
  using gpu::GemmShape;
  const std::int64_t per_launch = 65535 / splits;  // blockIdx.z: product * splits + slice
  for (std::int64_t first = 0; first < batch; first += per_launch) {
    const std::int64_t count = std::min<std::int64_t>(batch - first, per_launch);
    const GemmShape g{static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), p.a.stride, p.b.stride, p.c.stride,
                      static_cast<int>(p.a.ld), static_cast<int>(p.b.ld), static_cast<int>(p.c.ld), splits};
    const dim3 grid(static_cast<unsigned>((n + gpu::kBN - 1) / gpu::kBN), static_cast<unsigned>((m + gpu::kBM - 1) / gpu::kBM),
                    static_cast<unsigned>(count * splits));
    const T* a0 = p.a.ptr + first * p.a.stride;
    const T* b0 = p.b.ptr + first * p.b.stride;
    T* c0 = p.c.ptr + first * p.c.stride;
    switch (p.semiring) {
      case Semiring::plus_times: gpu::gemm_kernel<T, Semiring::plus_times><<<grid, gpu::kThreads>>>(a0, b0, c0, g); break;
      case Semiring::max_plus: gpu::gemm_kernel<T, Semiring::max_plus><<<grid, gpu::kThreads>>>(a0, b0, c0, g); break;
      case Semiring::min_plus: gpu::gemm_kernel<T, Semiring::min_plus><<<grid, gpu::kThreads>>>(a0, b0, c0, g); break;
    }
    cuda::check(cudaGetLastError(), "gemm kernel");
  }
}

template void launch_classic(const DeviceProduct<float>&);
template void launch_classic(const DeviceProduct<double>&);
template void launch_classic(const DeviceProduct<std::int32_t>&);

void multiply_device_i32(const DeviceProductI32& p) {
  if (p.splits != 1) throw RunError("multiply_device_i32: splits are for accumulate_device_i32");
  launch_classic(p);
}

void accumulate_device_i32(const DeviceProductI32& p) {
  if (p.semiring == Semiring::plus_times) throw RunError("accumulate_device_i32: max-plus or min-plus only");
  if (p.splits < 1 || p.splits > 65535) throw RunError("accumulate_device_i32: splits must lie within 1..65535");
  // One slice too goes through the atomic path, which adds into C.
  DeviceProductI32 sliced = p;
  sliced.splits = std::max(p.splits, 2);
  launch_classic(sliced);
}

Matrix<std::int32_t> accumulate_gpu(Semiring s, const Matrix<std::int32_t>& a, const Matrix<std::int32_t>& b,
                                    const Matrix<std::int32_t>& c, int splits, int device) {
  if (a.cols != b.rows || c.rows != a.rows || c.cols != b.cols) throw InputError("accumulate_gpu: shapes do not chain");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  auto to_device = [](const Matrix<std::int32_t>& x, cuda::DeviceArray<std::int32_t>& d) {
    d.reserve(std::max<std::size_t>(x.data.size(), 1));
    if (!x.data.empty())
      cuda::check(cudaMemcpy(d.get(), x.data.data(), x.data.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d.get();
  };
  cuda::DeviceArray<std::int32_t> da, db, dc;
  accumulate_device_i32({.semiring = s,
                         .m = a.rows,
                         .k = a.cols,
                         .n = b.cols,
                         .a = {.ptr = to_device(a, da), .ld = std::max<std::int64_t>(a.cols, 1)},
                         .b = {.ptr = to_device(b, db), .ld = std::max<std::int64_t>(b.cols, 1)},
                         .c = {.ptr = to_device(c, dc), .ld = std::max<std::int64_t>(c.cols, 1)},
                         .splits = splits});
  Matrix<std::int32_t> out(c.rows, c.cols);
  if (!out.data.empty())
    cuda::check(cudaMemcpy(out.data.data(), dc.get(), out.data.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
                "cudaMemcpy");
  return out;
}

std::size_t gpu_free_memory(int device) {
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return free_bytes;
}

}  // namespace gdp::semiring
