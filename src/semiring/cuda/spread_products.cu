// gpu-mm over several devices (semiring/gpu.hpp, multiply_gpus): a batch
// dealt in contiguous parts and one classical or cuBLAS product cut into
// blocks of C's rows, each part run by multiply_gpu on its own device; one
// recursive product's top level spread, its seven products computed where
// the devices are and combined on the first. Every product's bits are the
// ones a single device gives: the classical kernel computes each element
// over the same k in the same order wherever the element lies, the parts
// of a cuBLAS product are whole pieces of the calls one device makes
// (cublas_pieces), and the recursion's products and sums are the same
// launches wherever they run.
#include <algorithm>
#include <array>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "semiring/cuda/device_matrix.cuh"
#include "semiring/gpu.hpp"
#include "semiring/recursive.hpp"

namespace gdp::semiring {
namespace {

using namespace device;

// Rows of C a part of the classical kernel's product holds (but the last):
// whole tiles of its (128 rows high).
constexpr std::int64_t kClassicRows = 256;

// [begin, end) of each part when `count` units are cut into at most
// `parts` contiguous pieces of about equal size.
std::vector<std::pair<std::int64_t, std::int64_t>> contiguous_parts(std::int64_t count, std::int64_t parts) {
  parts = std::max<std::int64_t>(1, std::min(parts, count));
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (std::int64_t p = 0; p < parts; ++p) out.emplace_back(count * p / parts, count * (p + 1) / parts);
  return out;
}

template <class T>
Matrix<T> rows_of(const Matrix<T>& a, std::int64_t begin, std::int64_t end) {
  Matrix<T> part;
  part.rows = end - begin, part.cols = a.cols;
  part.data.assign(a.data.begin() + begin * a.cols, a.data.begin() + end * a.cols);
  return part;
}

// Runs multiply_gpu on each device's part at once; `seconds` the slowest
// device's time (the devices run side by side).
template <class T>
std::vector<std::vector<Matrix<T>>> parts_on_devices(const std::vector<std::vector<Matrix<T>>>& as,
                                                     const std::vector<std::vector<Matrix<T>>>& bs,
                                                     const GpuRequest& r, const std::vector<int>& devices,
                                                     double& seconds) {
  std::vector<std::future<std::pair<std::vector<Matrix<T>>, double>>> runs;
  for (std::size_t p = 0; p < as.size(); ++p)
    runs.push_back(std::async(std::launch::async, [&, p] {
      GpuRequest on = r;
      on.device = devices[p];
      double s = 0;
      auto c = multiply_gpu(as[p], bs[p], on, s);
      return std::make_pair(std::move(c), s);
    }));
  std::vector<std::vector<Matrix<T>>> out;
  seconds = 0;
  for (auto& run : runs) run.wait();  // every run ends before an error is passed on
  for (auto& run : runs) {
    auto [c, s] = run.get();
    out.push_back(std::move(c));
    seconds = std::max(seconds, s);
  }
  return out;
}

// One device's share of a recursive product: A and B uploaded, and the
// top level's products it computes.
template <class T>
struct Share {
  int device = 0;
  DeviceMatrix<T> a, b;
  cublasHandle_t cublas = nullptr;
  std::vector<int> products;  // numbers 0..6 of recursive.hpp's products
};

template <class T>
DeviceMatrix<T> upload(const Matrix<T>& m) {
  DeviceMatrix<T> d = DeviceMatrix<T>::make(m.rows, m.cols);
  if (!m.data.empty())
    cuda::check(cudaMemcpy(d.ptr, m.data.data(), m.data.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

void require_memory(int device, double bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (bytes > static_cast<double>(free_bytes))
    throw InputError("the matrices need " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
                     " MiB of GPU memory on device " + std::to_string(device) + "; " +
                     std::to_string(free_bytes >> 20) + " MiB are free");
}

// One product by Strassen's or Winograd's recursion, its top level's seven
// products dealt over the devices (the first device gets the fewest, as it
// combines them afterwards).
template <class T>
Matrix<T> recursive_over_devices(const Matrix<T>& a, const Matrix<T>& b, const GpuRequest& r,
                                 const std::vector<int>& devices, double& seconds) {
  using Recursion = StrassenRecursion<DeviceBackend<T>>;
  const bool winograd = r.algo == GpuAlgo::winograd;
  const bool use_cublas = r.cublas_base;
  const std::size_t used = std::min<std::size_t>(devices.size(), Recursion::products);
  std::vector<Share<T>> shares(used);
  for (int p = 0; p < Recursion::products; ++p) shares[static_cast<std::size_t>(p + 1) % used].products.push_back(p);
  for (std::size_t i = 0; i < used; ++i) {  // one device after another
    Share<T>& s = shares[i];
    s.device = devices[i];
    cuda::check(cudaSetDevice(s.device), "cudaSetDevice");
    require_memory(s.device, static_cast<double>(a.rows * a.cols + b.rows * b.cols + a.rows * b.cols) * sizeof(T));
    s.a = upload(a), s.b = upload(b);
    if (use_cublas) s.cublas = cublas_handle(s.device);
  }
  for (std::size_t i = 1; i < used; ++i) enable_peer_access(devices.front(), devices[i]);  // the copies below

  cuda::check(cudaSetDevice(shares[0].device), "cudaSetDevice");
  const DeviceBackend<T> first{shares[0].cublas};
  const Recursion combiner{first, winograd};
  if (combiner.is_base(shares[0].a, shares[0].b, r.levels))
    throw std::logic_error("recursive_over_devices: the product has no level to spread");
  DeviceMatrix<T> c;
  seconds = 0;
  for (int rep = 0; rep < std::max(r.repeat, 1); ++rep) {
    Timer timer;
    std::array<DeviceMatrix<T>, Recursion::products> m;
    std::vector<std::future<void>> runs;
    for (std::size_t i = 0; i < used; ++i)
      runs.push_back(std::async(std::launch::async, [&, i] {
        const Share<T>& s = shares[i];
        cuda::check(cudaSetDevice(s.device), "cudaSetDevice");
        const DeviceBackend<T> backend{s.cublas};
        const Recursion recursion{backend, winograd};
        const typename Recursion::Quarters q = recursion.quarters(s.a, s.b);
        for (const int p : s.products) m[static_cast<std::size_t>(p)] = recursion.product(q, p, r.levels - 1);
        cuda::check(cudaDeviceSynchronize(), "the products");
      }));
    for (auto& run : runs) run.wait();
    for (auto& run : runs) run.get();

    // The other devices' products to the first; theirs are freed once the
    // copies are done.
    cuda::check(cudaSetDevice(shares[0].device), "cudaSetDevice");
    std::vector<DeviceMatrix<T>> copied_from;
    for (std::size_t i = 1; i < used; ++i)
      for (const int p : shares[i].products) {
        DeviceMatrix<T>& x = m[static_cast<std::size_t>(p)];
        if (x.rows * x.cols > 0 && x.ld != x.cols) throw std::logic_error("recursive_over_devices: a product is a view");
        DeviceMatrix<T> here = DeviceMatrix<T>::make(x.rows, x.cols);
        if (x.rows * x.cols > 0)
          cuda::check(cudaMemcpyPeerAsync(here.ptr, shares[0].device, x.ptr, shares[i].device,
                                          static_cast<std::size_t>(x.rows * x.cols) * sizeof(T), 0),
                      "cudaMemcpyPeerAsync");
        copied_from.push_back(std::move(x));
        x = std::move(here);
      }
    c = combiner.combine(m, a.rows, b.cols);
    cuda::check(cudaDeviceSynchronize(), "the combination");
    copied_from.clear();
    const double s = timer.seconds();
    seconds = rep == 0 ? s : std::min(seconds, s);
  }
  Matrix<T> out(a.rows, b.cols);
  if (!out.data.empty())
    cuda::check(cudaMemcpy2D(out.data.data(), static_cast<std::size_t>(out.cols) * sizeof(T), c.ptr,
                             static_cast<std::size_t>(c.ld) * sizeof(T), static_cast<std::size_t>(out.cols) * sizeof(T),
                             static_cast<std::size_t>(out.rows), cudaMemcpyDeviceToHost),
                "cudaMemcpy2D");
  return out;
}

}  // namespace

template <class T>
std::vector<Matrix<T>> multiply_gpus(const std::vector<Matrix<T>>& as, const std::vector<Matrix<T>>& bs,
                                     const GpuRequest& r, const std::vector<int>& devices, double& seconds) {
  if (devices.empty()) throw std::logic_error("multiply_gpus: no devices");
  check_request(as, bs, r);
  const bool recursive = r.algo == GpuAlgo::strassen || r.algo == GpuAlgo::winograd;
  if (r.algo == GpuAlgo::cublas || (recursive && r.cublas_base))
    for (const int device : devices) cublas_handle(device);  // made here, not by the threads at once
  const auto batch = static_cast<std::int64_t>(as.size());
  const auto count = static_cast<std::int64_t>(devices.size());
  const CublasPieces pieces = cublas_pieces(as[0].rows, bs[0].cols);
  const bool cublas = r.algo == GpuAlgo::cublas;
  if (batch > 1) {  // contiguous parts of the batch, of whole cuBLAS calls
    const std::int64_t unit = cublas ? pieces.products : 1;
    std::vector<std::vector<Matrix<T>>> a_parts, b_parts;
    for (const auto& [first, last] : contiguous_parts((batch + unit - 1) / unit, count)) {
      const std::int64_t begin = first * unit, end = std::min(batch, last * unit);
      a_parts.emplace_back(as.begin() + begin, as.begin() + end);
      b_parts.emplace_back(bs.begin() + begin, bs.begin() + end);
    }
    std::vector<Matrix<T>> out;
    for (auto& part : parts_on_devices(a_parts, b_parts, r, devices, seconds))
      for (auto& c : part) out.push_back(std::move(c));
    return out;
  }
  const Matrix<T>&a = as[0], &b = bs[0];
  if (recursive) {
    if (r.levels < 1 || a.rows < 2 || a.cols < 2 || b.cols < 2) {  // no level to spread
      GpuRequest first = r;
      first.device = devices.front();
      return multiply_gpu(as, bs, first, seconds);
    }
    return {recursive_over_devices(a, b, r, devices, seconds)};
  }
  // Blocks of C's rows, each of whole units but the last.
  const std::int64_t unit = cublas ? pieces.rows : kClassicRows;
  std::vector<std::vector<Matrix<T>>> a_parts, b_parts;
  for (const auto& [first, last] : contiguous_parts((a.rows + unit - 1) / unit, count)) {
    a_parts.push_back({rows_of(a, first * unit, std::min(a.rows, last * unit))});
    b_parts.push_back({b});
  }
  Matrix<T> c(a.rows, b.cols);
  c.data.clear();
  for (auto& part : parts_on_devices(a_parts, b_parts, r, devices, seconds))
    c.data.insert(c.data.end(), part[0].data.begin(), part[0].data.end());
  return {std::move(c)};
}

template std::vector<Matrix<float>> multiply_gpus(const std::vector<Matrix<float>>&, const std::vector<Matrix<float>>&,
                                                  const GpuRequest&, const std::vector<int>&, double&);
template std::vector<Matrix<double>> multiply_gpus(const std::vector<Matrix<double>>&,
                                                   const std::vector<Matrix<double>>&, const GpuRequest&,
                                                   const std::vector<int>&, double&);
template std::vector<Matrix<std::int32_t>> multiply_gpus(const std::vector<Matrix<std::int32_t>>&,
                                                         const std::vector<Matrix<std::int32_t>>&, const GpuRequest&,
                                                         const std::vector<int>&, double&);

}  // namespace gdp::semiring
