// BPMax on the CPU in the form the GPU engine takes: F kept as one matrix
// per strand-1 interval (i1, j1) of the window, M(M+1)/2 of them without
// one, each row i2 the window's band of cells j2 = i2 .. i2 + span2;
// filled a diagonal of strand-1 intervals (j1 - i1 = d1) at a time. For
// each matrix of the diagonal:
//   1. R, the candidates that read only shorter strand-1 intervals, in
//      blocks of rows i2: S1(i1, j1) + S2, the pair (i1, j1), the
//      single-strand splits of strand 1, and the double reduction D as
//      max-plus products F(i1, k1) (x) F(k1+1, j1) over k1;
//   2. the matrix itself, rows from the last up, each left to right: R,
//      the pair (i2, j2) and strand 2's single-strand splits, the splits
//      against rows below added a row at a time and those against the row's
//      own cells pushed forward as each is fixed.
// The candidates are the oracle's (bpmax_recurrence.hpp), so every F equals
// the oracle's (tests/test_bpmax.cpp) and the traceback is the same.
#include <algorithm>
#include <vector>

#include "core/progress.hpp"
#include "fold/cpu/bpmax_tables.hpp"

namespace gdp::fold {
namespace {

using bpmax_cpu::Strands;

// F of strand-1 interval (i1, j1) in matrix first(j1 - i1) + i1 (one
// diagonal's matrices consecutive), its cell (i2, j2) at i2 span2 + j2:
// row i2 the span2 + 1 cells j2 = i2 .. i2 + span2 after row i2 - 1's.
struct MatrixF {
  long long m = 0, n = 0, span2 = 0;
  std::vector<int> f;
  MatrixF(const Strands& s)
      : m(s.m), n(s.n), span2(s.span2), f(static_cast<std::size_t>(s.intervals() * s.n * (s.span2 + 1)), 0) {}
  long long matrix(long long i1, long long j1) const { return bpmax_interval(m, i1, j1); }
  const int* row(long long i1, long long j1, long long i2) const {
    return f.data() + matrix(i1, j1) * n * (span2 + 1) + i2 * span2;
  }
  int* row(long long i1, long long j1, long long i2) { return f.data() + matrix(i1, j1) * n * (span2 + 1) + i2 * span2; }
  int operator()(long long i1, long long j1, long long i2, long long j2) const { return row(i1, j1, i2)[j2]; }
  long long end(long long i2) const { return std::min(n, i2 + span2 + 1); }  // past row i2's last cell
};

// Step 1 rows at a time: each row of B that the double reduction reads
// serves every row of the block while it is in the cache.
constexpr long long kRowBlock = 16;

// The inner loops are max-plus sweeps over contiguous ints, in a function
// of their own so that they stay the innermost loop: with AVX2 (its 32-bit
// max) where the CPU has it, the version chosen when the program starts.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GDP_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GDP_VECTOR_CLONES
#endif

// r[j] = max(r[j], a + b[j]) for from <= j < to.
GDP_VECTOR_CLONES void max_plus_sweep(int* __restrict r, int a, const int* __restrict b, long long from, long long to) {
  for (long long j = from; j < to; ++j) r[j] = std::max(r[j], a + b[j]);
}

// max(0, a[x] + b[x] for 0 <= x < count).
GDP_VECTOR_CLONES int max_plus_dot(const int* __restrict a, const int* __restrict b, long long count) {
  int best = 0;
  for (long long x = 0; x < count; ++x) best = std::max(best, a[x] + b[x]);
  return best;
}

// Step 1 for rows i2_begin .. i2_end - 1 of matrix (i1, j1): R(i2, j2) for
// every j2 >= i2.
void candidates_of_shorter(const Strands& s, MatrixF& t, long long i1, long long j1, long long i2_begin,
                           long long i2_end) {
  const int s1 = s.s1(i1, j1), w1 = s.w1(i1, j1);
  for (long long i2 = i2_begin; i2 < i2_end; ++i2) {
    int* r = t.row(i1, j1, i2);
    const int* s2 = s.s2.row(i2);
    const long long end = t.end(i2);
    for (long long j2 = i2; j2 < end; ++j2) r[j2] = s1 + s2[j2];
    if (j1 - i1 > kBpmaxMinSpan && w1 > 0) {
      const int* inner = t.row(i1 + 1, j1 - 1, i2);
      for (long long j2 = i2; j2 < end; ++j2) r[j2] = std::max(r[j2], inner[j2] + w1);
    }
    for (long long k1 = i1; k1 < j1; ++k1) {
      const int* left = t.row(i1, k1, i2);      // F(i1, k1, i2, .)
      const int* right = t.row(k1 + 1, j1, i2);  // F(k1+1, j1, i2, .)
      const int s_right = s.s1(k1 + 1, j1), s_left = s.s1(i1, k1);
      for (long long j2 = i2; j2 < end; ++j2) r[j2] = std::max({r[j2], left[j2] + s_right, s_left + right[j2]});
    }
  }
  // D: F(i1, k1, i2, k2) + F(k1+1, j1, k2+1, j2) for i2 <= k2 < j2 <= i2 + span2.
  for (long long k1 = i1; k1 < j1; ++k1)
    for (long long k2 = i2_begin; k2 + 1 < s.n; ++k2) {
      const int* b = t.row(k1 + 1, j1, k2 + 1);
      for (long long i2 = std::max(i2_begin, k2 - s.span2 + 1); i2 < i2_end && i2 <= k2; ++i2) {
        max_plus_sweep(t.row(i1, j1, i2), t.row(i1, k1, i2)[k2], b, k2 + 1, t.end(i2));
      }
    }
}

// Step 2 for matrix (i1, j1), its rows holding R.
void fill_matrix(const Strands& s, MatrixF& t, long long i1, long long j1, std::vector<int>& acc) {
  for (long long i2 = s.n - 1; i2 >= 0; --i2) {
    int* row = t.row(i1, j1, i2);
    const long long end = t.end(i2);
    for (long long j2 = i2; j2 < end; ++j2) acc[static_cast<std::size_t>(j2)] = row[j2];
    // S2(i2, k2) + F(i1, j1, k2+1, j2): rows below, final.
    for (long long k2 = i2; k2 + 1 < end; ++k2) {
      const int sv = s.s2(i2, k2);
      max_plus_sweep(acc.data(), sv, t.row(i1, j1, k2 + 1), k2 + 1, end);
    }
    for (long long j2 = i2; j2 < end; ++j2) {
      int v = acc[static_cast<std::size_t>(j2)];
      if (i1 == j1 && i2 == j2) {
        v = s.w12(i1, i2);  // the pair between the strands, the only candidate
      } else {
        const int w2 = s.w2(i2, j2);
        if (j2 - i2 > kBpmaxMinSpan && w2 > 0) v = std::max(v, t.row(i1, j1, i2 + 1)[j2 - 1] + w2);
      }
      row[j2] = v;
      // F(i1, j1, i2, j2) + S2(j2+1, j') for every j' > j2 in the row.
      if (j2 + 1 < end) max_plus_sweep(acc.data(), v, s.s2.row(j2 + 1), j2 + 1, end);
    }
  }
}

MatrixF fill(const Strands& s, int threads, Progress* whole, std::uint64_t share) {
  const long long m = s.m, n = s.n;
  Progress progress(whole, share, s.fill_weight());
  MatrixF t(s);
  for (long long d1 = 0; d1 <= s.span1; ++d1) {
    const long long count = m - d1;
    const long long blocks = (n + kRowBlock - 1) / kRowBlock;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
    for (long long x = 0; x < count * blocks; ++x) {
      const long long i1 = x / blocks, i2 = x % blocks * kRowBlock;
      candidates_of_shorter(s, t, i1, i1 + d1, i2, std::min(n, i2 + kRowBlock));
    }
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
      std::vector<int> acc(static_cast<std::size_t>(n));
#pragma omp for schedule(dynamic, 1)
      for (long long i1 = 0; i1 < count; ++i1) fill_matrix(s, t, i1, i1 + d1, acc);
    }
    progress.add(s.diagonal_weight(d1));
  }
  return t;
}

}  // namespace

namespace bpmax_cpu {

SingleTable fill_single_diagonals(const std::vector<std::uint8_t>& b, const PairWeights& w, long long span,
                                  int threads) {
  const long long n = static_cast<long long>(b.size());
  SingleTable t(n, span);
  // S(i, j) by columns at j span + i + span: column j the cells i = j - span .. j.
  std::vector<int> by_column(static_cast<std::size_t>(n * (span + 1)), 0);
  for (long long d = kBpmaxMinSpan + 1; d <= span; ++d) {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && n - d >= 256)
    for (long long i = 0; i < n - d; ++i) {
      const long long j = i + d;
      int* column = by_column.data() + j * span + span;  // column[i'] = S(i', j)
      // S(i, k) + S(k+1, j) for i <= k < j: row i against column j, one further on.
      int best = max_plus_dot(t.row(i) + i, column + i + 1, d);
      const int w_ij = pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]);
      if (w_ij > 0) best = std::max(best, t(i + 1, j - 1) + w_ij);
      t.at(i, j) = column[i] = best;
    }
  }
  return t;
}

}  // namespace bpmax_cpu

Interaction interact_products(std::string_view s1, std::string_view s2, const PairWeights& weights, int threads,
                              const InteractionWindow& window, Progress* progress, std::uint64_t share) {
  return bpmax_cpu::shorter_strand_first(s1, s2, window, [&](std::string_view one, std::string_view two,
                                                             const InteractionWindow& w) {
    const Strands s(one, two, weights, w, bpmax_cpu::SingleFill::diagonals, threads);
    return bpmax_cpu::result_of(s, fill(s, threads, progress, share));
  });
}

}  // namespace gdp::fold
