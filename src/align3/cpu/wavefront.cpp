// The cube by anti-diagonal planes (i + j + k = q), the cells of each plane
// in parallel with OpenMP: every cell's seven predecessors lie on the three
// planes before. Four planes are kept, each indexed by (i, j): O(|a| |b|)
// memory.
#include <algorithm>
#include <vector>

#include "align3/cpu/passes.hpp"
#include "align3/recurrence.hpp"
#include "core/progress.hpp"

namespace gdp::align3 {

std::vector<int> last_layer(Residues a, Residues b, Residues c, const ScoringScheme& s, int gap, int threads,
                            Progress* progress) {
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size()),
                  p = static_cast<long long>(c.size());
  const std::size_t w = static_cast<std::size_t>(n + 1), plane_cells = static_cast<std::size_t>(m + 1) * w;
  std::vector<int> ring(4 * plane_cells, neg_inf);
  std::vector<int> last(static_cast<std::size_t>((n + 1) * (p + 1)), neg_inf);
  auto plane = [&](long long q) { return ring.data() + static_cast<std::size_t>(q % 4) * plane_cells; };
  plane(0)[0] = 0;
  if (m == 0) last[0] = 0;
  for (long long q = 1; q <= m + n + p; ++q) {
    int* here = plane(q);
    const long long i_lo = std::max(0LL, q - n - p), i_hi = std::min(m, q);
    const int *back1 = plane(q - 1), *back2 = q >= 2 ? plane(q - 2) : nullptr, *back3 = q >= 3 ? plane(q - 3) : nullptr;
#pragma omp parallel for schedule(static) num_threads(std::max(threads, 1))
    for (long long i = i_lo; i <= i_hi; ++i) {
      const long long j_lo = std::max(0LL, q - i - p), j_hi = std::min(n, q - i);
      const std::size_t row = static_cast<std::size_t>(i) * w, up = row - w;  // (i, 0) and (i - 1, 0)
      const int* sub_a = i ? s.row(a[static_cast<std::size_t>(i - 1)]) : nullptr;
      for (long long j = j_lo; j <= j_hi; ++j) {
        const long long k = q - i - j;
        const std::size_t at = row + static_cast<std::size_t>(j);
        // The seven predecessors (recurrence.hpp's moves), minus infinity off the cube.
        const bool hi = i > 0, hj = j > 0, hk = k > 0;
        int prev[8];
        prev[0] = neg_inf;
        prev[kMoveA] = hi ? back1[up + static_cast<std::size_t>(j)] : neg_inf;
        prev[kMoveB] = hj ? back1[at - 1] : neg_inf;
        prev[kMoveC] = hk ? back1[at] : neg_inf;
        prev[kMoveA | kMoveB] = hi && hj ? back2[up + static_cast<std::size_t>(j) - 1] : neg_inf;
        prev[kMoveA | kMoveC] = hi && hk ? back2[up + static_cast<std::size_t>(j)] : neg_inf;
        prev[kMoveB | kMoveC] = hj && hk ? back2[at - 1] : neg_inf;
        prev[kMoves] = hi && hj && hk ? back3[up + static_cast<std::size_t>(j) - 1] : neg_inf;
        const std::uint8_t lb = hj ? b[static_cast<std::size_t>(j - 1)] : 0, lc = hk ? c[static_cast<std::size_t>(k - 1)] : 0;
        const int ab = hi && hj ? sub_a[lb] : 0, ac = hi && hk ? sub_a[lc] : 0, bc = hj && hk ? s.score(lb, lc) : 0;
        unsigned from = 0;
        const int h = update_cell(prev, ab, ac, bc, gap, from);
        here[at] = h;
        if (i == m) last[static_cast<std::size_t>(j * (p + 1) + k)] = h;
      }
    }
    if (progress) {  // the plane's cells
      std::uint64_t cells = 0;
      for (long long i = i_lo; i <= i_hi; ++i) cells += static_cast<std::uint64_t>(std::min(n, q - i) - std::max(0LL, q - i - p) + 1);
      progress->add(cells);
    }
  }
  return last;
}

int score_wavefront(Residues a, Residues b, Residues c, const ScoringScheme& s, int gap, int threads) {
  return last_layer(a, b, c, s, gap, threads).back();
}

}  // namespace gdp::align3
