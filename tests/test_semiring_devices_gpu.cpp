// gpu-mm over several devices (multiply_gpus) against one device
// (multiply_gpu): the same bits for every algorithm, type and semiring, for
// a batch dealt in parts, one product cut into blocks of C's rows, and a
// recursion's top level spread. GPU 0 listed two and three times stands
// for several devices where the machine has one; with two or more, 0,1
// runs too (the peer copies). [gpu]: skipped without a GPU (gpu_test.hpp).
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "core/build.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "gpu_test.hpp"
#include "semiring/gpu.hpp"
#include "semiring/semiring.hpp"

using namespace gdp;
using namespace gdp::semiring;

namespace {

template <class T>
Matrix<T> random_matrix(std::mt19937& rng, std::int64_t rows, std::int64_t cols) {
  Matrix<T> m(rows, cols);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<std::int32_t> d(-1000, 1000);
    for (auto& x : m.data) x = d(rng);
  } else {
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto& x : m.data) x = static_cast<T>(d(rng));
  }
  return m;
}

template <class T>
bool same_bits(const Matrix<T>& x, const Matrix<T>& y) {
  return x.rows == y.rows && x.cols == y.cols &&
         std::memcmp(x.data.data(), y.data.data(), x.data.size() * sizeof(T)) == 0;
}

// multiply_gpus over every device list equals multiply_gpu on GPU 0.
template <class T>
void require_same_as_one(std::mt19937& rng, const GpuRequest& r, std::int64_t m, std::int64_t k, std::int64_t n,
                         int batch) {
  std::vector<Matrix<T>> as, bs;
  for (int i = 0; i < batch; ++i) {
    as.push_back(random_matrix<T>(rng, m, k));
    bs.push_back(random_matrix<T>(rng, k, n));
  }
  double seconds = 0;
  const auto one = multiply_gpu(as, bs, r, seconds);
  for (const auto& devices : test::device_lists()) {
    INFO(to_string(r.algo) << " levels " << r.levels << (r.cublas_base ? " on cuBLAS" : "") << ", "
                           << to_string(r.semiring) << ", " << m << " x " << k << " x " << n << ", batch " << batch
                           << ", " << devices.size() << " devices (" << devices[1] << " second)");
    double spread_seconds = 0;
    const auto spread = multiply_gpus(as, bs, r, devices, spread_seconds);
    REQUIRE(spread.size() == one.size());
    for (std::size_t i = 0; i < one.size(); ++i) CHECK(same_bits(spread[i], one[i]));
    REQUIRE(spread_seconds > 0);
  }
}

}  // namespace

TEST_CASE("GPU products over several devices: the classical kernel's bits, in parts of a batch and blocks of rows",
          "[gpu][semiring][devices]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(41);
    for (Semiring s : {Semiring::plus_times, Semiring::max_plus, Semiring::min_plus}) {
      const GpuRequest r{.semiring = s};
      // Fewer rows than one block, several blocks, a ragged last block.
      for (const auto& [m, k, n] : std::vector<std::array<std::int64_t, 3>>{{100, 37, 90}, {1024, 300, 257}, {1300, 129, 64}}) {
        require_same_as_one<float>(rng, r, m, k, n, 1);
        require_same_as_one<double>(rng, r, m, k, n, 1);
        require_same_as_one<std::int32_t>(rng, r, m, k, n, 1);
      }
      require_same_as_one<float>(rng, r, 70, 45, 33, 5);
      require_same_as_one<std::int32_t>(rng, r, 70, 45, 33, 2);
    }
  }
}

TEST_CASE("GPU products over several devices: cuBLAS's bits, in parts of a batch and blocks of rows",
          "[gpu][semiring][devices]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(42);
    const GpuRequest r{.algo = GpuAlgo::cublas};
    // One piece (nothing to spread), blocks of 4096 rows (4096, 4096, 808),
    // of 8192 (8192, 4808).
    for (const auto& [m, k, n] : std::vector<std::array<std::int64_t, 3>>{{200, 64, 64}, {9000, 129, 4096}, {13000, 64, 2048}}) {
      require_same_as_one<float>(rng, r, m, k, n, 1);
      require_same_as_one<double>(rng, r, m, k, n, 1);
    }
    require_same_as_one<float>(rng, r, 2048, 63, 2048, 9);   // calls of four products: 4, 4, 1
    require_same_as_one<double>(rng, r, 4096, 65, 4096, 3);  // a product a call
    require_same_as_one<float>(rng, r, 100, 37, 45, 30);     // all in one call
    require_same_as_one<float>(rng, r, 9000, 31, 4096, 3);   // each product in blocks of 4096 rows
  }
}

TEST_CASE("cuBLAS's pieces depend on the shape only, each at least 2^24 cells of C", "[semiring][devices]") {
  CHECK(cublas_pieces(16384, 16384).rows == 4096);
  CHECK(cublas_pieces(16384, 16384).products == 1);
  CHECK(cublas_pieces(100, 1000).rows == 16896);  // 2^24 / 1000 rounded up to 256
  CHECK(cublas_pieces(100, 1000).products == 167);
  CHECK(cublas_pieces(20000, 1000).products == 1);  // more rows than a block
  CHECK(cublas_pieces(0, 0).products >= 1);
}

TEST_CASE("GPU Strassen and Winograd over several devices: the top level's products spread, the bits of one device",
          "[gpu][semiring][devices]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(43);
    for (GpuAlgo algo : {GpuAlgo::strassen, GpuAlgo::winograd})
      for (int levels : {1, 2})
        for (bool cublas_base : {false, true}) {
          const GpuRequest r{.algo = algo, .levels = levels, .cublas_base = cublas_base, .repeat = 2};
          require_same_as_one<float>(rng, r, 512, 512, 512, 1);
          require_same_as_one<double>(rng, r, 301, 257, 199, 1);  // odd sides padded at each level
          require_same_as_one<float>(rng, r, 130, 66, 98, 3);     // a batch in parts
          if (!cublas_base) require_same_as_one<std::int32_t>(rng, r, 255, 128, 129, 1);
        }
    // Too small to split: the base product on the first device.
    require_same_as_one<float>(rng, {.algo = GpuAlgo::strassen, .levels = 3}, 1, 5, 7, 1);
  }
}

TEST_CASE("GPU products over several devices refuse what one device refuses", "[gpu][semiring][devices]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(44);
    const auto a = random_matrix<std::int32_t>(rng, 40, 30), b = random_matrix<std::int32_t>(rng, 30, 20);
    double seconds = 0;
    const std::vector<int> devices{0, 0};
    REQUIRE_THROWS_AS(multiply_gpus<std::int32_t>({a}, {b}, {.semiring = Semiring::max_plus, .algo = GpuAlgo::strassen},
                                                  devices, seconds),
                      InputError);
    REQUIRE_THROWS_AS(multiply_gpus<std::int32_t>({a}, {b}, {.algo = GpuAlgo::cublas}, devices, seconds), InputError);
    REQUIRE_THROWS_AS(multiply_gpus<std::int32_t>({a}, {a}, {}, devices, seconds), InputError);  // 40 x 30 by 40 x 30
  }
}
