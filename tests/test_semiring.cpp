// The CPU reference products against brute force, every algorithm, type and
// semiring, on shapes from 1 x 1 x 1 to tall, wide and empty inner ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "core/error.hpp"
#include "semiring/semiring.hpp"
#include "semiring/triangle.hpp"

using namespace gdp;
using namespace gdp::semiring;

namespace {

template <class T>
Matrix<T> random_matrix(std::mt19937& rng, std::int64_t rows, std::int64_t cols) {
  Matrix<T> m(rows, cols);
  std::uniform_int_distribution<int> d(-50, 50);
  for (auto& x : m.data) x = static_cast<T>(d(rng)) / (std::is_integral_v<T> ? 1 : 4);
  return m;
}

// Every product of row i and column j listed, then combined: a different
// route from the kernels' loops.
template <class T>
double brute_force(const Matrix<T>& a, const Matrix<T>& b, Semiring s, std::int64_t i, std::int64_t j) {
  std::vector<double> terms;
  for (std::int64_t k = 0; k < a.cols; ++k)
    terms.push_back(s == Semiring::plus_times ? double(a(i, k)) * double(b(k, j)) : double(a(i, k)) + double(b(k, j)));
  if (terms.empty()) return double(zero<T>(s));
  if (s == Semiring::max_plus) return *std::max_element(terms.begin(), terms.end());
  if (s == Semiring::min_plus) return *std::min_element(terms.begin(), terms.end());
  double sum = 0;
  for (double t : terms) sum += t;
  return sum;
}

const std::vector<std::array<std::int64_t, 3>> shapes = {
    {1, 1, 1}, {1, 1, 2}, {2, 1, 1}, {3, 0, 4}, {7, 13, 5}, {16, 16, 16}, {17, 15, 33}, {100, 3, 2}, {2, 3, 100}, {31, 64, 1}};

template <class T>
void check_all() {
  std::mt19937 rng(sizeof(T) * 7 + std::is_integral_v<T>);
  for (Semiring s : {Semiring::plus_times, Semiring::max_plus, Semiring::min_plus})
    for (auto [m, k, n] : shapes) {
      const auto a = random_matrix<T>(rng, m, k);
      const auto b = random_matrix<T>(rng, k, n);
      const auto ijk = multiply_cpu(a, b, s, CpuAlgo::ijk);
      INFO("semiring " << to_string(s) << " shape " << m << " x " << k << " x " << n);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          const double expected = brute_force(a, b, s, i, j);
          if (std::isinf(expected) || std::is_integral_v<T>)
            REQUIRE(double(ijk(i, j)) == expected);
          else
            REQUIRE(double(ijk(i, j)) == Approx(expected).margin(1e-9));
        }
      // The other orders combine the same terms in the same order: equal bits.
      REQUIRE(multiply_cpu(a, b, s, CpuAlgo::ikj).data == ijk.data);
      for (int threads : {1, 3}) REQUIRE(multiply_cpu(a, b, s, CpuAlgo::openmp, threads).data == ijk.data);
    }
}

}  // namespace

TEST_CASE("semiring CPU reference equals brute force, float32", "[semiring]") { check_all<float>(); }
TEST_CASE("semiring CPU reference equals brute force, float64", "[semiring]") { check_all<double>(); }
TEST_CASE("semiring CPU reference equals brute force, int32", "[semiring]") { check_all<std::int32_t>(); }

TEST_CASE("semiring identities, integer wrap-around and range, bad shapes", "[semiring]") {
  REQUIRE(zero<float>(Semiring::max_plus) == -INFINITY);
  REQUIRE(zero<std::int32_t>(Semiring::min_plus) == std::numeric_limits<std::int32_t>::max());
  // An empty inner dimension gives the additive identity everywhere.
  const Matrix<float> a(2, 0), b(0, 3);
  for (float x : multiply_cpu(a, b, Semiring::max_plus, CpuAlgo::ikj).data) REQUIRE(x == -INFINITY);
  // int32 plus-times wraps as the GPU's int32 arithmetic does.
  // 65536 x 65537 = 2^32 + 65536.
  Matrix<std::int32_t> x(1, 1, 65536), y(1, 1, 65537);
  REQUIRE(multiply_cpu(x, y, Semiring::plus_times, CpuAlgo::ijk)(0, 0) == 65536);
  Matrix<std::int32_t> huge(1, 1, 1 << 30);
  REQUIRE_THROWS_AS(check_range(huge, Semiring::max_plus, "A.npy"), InputError);
  REQUIRE_NOTHROW(check_range(huge, Semiring::plus_times, "A.npy"));
  REQUIRE_THROWS_AS(multiply_cpu(Matrix<float>(2, 3), Matrix<float>(4, 2), Semiring::plus_times, CpuAlgo::ijk),
                    InputError);
  REQUIRE_THROWS_AS(parse_semiring("max-times"), InputError);
  REQUIRE(parse_semiring("min-plus") == Semiring::min_plus);
}

TEST_CASE("Strassen and Winograd at every level: exact on int32, within rounding on floats", "[semiring]") {
  std::mt19937 rng(3);
  const std::vector<std::array<std::int64_t, 3>> recursive_shapes = {
      {1, 1, 1}, {2, 2, 2}, {3, 5, 7}, {16, 16, 16}, {17, 16, 15}, {33, 31, 29}, {64, 7, 3}, {5, 64, 40}};
  std::uniform_real_distribution<double> unit(-1, 1);
  for (bool winograd : {false, true})
    for (int levels = 0; levels <= 4; ++levels)
      for (auto [m, k, n] : recursive_shapes) {
        INFO((winograd ? "Winograd" : "Strassen") << " levels " << levels << " shape " << m << " x " << k << " x " << n);
        // int32: values large enough to wrap, where the equations still hold exactly.
        Matrix<std::int32_t> ai(m, k), bi(k, n);
        std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::lowest(),
                                                        std::numeric_limits<std::int32_t>::max());
        for (auto& x : ai.data) x = any(rng);
        for (auto& x : bi.data) x = any(rng);
        REQUIRE(multiply_recursive_cpu(ai, bi, winograd, levels, CpuAlgo::ikj).data ==
                multiply_cpu(ai, bi, Semiring::plus_times, CpuAlgo::ikj).data);
        Matrix<double> ad(m, k), bd(k, n);
        for (auto& x : ad.data) x = unit(rng);
        for (auto& x : bd.data) x = unit(rng);
        const auto cd = multiply_recursive_cpu(ad, bd, winograd, levels, CpuAlgo::openmp, 2);
        const auto rd = multiply_cpu(ad, bd, Semiring::plus_times, CpuAlgo::ijk);
        Matrix<float> af(m, k), bf(k, n);
        for (std::size_t i = 0; i < af.data.size(); ++i) af.data[i] = static_cast<float>(ad.data[i]);
        for (std::size_t i = 0; i < bf.data.size(); ++i) bf.data[i] = static_cast<float>(bd.data[i]);
        const auto cf = multiply_recursive_cpu(af, bf, winograd, levels, CpuAlgo::ikj);
        for (std::size_t i = 0; i < rd.data.size(); ++i) {
          REQUIRE(std::fabs(cd.data[i] - rd.data[i]) < 1e-12);
          REQUIRE(std::fabs(double(cf.data[i]) - rd.data[i]) < 1e-4);
        }
      }
  REQUIRE_THROWS_AS(multiply_recursive_cpu(Matrix<float>(2, 3), Matrix<float>(2, 3), false, 1, CpuAlgo::ikj), InputError);
}

TEST_CASE("a triangle by block rows stores each cell of its blocks once, every block a strided matrix", "[semiring]") {
  for (const auto& [padded, block] : std::vector<std::array<std::int64_t, 2>>{{1, 1}, {6, 2}, {12, 4}, {15, 5}, {256, 128}}) {
    const BlockRowTriangle t{padded, block};
    std::vector<int> seen(static_cast<std::size_t>(t.cells()), 0);
    for (std::int64_t i = 0; i < padded; ++i)
      for (std::int64_t j = i / block * block; j < padded; ++j) {
        const std::int64_t x = t.at(i, j);
        REQUIRE(x >= 0);
        REQUIRE(x < t.cells());
        ++seen[static_cast<std::size_t>(x)];
        // A block row's rows are ld(I) apart; a row's cells side by side.
        if (i % block > 0) REQUIRE(x - t.at(i - 1, j) == t.ld(i / block));
        if (j > i / block * block) REQUIRE(x - t.at(i, j - 1) == 1);
      }
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    REQUIRE(t.cells() == block * block * t.blocks() * (t.blocks() + 1) / 2);
  }
}
