// One long pair on many cores: the matrix is cut into tiles, and the tiles of
// one anti-diagonal are computed in parallel (each needs only its top, left
// and corner neighbours, which lie on the two diagonals before).
//
// Boundaries: top_h/top_f hold, for every column, H and F of the last row a
// tile above has computed. left_h[r]/left_e[r] hold, for tile-row r, H and E
// of the last column computed in that row, and left_h[r][0] the H of the
// tile's top-left corner. A tile reads the corner of the next tile in its row
// (top_h at its last column) before it overwrites that column.
#include <algorithm>
#include <omp.h>
#include <vector>

#include "core/progress.hpp"
#include "pairwise/cpu/passes.hpp"

namespace gdp::pairwise {
namespace {

// (score, i, j) ordered by score, then by row-major position (earlier wins).
bool better(const PassResult& a, const PassResult& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.end_i != b.end_i ? a.end_i < b.end_i : a.end_j < b.end_j;
}

struct Tiling {
  std::int64_t m, n, rows, cols, tile_rows, tile_cols;
};

template <bool Local>
PassResult sweep_tile(Residues q, Residues t, const ScoringScheme& scheme, GapCosts g, bool track_best,
                      const Tiling& T, std::int64_t bi, std::int64_t bj, int* top_h, int* top_f, int* left_h,
                      int* left_e) {
  const std::int64_t i0 = bi * T.rows, i1 = std::min(T.m, i0 + T.rows);
  const std::int64_t j0 = bj * T.cols, j1 = std::min(T.n, j0 + T.cols);
  const int next_corner = top_h[j1];
  int diag_left = left_h[0];  // H(i-1, j0)
  PassResult best{neg_inf, 0, 0};
  for (std::int64_t i = i0 + 1; i <= i1; ++i) {
    const std::int64_t k = i - i0;
    const int* sub = scheme.row(q[i - 1]);
    int diag = diag_left;
    diag_left = left_h[k];
    int left = left_h[k], e = left_e[k];
    for (std::int64_t j = j0 + 1; j <= j1; ++j) {
      const int up = top_h[j];
      const int h = update_cell<Local>(diag, up, left, sub[t[j - 1]], e, top_f[j], g);
      diag = up;
      top_h[j] = left = h;
      if (track_best && h > best.score) best = {h, i, j};
    }
    left_h[k] = left;
    left_e[k] = e;
  }
  left_h[0] = next_corner;
  return best;
}

template <bool Local>
PassResult run(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
               LastRow last_row, Progress* progress, std::int64_t side) {
  const GapCosts g = gap_costs(scheme);
  const std::int64_t m = static_cast<std::int64_t>(q.size()), n = static_cast<std::int64_t>(t.size());
  // Enough tiles per anti-diagonal to keep every thread busy, big enough
  // that the barrier between diagonals costs little.
  const Tiling T{m, n, side, side, (m + side - 1) / side, (n + side - 1) / side};

  std::vector<int> top_h(static_cast<std::size_t>(n + 1)), top_f(static_cast<std::size_t>(n + 1), neg_inf);
  for (std::int64_t j = 0; j <= n; ++j) top_h[j] = top_h_of(shape, g, j);
  const std::size_t stride = static_cast<std::size_t>(side + 1);
  std::vector<int> left_h(static_cast<std::size_t>(T.tile_rows) * stride), left_e(left_h.size(), neg_inf);
  for (std::int64_t r = 0; r < T.tile_rows; ++r)
    for (std::int64_t k = 0; k <= side; ++k) left_h[r * stride + k] = left_h_of(shape, g, std::min(m, r * side + k));

  const bool track_best = shape.end == End::anywhere;
  std::vector<PassResult> best_of_thread(static_cast<std::size_t>(threads), PassResult{0, 0, 0});
#pragma omp parallel num_threads(threads)
  {
    PassResult& mine = best_of_thread[static_cast<std::size_t>(omp_get_thread_num())];
    for (std::int64_t d = 0; d < T.tile_rows + T.tile_cols - 1; ++d) {
      const std::int64_t lo = std::max<std::int64_t>(0, d - T.tile_cols + 1), hi = std::min(T.tile_rows - 1, d);
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t bi = lo; bi <= hi; ++bi) {
        const PassResult b = sweep_tile<Local>(q, t, scheme, g, track_best, T, bi, d - bi, top_h.data(),
                                               top_f.data(), &left_h[bi * stride], &left_e[bi * stride]);
        if (track_best && better(b, mine)) mine = b;
        if (progress)
          progress->add(static_cast<std::uint64_t>(std::min(side, m - bi * side) * std::min(side, n - (d - bi) * side)));
      }
    }
  }
  top_h[0] = left_h_of(shape, g, m);
  PassResult best{0, 0, 0};
  if (shape.end == End::anywhere)
    for (const auto& b : best_of_thread)
      if (better(b, best)) best = b;
  return finish_pass(top_h, top_f, m, shape, best, last_row);
}

}  // namespace

PassResult score_pass_tiled(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
                            LastRow last_row, Progress* progress, std::int64_t side) {
  const std::int64_t m = static_cast<std::int64_t>(q.size()), n = static_cast<std::int64_t>(t.size());
  if (side <= 0) {
    // Small matrices gain nothing from threads.
    if (threads <= 1 || static_cast<double>(m) * static_cast<double>(n) < 4e6 || m < 256 || n < 256)
      return score_pass_scalar(q, t, scheme, shape, last_row, progress);
    // Enough tiles per anti-diagonal to keep every thread busy, big enough
    // that the barrier between diagonals costs little.
    side = std::clamp<std::int64_t>(std::min(m, n) / (6 * threads), 128, 4096);
  }
  if (m == 0 || n == 0) return score_pass_scalar(q, t, scheme, shape, last_row, progress);
  return shape.local ? run<true>(q, t, scheme, shape, threads, last_row, progress, side)
                     : run<false>(q, t, scheme, shape, threads, last_row, progress, side);
}

}  // namespace gdp::pairwise
