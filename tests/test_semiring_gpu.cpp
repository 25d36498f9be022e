// gpu-mm's GPU engine against the CPU reference: the classical kernel for
// every type and semiring, batched, cuBLAS, and Strassen and Winograd on
// the device at every level. Exact for integers and max/min-plus; floats
// within a rounding bound of the float64 product. [gpu]: skipped without a
// GPU (gpu_test.hpp). A build without CUDA compiles no call to the GPU
// engine (core/build.hpp) and skips them all.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <random>

#include "core/build.hpp"
#include "core/error.hpp"
#include "gpu_test.hpp"
#include "semiring/gpu.hpp"
#include "semiring/semiring.hpp"
#include "semiring/triangle.hpp"

using namespace gdp;
using namespace gdp::semiring;

namespace {

// Integers over the whole tropical range (±(2^30 - 1)) for max/min-plus,
// any int32 for plus-times (it wraps); floats in [-1, 1].
template <class T>
Matrix<T> random_matrix(std::mt19937& rng, std::int64_t rows, std::int64_t cols, Semiring s) {
  Matrix<T> m(rows, cols);
  if constexpr (std::is_integral_v<T>) {
    const std::int32_t hi = s == Semiring::plus_times ? std::numeric_limits<std::int32_t>::max() : max_tropical_int;
    std::uniform_int_distribution<std::int32_t> d(-hi, hi);
    for (auto& x : m.data) x = d(rng);
  } else {
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto& x : m.data) x = static_cast<T>(d(rng));
  }
  return m;
}

// Exact where the arithmetic is (integers, max-plus, min-plus); for float
// plus-times within k * 2 * epsilon(T) * sum |a||b| of the float64 product.
template <class T>
void require_close(const Matrix<T>& got, const Matrix<T>& a, const Matrix<T>& b, Semiring s, double slack = 1) {
  REQUIRE(got.rows == a.rows);
  REQUIRE(got.cols == b.cols);
  if (std::is_integral_v<T> || s != Semiring::plus_times) {
    REQUIRE(got.data == multiply_cpu(a, b, s, CpuAlgo::ikj).data);
    return;
  }
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < b.cols; ++j) {
      double exact = 0, magnitude = 0;
      for (std::int64_t k = 0; k < a.cols; ++k) {
        exact += double(a(i, k)) * double(b(k, j));
        magnitude += std::fabs(double(a(i, k)) * double(b(k, j)));
      }
      const double bound = slack * 2 * eps * (static_cast<double>(a.cols) + 1) * magnitude + 1e-30;
      INFO("cell " << i << ", " << j << ": " << double(got(i, j)) << " against " << exact);
      REQUIRE(std::fabs(double(got(i, j)) - exact) <= bound);
    }
}

// 1 x 1 x 1, primes, the kernel's tiles (128 x 128, k by 8) and one either
// side, tall, wide, and an empty inner dimension.
const std::vector<std::array<std::int64_t, 3>> shapes = {
    {1, 1, 1},     {2, 3, 5},      {7, 13, 11},   {31, 17, 29},  {127, 8, 129}, {128, 7, 128},
    {129, 9, 127}, {128, 16, 128}, {200, 15, 3},  {3, 17, 300},  {257, 33, 5},  {4, 0, 6}};

template <class T>
void classic_equals_reference() {
  std::mt19937 rng(7);
  for (Semiring s : {Semiring::plus_times, Semiring::max_plus, Semiring::min_plus})
    for (auto [m, k, n] : shapes) {
      INFO("semiring " << to_string(s) << " shape " << m << " x " << k << " x " << n);
      const auto a = random_matrix<T>(rng, m, k, s), b = random_matrix<T>(rng, k, n, s);
      double seconds = 0;
      const auto c = multiply_gpu<T>({a}, {b}, {.semiring = s}, seconds);
      REQUIRE(c.size() == 1);
      require_close(c[0], a, b, s);
    }
}

}  // namespace

TEST_CASE("GPU classical product equals the CPU reference, float32", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    classic_equals_reference<float>();
  }
}
TEST_CASE("GPU classical product equals the CPU reference, float64", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    classic_equals_reference<double>();
  }
}
TEST_CASE("GPU classical product equals the CPU reference, int32", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    classic_equals_reference<std::int32_t>();
  }
}

TEST_CASE("GPU batched products, and a long inner dimension, equal the reference", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(8);
    for (Semiring s : {Semiring::plus_times, Semiring::max_plus, Semiring::min_plus}) {
      std::vector<Matrix<std::int32_t>> as, bs;
      for (int i = 0; i < 5; ++i) {
        as.push_back(random_matrix<std::int32_t>(rng, 45, 70, s));
        bs.push_back(random_matrix<std::int32_t>(rng, 70, 33, s));
      }
      double seconds = 0;
      const GpuRequest r{.semiring = s, .repeat = 2};
      const auto cs = multiply_gpu(as, bs, r, seconds);
      REQUIRE(cs.size() == 5);
      REQUIRE(seconds > 0);
      for (int i = 0; i < 5; ++i) require_close(cs[i], as[i], bs[i], s);
      const auto a = random_matrix<float>(rng, 9, 5000, s), b = random_matrix<float>(rng, 5000, 11, s);
      require_close(multiply_gpu<float>({a}, {b}, r, seconds)[0], a, b, s);
    }
  }
}

TEST_CASE("GPU split products add into C: C (+) A (x) B, for any number of slices of k", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(12);
    for (Semiring s : {Semiring::max_plus, Semiring::min_plus})
      for (const auto& [m, k, n] : std::vector<std::array<std::int64_t, 3>>{{128, 4096, 128}, {45, 1000, 33}, {130, 17, 129}, {4, 0, 6}})
        for (int splits : {1, 2, 3, 7, 64, 300}) {
          const auto a = random_matrix<std::int32_t>(rng, m, k, s), b = random_matrix<std::int32_t>(rng, k, n, s);
          const auto c = random_matrix<std::int32_t>(rng, m, n, s);
          const auto product = multiply_cpu(a, b, s, CpuAlgo::ikj);
          Matrix<std::int32_t> want = c;
          for (std::size_t x = 0; x < want.data.size(); ++x)
            want.data[x] = s == Semiring::max_plus ? std::max(c.data[x], product.data[x]) : std::min(c.data[x], product.data[x]);
          INFO("semiring " << to_string(s) << " m " << m << " k " << k << " n " << n << " splits " << splits);
          REQUIRE(accumulate_gpu(s, a, b, c, splits).data == want.data);
        }
    REQUIRE_THROWS_AS(accumulate_gpu(Semiring::plus_times, Matrix<std::int32_t>(2, 2), Matrix<std::int32_t>(2, 2),
                                     Matrix<std::int32_t>(2, 2), 2),
                      RunError);
  }
}

TEST_CASE("GPU max-plus inside a 16-bit triangle equals the products cell by cell, for any slices of k", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(21);
    const BlockRowTriangle layout{.padded = 7 * 128, .block = 128};
    std::vector<std::uint16_t> t(static_cast<std::size_t>(layout.cells()));
    std::uniform_int_distribution<int> value(0, 30000);  // sums of two stay below 65,536
    for (auto& x : t) x = static_cast<std::uint16_t>(value(rng));
    for (std::int64_t d : {2, 3, 6})
      for (int shift : {0, 1})
        for (int splits : {1, 2, 3, 5, 40}) {
          const std::vector<std::uint16_t> got = accumulate_triangle_gpu(t, layout, d, shift, splits);
          std::vector<std::uint16_t> want = t;
          for (std::int64_t I = 0; I + d < layout.blocks(); ++I) {
            const std::int64_t J = I + d;
            for (std::int64_t i = I * 128; i < (I + 1) * 128; ++i)
              for (std::int64_t j = J * 128; j < (J + 1) * 128; ++j) {
                int best = t[static_cast<std::size_t>(layout.at(i, j))];
                for (std::int64_t k = (I + 1) * 128; k < J * 128; ++k)
                  best = std::max(best, t[static_cast<std::size_t>(layout.at(i, k))] +
                                            t[static_cast<std::size_t>(layout.at(k + shift, j))]);
                want[static_cast<std::size_t>(layout.at(i, j))] = static_cast<std::uint16_t>(best);
              }
          }
          INFO("d " << d << " shift " << shift << " splits " << splits);
          REQUIRE(got == want);
        }
    // Diagonals 0 and 1 have nothing between: the triangle is unchanged.
    REQUIRE(accumulate_triangle_gpu(t, layout, 1, 1, 1) == t);
    const BlockRowTriangle small_blocks{.padded = 7 * 64, .block = 64};
    REQUIRE_THROWS_AS(accumulate_triangle_gpu(t, small_blocks, 2, 1, 1), InputError);  // sizes differ
    REQUIRE_THROWS_AS(accumulate_triangle_gpu(std::vector<std::uint16_t>(small_blocks.cells()), small_blocks, 2, 1, 1),
                      RunError);  // blocks of 128 only
    REQUIRE_THROWS_AS(accumulate_triangle_gpu(t, layout, 2, 2, 1), RunError);  // a shift of 0 or 1 only
  }
}


TEST_CASE("cuBLAS products match the reference, and requests cuBLAS cannot serve are refused", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(9);
    GpuRequest r{.algo = GpuAlgo::cublas};
    double seconds = 0;
    for (auto [m, k, n] : shapes) {
      INFO("shape " << m << " x " << k << " x " << n);
      const auto af = random_matrix<float>(rng, m, k, Semiring::plus_times), bf = random_matrix<float>(rng, k, n, Semiring::plus_times);
      require_close(multiply_gpu<float>({af, af}, {bf, bf}, r, seconds)[1], af, bf, Semiring::plus_times);
      const auto ad = random_matrix<double>(rng, m, k, Semiring::plus_times), bd = random_matrix<double>(rng, k, n, Semiring::plus_times);
      require_close(multiply_gpu<double>({ad}, {bd}, r, seconds)[0], ad, bd, Semiring::plus_times);
    }
    const Matrix<std::int32_t> ai(2, 2), bi(2, 2);
    REQUIRE_THROWS_AS(multiply_gpu<std::int32_t>({ai}, {bi}, r, seconds), InputError);
    r.semiring = Semiring::max_plus;
    REQUIRE_THROWS_AS(multiply_gpu<float>({Matrix<float>(2, 2)}, {Matrix<float>(2, 2)}, r, seconds), InputError);
    r.algo = GpuAlgo::strassen;
    REQUIRE_THROWS_AS(multiply_gpu<float>({Matrix<float>(2, 2)}, {Matrix<float>(2, 2)}, r, seconds), InputError);
    r.semiring = Semiring::plus_times;
    r.algo = GpuAlgo::classic;
    REQUIRE_THROWS_AS(multiply_gpu<float>({Matrix<float>(2, 3)}, {Matrix<float>(2, 3)}, r, seconds), InputError);
  }
}

TEST_CASE("GPU Strassen and Winograd at every level: exact on int32, within rounding on floats", "[gpu][semiring]") {
  if (test::skip_without_gpu()) return;
  if constexpr (have_cuda) {
    std::mt19937 rng(10);
    const std::vector<std::array<std::int64_t, 3>> recursive_shapes = {
        {1, 1, 1}, {2, 2, 2}, {3, 5, 7}, {17, 16, 15}, {33, 31, 29}, {64, 7, 3}, {5, 64, 40}, {129, 130, 131}, {256, 256, 256}};
    double seconds = 0;
    for (GpuAlgo algo : {GpuAlgo::strassen, GpuAlgo::winograd})
      for (int levels = 1; levels <= 4; ++levels)
        for (auto [m, k, n] : recursive_shapes)
          for (bool cublas_base : {false, true}) {
            INFO(to_string(algo) << " levels " << levels << " cuBLAS base " << cublas_base << " shape " << m << " x " << k
                                 << " x " << n);
            const GpuRequest r{.algo = algo, .levels = levels, .cublas_base = cublas_base};
            if (!cublas_base) {  // int32 wraps, where the equations are exact
              const auto ai = random_matrix<std::int32_t>(rng, m, k, Semiring::plus_times);
              const auto bi = random_matrix<std::int32_t>(rng, k, n, Semiring::plus_times);
              REQUIRE(multiply_gpu<std::int32_t>({ai}, {bi}, r, seconds)[0].data ==
                      multiply_cpu(ai, bi, Semiring::plus_times, CpuAlgo::ikj).data);
            }
            // Each level adds a few roundings of sums: the bound grows 4x a level.
            const auto af = random_matrix<float>(rng, m, k, Semiring::plus_times);
            const auto bf = random_matrix<float>(rng, k, n, Semiring::plus_times);
            require_close(multiply_gpu<float>({af}, {bf}, r, seconds)[0], af, bf, Semiring::plus_times,
                          std::pow(4.0, levels));
          }
  }
}
