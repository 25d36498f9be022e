#pragma once
// gpu-mm's engine, and gpu-fold's max-plus blocks: matrix products over three
// semirings. The CPU paths here are the reference every kernel is tested
// against (DESIGN.md, "One recurrence, many backends").
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace gdp {
class Progress;
}

namespace gdp::semiring {

enum class Semiring { plus_times, max_plus, min_plus };
Semiring parse_semiring(std::string_view name);  // throws InputError
std::string_view to_string(Semiring s);

// A dense row-major matrix.
template <class T>
struct Matrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<T> data;

  Matrix() = default;
  Matrix(std::int64_t r, std::int64_t c, T fill = T{})
      : rows(r), cols(c), data(static_cast<std::size_t>(r * c), fill) {}
  T& operator()(std::int64_t i, std::int64_t j) { return data[static_cast<std::size_t>(i * cols + j)]; }
  const T& operator()(std::int64_t i, std::int64_t j) const { return data[static_cast<std::size_t>(i * cols + j)]; }
};

// The semiring's additive identity: 0, minus infinity or plus infinity (the
// lowest and the highest value for integers).
template <class T>
T zero(Semiring s) {
  switch (s) {
    case Semiring::plus_times: return T{0};
    case Semiring::max_plus:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
    case Semiring::min_plus:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
  }
  return T{0};
}

// Integer plus-times wraps modulo 2^32, as int32 arithmetic on a GPU does;
// integer max-plus and min-plus need |values| < 2^30, so that a sum never
// overflows (check_range).
template <class T>
T times(Semiring s, T a, T b) {
  if (s != Semiring::plus_times) return a + b;
  if constexpr (std::numeric_limits<T>::is_integer)
    return static_cast<T>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  else
    return a * b;
}

template <class T>
T add(Semiring s, T acc, T x) {
  switch (s) {
    case Semiring::plus_times:
      if constexpr (std::numeric_limits<T>::is_integer)
        return static_cast<T>(static_cast<std::uint32_t>(acc) + static_cast<std::uint32_t>(x));
      else
        return acc + x;
    case Semiring::max_plus: return acc > x ? acc : x;
    case Semiring::min_plus: return acc < x ? acc : x;
  }
  return acc;
}

// The largest magnitude an integer max-plus or min-plus input may have.
inline constexpr std::int32_t max_tropical_int = (1 << 30) - 1;

// Throws InputError naming `what` when an integer tropical input is out of
// range (no-op for floating point and for plus-times).
template <class T>
void check_range(const Matrix<T>& m, Semiring s, const std::string_view what);

// The CPU reference. ijk: the textbook loops; ikj: the cache-aware order
// (a row of B streams past one element of A); openmp: ikj over rows of C on
// `threads` threads. Throws InputError when the shapes do not chain.
enum class CpuAlgo { ijk, ikj, openmp };
CpuAlgo parse_cpu_algo(std::string_view name);  // throws InputError
std::string_view to_string(CpuAlgo a);

// The operations of an m x k by k x n product: 2mnk (a multiply and an add
// for each term), the unit of gpu-mm's rates and progress.
constexpr std::uint64_t product_operations(std::int64_t m, std::int64_t k, std::int64_t n) {
  return 2 * static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(n);
}

// Its product_operations are added to `progress`, if set, a row of C at a time.
template <class T>
Matrix<T> multiply_cpu(const Matrix<T>& a, const Matrix<T>& b, Semiring s, CpuAlgo algo, int threads = 1,
                       Progress* progress = nullptr);

// Strassen's (winograd false) or Winograd's (true) recursive product for
// plus-times, `levels` deep, the base products by `base`
// (cpu/strassen.cpp). Any shape. Exact on int32 (modulo 2^32); on floats
// within rounding of the classical product, growing with the levels.
// Its progress as multiply_cpu's: 2mnk, whatever the recursion saves.
template <class T>
Matrix<T> multiply_recursive_cpu(const Matrix<T>& a, const Matrix<T>& b, bool winograd, int levels, CpuAlgo base,
                                 int threads = 1, Progress* progress = nullptr);

}  // namespace gdp::semiring
