// Builds without CUDA: gpu-mm runs its CPU algorithms only.
#include "core/error.hpp"
#include "semiring/gpu.hpp"

namespace gdp::semiring {

void multiply_device_i32(Semiring, const std::int32_t*, const std::int32_t*, std::int32_t*, std::int64_t, std::int64_t,
                         std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                         std::int64_t, std::int64_t) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

void accumulate_device_i32(Semiring, const std::int32_t*, const std::int32_t*, std::int32_t*, std::int64_t,
                           std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                           std::int64_t, std::int64_t, std::int64_t, int) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

Matrix<std::int32_t> accumulate_gpu(Semiring, const Matrix<std::int32_t>&, const Matrix<std::int32_t>&,
                                    const Matrix<std::int32_t>&, int, int) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

void accumulate_triangle_u16(std::uint16_t*, const BlockRowTriangle&, std::int64_t, int, int) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

std::vector<std::uint16_t> accumulate_triangle_gpu(const std::vector<std::uint16_t>&, const BlockRowTriangle&,
                                                   std::int64_t, int, int, int) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

std::size_t gpu_free_memory(int) { throw RunError("this build of gpu-dp has no CUDA: use --cpu"); }

template <class T>
std::vector<Matrix<T>> multiply_gpu(const std::vector<Matrix<T>>&, const std::vector<Matrix<T>>&, const GpuRequest&,
                                    double&) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

template std::vector<Matrix<float>> multiply_gpu(const std::vector<Matrix<float>>&, const std::vector<Matrix<float>>&,
                                                 const GpuRequest&, double&);
template std::vector<Matrix<double>> multiply_gpu(const std::vector<Matrix<double>>&,
                                                  const std::vector<Matrix<double>>&, const GpuRequest&, double&);
template std::vector<Matrix<std::int32_t>> multiply_gpu(const std::vector<Matrix<std::int32_t>>&,
                                                        const std::vector<Matrix<std::int32_t>>&, const GpuRequest&,
                                                        double&);

}  // namespace gdp::semiring
