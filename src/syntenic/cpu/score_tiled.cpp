// One long pair on many cores: the matrix cut into tiles, the tiles of one
// anti-diagonal computed in parallel (each needs only its top, left and
// corner neighbours, which lie on the two diagonals before).
//
// down[j] holds S, D, H of the last row a tile above has computed, at
// column j. For tile-row r, edges[r][k] (k >= 1) holds S, I, H of row
// i0 + k at the last column computed in that row, and edges[r][0].s the S
// of the tile's top-left corner. Row 0 and column 0 come from the part's
// borders (borders.hpp). A tile reads the corner of the next tile
// in its row (down at its last column) before it overwrites that column.
#include <algorithm>
#include <vector>

#include "core/progress.hpp"
#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {
namespace {

struct Tiling {
  std::int64_t m, n, side, tile_rows, tile_cols;
};

void sweep_tile(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c, const Tiling& T,
                std::int64_t bi, std::int64_t bj, Down* down, Edge* edges) {
  const std::int64_t i0 = bi * T.side, i1 = std::min(T.m, i0 + T.side);
  const std::int64_t j0 = bj * T.side, j1 = std::min(T.n, j0 + T.side);
  const int next_corner = down[j1].s;
  int diag_left = edges[0].s;  // S(i-1, j0)
  for (std::int64_t i = i0 + 1; i <= i1; ++i) {
    const std::int64_t k = i - i0;
    const int* sub = scheme.row(a[static_cast<std::size_t>(i - 1)]);
    int diag = diag_left;
    Edge edge = edges[k];
    diag_left = edge.s;
    for (std::int64_t j = j0 + 1; j <= j1; ++j) {
      const int above = down[j].s;
      update_cell(diag, sub[b[static_cast<std::size_t>(j - 1)]], down[j], edge, c);
      diag = above;
    }
    edges[k] = edge;
  }
  edges[0].s = next_corner;
}

}  // namespace

std::vector<Down> last_row_tiled(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c,
                                 const Borders& borders, int threads, Progress* progress, std::int64_t side) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  if (side <= 0) side = std::clamp<std::int64_t>(std::min(m, n) / (6 * std::max(threads, 1)), 128, 4096);
  std::vector<Down> down = borders.top;
  if (m == 0 || n == 0) {
    down[0] = borders.left_down(static_cast<std::size_t>(m));
    return down;
  }
  const Tiling T{m, n, side, (m + side - 1) / side, (n + side - 1) / side};
  const std::size_t stride = static_cast<std::size_t>(side + 1);
  std::vector<Edge> edges(static_cast<std::size_t>(T.tile_rows) * stride);
  for (std::int64_t r = 0; r < T.tile_rows; ++r) {
    const std::int64_t i0 = r * side;
    for (std::int64_t k = 0; k <= side; ++k)
      edges[static_cast<std::size_t>(r) * stride + static_cast<std::size_t>(k)] =
          borders.left[static_cast<std::size_t>(std::min(m, i0 + k))];
  }
#pragma omp parallel num_threads(threads)
  for (std::int64_t d = 0; d < T.tile_rows + T.tile_cols - 1; ++d) {
    const std::int64_t lo = std::max<std::int64_t>(0, d - T.tile_cols + 1), hi = std::min(T.tile_rows - 1, d);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t bi = lo; bi <= hi; ++bi) {
      sweep_tile(a, b, scheme, c, T, bi, d - bi, down.data(), &edges[static_cast<std::size_t>(bi) * stride]);
      if (progress)
        progress->add(static_cast<std::uint64_t>(std::min(side, m - bi * side) * std::min(side, n - (d - bi) * side)));
    }
  }
  down[0] = borders.left_down(static_cast<std::size_t>(m));
  return down;
}

LastCell score_tiled(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c, int threads,
                     Progress* progress, std::int64_t side) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  if (m == 0 || n == 0 ||
      (side <= 0 && (threads <= 1 || static_cast<double>(m) * static_cast<double>(n) < 4e6 || m < 256 || n < 256)))
    return score_scalar(a, b, scheme, c, progress);
  // The whole matrix's borders: recurrence.hpp's in S and H, all the
  // interior reads of them.
  const Borders borders = borders_of(Entry::start, a.size(), b.size(), c);
  const Down last = last_row_tiled(a, b, scheme, c, borders, threads, progress, side)[b.size()];
  return {last.s, last.h};
}

}  // namespace gdp::syntenic
