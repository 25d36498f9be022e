// Strassen's and Winograd's recursive products (dissertation chapter 3) on
// the CPU, for plus-times: seven half-size products a level instead of
// eight. Any shape: odd sizes are padded with a row or column of zeros at
// each level, which leaves the product unchanged. On int32 the arithmetic
// wraps modulo 2^32, where the equations are exact, so the result equals
// the classical product bit for bit; on floats it differs by rounding.
#include <string>

#include "core/error.hpp"
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
template <class T>
Matrix<T> operator+(const Matrix<T>& x, const Matrix<T>& y) { return combine(x, y, plus<T>); }
template <class T>
Matrix<T> operator-(const Matrix<T>& x, const Matrix<T>& y) { return combine(x, y, minus<T>); }

// m with its sides rounded up to even, the new row and column zero.
template <class T>
Matrix<T> padded(const Matrix<T>& m) {
  Matrix<T> p(m.rows + m.rows % 2, m.cols + m.cols % 2, T{0});
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (std::int64_t j = 0; j < m.cols; ++j) p(i, j) = m(i, j);
  return p;
}

template <class T>
struct Recursion {
  bool winograd;
  CpuAlgo base;
  int threads;

  Matrix<T> multiply(const Matrix<T>& a, const Matrix<T>& b, int levels) const {
    if (levels == 0 || a.rows < 2 || a.cols < 2 || b.cols < 2)
      return multiply_cpu(a, b, Semiring::plus_times, base, threads);
    const Matrix<T> ap = padded(a), bp = padded(b);
    const Matrix<T> a11 = quadrant(ap, 0, 0), a12 = quadrant(ap, 0, 1), a21 = quadrant(ap, 1, 0), a22 = quadrant(ap, 1, 1);
    const Matrix<T> b11 = quadrant(bp, 0, 0), b12 = quadrant(bp, 0, 1), b21 = quadrant(bp, 1, 0), b22 = quadrant(bp, 1, 1);
    Matrix<T> c11, c12, c21, c22;
    if (!winograd) {
      const auto m1 = multiply(a11 + a22, b11 + b22, levels - 1), m2 = multiply(a21 + a22, b11, levels - 1);
      const auto m3 = multiply(a11, b12 - b22, levels - 1), m4 = multiply(a22, b21 - b11, levels - 1);
      const auto m5 = multiply(a11 + a12, b22, levels - 1), m6 = multiply(a21 - a11, b11 + b12, levels - 1);
      const auto m7 = multiply(a12 - a22, b21 + b22, levels - 1);
      c11 = m1 + m4 - m5 + m7;
      c12 = m3 + m5;
      c21 = m2 + m4;
      c22 = m1 - m2 + m3 + m6;
    } else {  // Winograd's variant: 15 additions instead of 18
      const auto s1 = a21 + a22, s2 = s1 - a11, s3 = a11 - a21, s4 = a12 - s2;
      const auto t1 = b12 - b11, t2 = b22 - t1, t3 = b22 - b12, t4 = t2 - b21;
      const auto p1 = multiply(a11, b11, levels - 1), p2 = multiply(a12, b21, levels - 1);
      const auto p3 = multiply(s4, b22, levels - 1), p4 = multiply(a22, t4, levels - 1);
      const auto p5 = multiply(s1, t1, levels - 1), p6 = multiply(s2, t2, levels - 1), p7 = multiply(s3, t3, levels - 1);
      const auto u2 = p1 + p6, u3 = u2 + p7, u4 = u2 + p5;
      c11 = p1 + p2;
      c12 = u4 + p3;
      c21 = u3 - p4;
      c22 = u3 + p5;
    }
    Matrix<T> c(a.rows, b.cols);
    const std::int64_t h = c11.rows, w = c11.cols;
    for (std::int64_t i = 0; i < a.rows; ++i)
      for (std::int64_t j = 0; j < b.cols; ++j) {
        const Matrix<T>& q = i < h ? (j < w ? c11 : c12) : (j < w ? c21 : c22);
        c(i, j) = q(i % h, j % w);
      }
    return c;
  }
};

}  // namespace

template <class T>
Matrix<T> multiply_recursive_cpu(const Matrix<T>& a, const Matrix<T>& b, bool winograd, int levels, CpuAlgo base,
                                 int threads) {
  if (a.cols != b.rows)
    throw InputError("shapes do not chain: " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " times " +
                     std::to_string(b.rows) + " x " + std::to_string(b.cols));
  if (levels < 0 || levels > 8) throw InputError("--levels takes 0 to 8");
  return Recursion<T>{winograd, base, threads}.multiply(a, b, levels);
}

template Matrix<float> multiply_recursive_cpu(const Matrix<float>&, const Matrix<float>&, bool, int, CpuAlgo, int);
template Matrix<double> multiply_recursive_cpu(const Matrix<double>&, const Matrix<double>&, bool, int, CpuAlgo, int);
template Matrix<std::int32_t> multiply_recursive_cpu(const Matrix<std::int32_t>&, const Matrix<std::int32_t>&, bool, int,
                                                     CpuAlgo, int);

}  // namespace gdp::semiring
