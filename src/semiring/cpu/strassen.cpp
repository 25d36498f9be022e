// Strassen's and Winograd's recursive products (dissertation chapter 3) on
// the CPU, for plus-times: the recursion of recursive.hpp on host matrices.
// Any shape: odd sizes are padded with a row or column of zeros at each
// level, which leaves the product unchanged. On int32 the arithmetic
// wraps modulo 2^32, where the equations are exact, so the result equals
// the classical product bit for bit; on floats it differs by rounding.
#include <string>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "semiring/recursive.hpp"
#include "semiring/semiring.hpp"

namespace gdp::semiring {
namespace {

template <class T>
T plus(T a, T b) { return add(Semiring::plus_times, a, b); }
template <class T>
T minus(T a, T b) {
  if constexpr (std::numeric_limits<T>::is_integer)
    return static_cast<T>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
  else
    return a - b;
}

// Quadrant (qi, qj) of m, whose sides are even.
template <class T>
Matrix<T> quadrant(const Matrix<T>& m, int qi, int qj) {
  const std::int64_t r = m.rows / 2, c = m.cols / 2;
  Matrix<T> q(r, c);
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) q(i, j) = m(qi * r + i, qj * c + j);
  return q;
}

template <class T, class Op>
Matrix<T> combine(const Matrix<T>& x, const Matrix<T>& y, Op op) {
  Matrix<T> z(x.rows, x.cols);
  for (std::size_t i = 0; i < z.data.size(); ++i) z.data[i] = op(x.data[i], y.data[i]);
  return z;
}

// m with its sides rounded up to even, the new row and column zero.
template <class T>
Matrix<T> padded(const Matrix<T>& m) {
  Matrix<T> p(m.rows + m.rows % 2, m.cols + m.cols % 2, T{0});
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (std::int64_t j = 0; j < m.cols; ++j) p(i, j) = m(i, j);
  return p;
}

// The CPU backend of the recursion: host matrices, base products by `base`.
template <class T>
struct CpuBackend {
  using Matrix = semiring::Matrix<T>;
  CpuAlgo algo;
  int threads;
  Progress* progress;

  static std::int64_t rows(const Matrix& m) { return m.rows; }
  static std::int64_t cols(const Matrix& m) { return m.cols; }
  static Matrix padded(const Matrix& m) { return semiring::padded(m); }
  static Matrix quadrant(const Matrix& m, int qi, int qj) { return semiring::quadrant(m, qi, qj); }
  static Matrix add(const Matrix& x, const Matrix& y) { return combine(x, y, plus<T>); }
  static Matrix sub(const Matrix& x, const Matrix& y) { return combine(x, y, minus<T>); }
  Matrix base(const Matrix& a, const Matrix& b) const {
    return multiply_cpu(a, b, Semiring::plus_times, algo, threads, progress);
  }
  static Matrix assemble(const Matrix& c11, const Matrix& c12, const Matrix& c21, const Matrix& c22,
                         std::int64_t rows, std::int64_t cols) {
    Matrix c(rows, cols);
    const std::int64_t h = c11.rows, w = c11.cols;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const Matrix& q = i < h ? (j < w ? c11 : c12) : (j < w ? c21 : c22);
        c(i, j) = q(i % h, j % w);
      }
    return c;
  }
};

}  // namespace

template <class T>
Matrix<T> multiply_recursive_cpu(const Matrix<T>& a, const Matrix<T>& b, bool winograd, int levels, CpuAlgo base,
                                 int threads, Progress* whole) {
  if (a.cols != b.rows)
    throw InputError("shapes do not chain: " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " times " +
                     std::to_string(b.rows) + " x " + std::to_string(b.cols));
  if (levels < 0 || levels > 8) throw InputError("--levels takes 0 to 8");
  // Progress: the base products' operations, 7 of size 1/2 each level
  // (odd sides padded), as a part of the classical product's 2mnk.
  const std::uint64_t ops = product_operations(a.rows, a.cols, b.cols);
  double base_ops = static_cast<double>(ops);
  for (int l = 0; l < levels; ++l) base_ops *= 7.0 / 8.0;
  Progress progress(whole, ops, static_cast<std::uint64_t>(base_ops));
  const CpuBackend<T> backend{base, threads, &progress};
  return StrassenRecursion<CpuBackend<T>>{backend, winograd}.multiply(a, b, levels);
}

template Matrix<float> multiply_recursive_cpu(const Matrix<float>&, const Matrix<float>&, bool, int, CpuAlgo, int,
                                               Progress*);
template Matrix<double> multiply_recursive_cpu(const Matrix<double>&, const Matrix<double>&, bool, int, CpuAlgo, int,
                                               Progress*);
template Matrix<std::int32_t> multiply_recursive_cpu(const Matrix<std::int32_t>&, const Matrix<std::int32_t>&, bool, int,
                                                     CpuAlgo, int, Progress*);

}  // namespace gdp::semiring
