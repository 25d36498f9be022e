// The CPU reference products (dissertation tables 2-1 and 2-2: ijk, the
// cache-aware ikj, and ikj on all cores), and the names of the engine's
// enums.
#include <string>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "semiring/gpu.hpp"
#include "semiring/semiring.hpp"

namespace gdp::semiring {

namespace {

constexpr EnumNames<Semiring, 3> semiring_names{
    {{Semiring::plus_times, "plus-times"}, {Semiring::max_plus, "max-plus"}, {Semiring::min_plus, "min-plus"}}};
constexpr EnumNames<CpuAlgo, 3> cpu_algo_names{{{CpuAlgo::ijk, "ijk"}, {CpuAlgo::ikj, "ikj"}, {CpuAlgo::openmp, "openmp"}}};
constexpr EnumNames<GpuAlgo, 4> gpu_algo_names{{{GpuAlgo::classic, "classic"},
                                                {GpuAlgo::cublas, "cublas"},
                                                {GpuAlgo::strassen, "strassen"},
                                                {GpuAlgo::winograd, "winograd"}}};

}  // namespace

Semiring parse_semiring(std::string_view name) { return parse_enum(semiring_names, name, "semiring"); }
std::string_view to_string(Semiring s) { return name_of(semiring_names, s); }
CpuAlgo parse_cpu_algo(std::string_view name) { return parse_enum(cpu_algo_names, name, "CPU algorithm"); }
std::string_view to_string(CpuAlgo a) { return name_of(cpu_algo_names, a); }
std::string_view to_string(GpuAlgo a) { return name_of(gpu_algo_names, a); }

template <class T>
void check_range(const Matrix<T>& m, Semiring s, const std::string_view what) {
  if constexpr (std::numeric_limits<T>::is_integer) {
    if (s == Semiring::plus_times) return;
    for (std::int64_t i = 0; i < m.rows; ++i)
      for (std::int64_t j = 0; j < m.cols; ++j)
        if (m(i, j) > max_tropical_int || m(i, j) < -max_tropical_int)
          throw InputError(std::string(what) + ": element (" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
                           std::to_string(m(i, j)) + "; " + std::string(to_string(s)) +
                           " on 32-bit integers takes values within +-(2^30 - 1)");
  } else {
    (void)m, (void)s, (void)what;
  }
}

namespace {

// Rows [row_begin, row_end) of C in ikj order: C's row is combined with
// A(i,k) times B's row k, so B is read a row at a time.
template <class T>
void ikj_rows(const Matrix<T>& a, const Matrix<T>& b, Semiring s, Matrix<T>& c, std::int64_t row_begin,
              std::int64_t row_end) {
  for (std::int64_t i = row_begin; i < row_end; ++i) {
    T* ci = &c(i, 0);
    for (std::int64_t k = 0; k < a.cols; ++k) {
      const T aik = a(i, k);
      const T* bk = &b(k, 0);
      for (std::int64_t j = 0; j < b.cols; ++j) ci[j] = add(s, ci[j], times(s, aik, bk[j]));
    }
  }
}

}  // namespace

template <class T>
Matrix<T> multiply_cpu(const Matrix<T>& a, const Matrix<T>& b, Semiring s, CpuAlgo algo, int threads, Progress* progress) {
  if (a.cols != b.rows)
    throw InputError("shapes do not chain: " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " times " +
                     std::to_string(b.rows) + " x " + std::to_string(b.cols));
  Matrix<T> c(a.rows, b.cols, zero<T>(s));
  const auto row_done = [&] {
    if (progress) progress->add(product_operations(1, a.cols, b.cols));
  };
  switch (algo) {
    case CpuAlgo::ijk:
      for (std::int64_t i = 0; i < a.rows; ++i) {
        for (std::int64_t j = 0; j < b.cols; ++j) {
          T acc = zero<T>(s);
          for (std::int64_t k = 0; k < a.cols; ++k) acc = add(s, acc, times(s, a(i, k), b(k, j)));
          c(i, j) = acc;
        }
        row_done();
      }
      break;
    case CpuAlgo::ikj:
      for (std::int64_t i = 0; i < a.rows; ++i) ikj_rows(a, b, s, c, i, i + 1), row_done();
      break;
    case CpuAlgo::openmp:
#pragma omp parallel for schedule(static) num_threads(threads)
      for (std::int64_t i = 0; i < a.rows; ++i) ikj_rows(a, b, s, c, i, i + 1), row_done();
      break;
  }
  return c;
}

template Matrix<float> multiply_cpu(const Matrix<float>&, const Matrix<float>&, Semiring, CpuAlgo, int, Progress*);
template Matrix<double> multiply_cpu(const Matrix<double>&, const Matrix<double>&, Semiring, CpuAlgo, int, Progress*);
template Matrix<std::int32_t> multiply_cpu(const Matrix<std::int32_t>&, const Matrix<std::int32_t>&, Semiring, CpuAlgo,
                                           int, Progress*);
template void check_range(const Matrix<float>&, Semiring, std::string_view);
template void check_range(const Matrix<double>&, Semiring, std::string_view);
template void check_range(const Matrix<std::int32_t>&, Semiring, std::string_view);

}  // namespace gdp::semiring
