// One long pair on many cores: the matrix is cut into tiles, and the tiles of
// one anti-diagonal are computed in parallel (each needs only its top, left
// and corner neighbours, which lie on the two diagonals before).
//
// Boundaries: top_h/top_f hold, for every column, H and F of the last row a
// tile above has computed. left_h[r]/left_e[r] hold, for tile-row r, H and E
// of the last column computed in that row, and left_h[r][0] the H of the
// tile's top-left corner. A tile reads the corner of the next tile in its row
// (top_h at its last column) before it overwrites that column.
//
// Local passes that look for the best cell anywhere (and want no last row)
// skip the tiles that cannot beat the best score the finished tiles have
// found (pruning.hpp); which tiles those are depends on the threads'
// timing, the result does not.
#include <algorithm>
#include <atomic>
#include <omp.h>
#include <vector>

#include "core/log.hpp"
#include "core/progress.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/pruning.hpp"

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

// The rows of tile-row bi (fewer in the last one).
std::int64_t tile_rows_of(const Tiling& T, std::int64_t bi) { return std::min(T.m, (bi + 1) * T.rows) - bi * T.rows; }

// The largest H a tile starts from: its corner and left column (left_h),
// and the row above its columns (top_h).
int entering_h(const Tiling& T, std::int64_t bi, std::int64_t bj, const int* top_h, const int* left_h) {
  const std::int64_t j0 = bj * T.cols, j1 = std::min(T.n, j0 + T.cols);
  int most = *std::max_element(left_h, left_h + tile_rows_of(T, bi) + 1);
  for (std::int64_t j = j0 + 1; j <= j1; ++j) most = std::max(most, top_h[j]);
  return most;
}

// A pruned tile's edges, as the tiles after it read them: H = 0, and E and
// F minus infinity.
void skip_tile(const Tiling& T, std::int64_t bi, std::int64_t bj, int* top_h, int* top_f, int* left_h, int* left_e) {
  const std::int64_t j0 = bj * T.cols, j1 = std::min(T.n, j0 + T.cols);
  const int next_corner = top_h[j1];
  std::fill(top_h + j0 + 1, top_h + j1 + 1, 0);
  std::fill(top_f + j0 + 1, top_f + j1 + 1, neg_inf);
  std::fill(left_h + 1, left_h + tile_rows_of(T, bi) + 1, 0);
  std::fill(left_e + 1, left_e + tile_rows_of(T, bi) + 1, neg_inf);
  left_h[0] = next_corner;
}

void raise_to(std::atomic<int>& found, int score) {
  for (int now = found.load(std::memory_order_relaxed); score > now && !found.compare_exchange_weak(now, score);) {
  }
}

template <bool Local>
PassResult run(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
               LastRow last_row, Progress* progress, std::int64_t side, const TiledPass& how) {
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
  const bool prune = Local && track_best && !last_row.h && how.prune;
  const int gain = pruning_gain(scheme);
  std::atomic<int> found{0};  // the best score of the tiles finished so far
  std::atomic<std::int64_t> pruned{0};
  std::vector<PassResult> best_of_thread(static_cast<std::size_t>(threads), PassResult{0, 0, 0});
#pragma omp parallel num_threads(threads)
  {
    PassResult& mine = best_of_thread[static_cast<std::size_t>(omp_get_thread_num())];
    for (std::int64_t d = 0; d < T.tile_rows + T.tile_cols - 1; ++d) {
      const std::int64_t lo = std::max<std::int64_t>(0, d - T.tile_cols + 1), hi = std::min(T.tile_rows - 1, d);
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t bi = lo; bi <= hi; ++bi) {
        const std::int64_t bj = d - bi, cells = std::min(side, m - bi * side) * std::min(side, n - bj * side);
        int* lh = &left_h[bi * stride];
        int* le = &left_e[bi * stride];
        if (prune && block_prunable(entering_h(T, bi, bj, top_h.data(), lh), m - bi * side, n - bj * side, gain,
                                    found.load(std::memory_order_relaxed))) {
          skip_tile(T, bi, bj, top_h.data(), top_f.data(), lh, le);
          pruned.fetch_add(cells, std::memory_order_relaxed);
        } else {
          const PassResult b = sweep_tile<Local>(q, t, scheme, g, track_best, T, bi, bj, top_h.data(), top_f.data(), lh, le);
          if (track_best && better(b, mine)) mine = b;
          if (prune) raise_to(found, b.score);
        }
        if (progress) progress->add(static_cast<std::uint64_t>(cells));
      }
    }
  }
  top_h[0] = left_h_of(shape, g, m);
  PassResult best{0, 0, 0};
  if (shape.end == End::anywhere)
    for (const auto& b : best_of_thread)
      if (better(b, best)) best = b;
  if (prune)
    spdlog::debug("local score pass of {} x {} on the CPU: {:.1f}% of the cells in pruned tiles", m, n,
                  100.0 * static_cast<double>(pruned.load()) / (static_cast<double>(m) * static_cast<double>(n)));
  if (how.pruned_cells) *how.pruned_cells = pruned.load();
  return finish_pass(top_h, top_f, m, shape, best, last_row);
}

}  // namespace

PassResult score_pass_tiled(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
                            LastRow last_row, Progress* progress, TiledPass how) {
  const std::int64_t m = static_cast<std::int64_t>(q.size()), n = static_cast<std::int64_t>(t.size());
  if (how.pruned_cells) *how.pruned_cells = 0;
  std::int64_t side = how.tile_side;
  if (side <= 0) {
    // Small matrices gain nothing from threads.
    if (threads <= 1 || static_cast<double>(m) * static_cast<double>(n) < 4e6 || m < 256 || n < 256)
      return score_pass_scalar(q, t, scheme, shape, last_row, progress);
    // Enough tiles per anti-diagonal to keep every thread busy, big enough
    // that the barrier between diagonals costs little.
    side = std::clamp<std::int64_t>(std::min(m, n) / (6 * threads), 128, 4096);
  }
  if (m == 0 || n == 0) return score_pass_scalar(q, t, scheme, shape, last_row, progress);
  return shape.local ? run<true>(q, t, scheme, shape, threads, last_row, progress, side, how)
                     : run<false>(q, t, scheme, shape, threads, last_row, progress, side, how);
}

}  // namespace gdp::pairwise
