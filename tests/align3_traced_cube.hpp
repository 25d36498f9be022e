#pragma once
// The three-phase traceback's first two phases on the host, cell by cell:
// the oracle the GPU's traced pass is checked against. Every cell of the
// cube gets its H and its local start point by update_cell_traced, with
// the kernel's chunks (start_points.hpp) and the kernel's order of
// predecessors; the start points of the chunks' last rows and columns go
// where the kernel keeps them, and walk_starts follows them back.
#include <optional>
#include <vector>

#include "align3/align3.hpp"
#include "align3/cpu/passes.hpp"
#include "align3/cuda/start_points.hpp"
#include "align3/recurrence.hpp"

namespace gdp::test {

inline std::vector<align3::CubePoint> traced_cube_chain(align3::Residues a, align3::Residues b, align3::Residues c,
                                                        const ScoringScheme& s, int gap) {
  using namespace align3;
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size()),
                  p = static_cast<long long>(c.size());
  const int rows = static_cast<int>(m / kChunkRows + 1), cols = static_cast<int>(n / kChunkCols + 1);
  const FaceLayout faces{p, static_cast<long long>(cols) * kChunkCols, rows, cols};
  std::vector<int> bottom(static_cast<std::size_t>(faces.bottom_cells()), -1),
      right(static_cast<std::size_t>(faces.right_cells()), -1);
  const auto at = [&](long long i, long long j, long long k) { return static_cast<std::size_t>((i * (n + 1) + j) * (p + 1) + k); };
  std::vector<int> h(static_cast<std::size_t>((m + 1) * (n + 1) * (p + 1))), start(h.size());
  for (long long i = 0; i <= m; ++i)
    for (long long j = 0; j <= n; ++j)
      for (long long k = 0; k <= p; ++k) {
        const long long i0 = i / kChunkRows * kChunkRows, j0 = j / kChunkCols * kChunkCols;
        // Predecessor `move`'s H and start point: inside the chunk its own,
        // on the row above or the column left of it the cell itself.
        auto pred = [&](unsigned move, int& s_out) {
          const long long x = i - ((move & kMoveA) != 0), y = j - ((move & kMoveB) != 0), z = k - ((move & kMoveC) != 0);
          s_out = 0;
          if (x < 0 || y < 0 || z < 0) return neg_inf;
          if (x < i0)
            s_out = start_above(static_cast<int>(y - (j0 - 1)), static_cast<int>(z));
          else if (y < j0)
            s_out = start_left(static_cast<int>(x - i0), static_cast<int>(z));
          else
            s_out = start[at(x, y, z)];
          return h[at(x, y, z)];
        };
        const unsigned order[7] = {kMoveA, kMoveB, kMoveC, kMoveA | kMoveB, kMoveA | kMoveC, kMoveB | kMoveC, kMoves};
        int hv[7], sv[7];
        for (int x = 0; x < 7; ++x) hv[x] = pred(order[x], sv[x]);
        const int ab = i > 0 && j > 0 ? s.score(a[i - 1], b[j - 1]) : 0;
        const int ac = i > 0 && k > 0 ? s.score(a[i - 1], c[k - 1]) : 0;
        const int bc = j > 0 && k > 0 ? s.score(b[j - 1], c[k - 1]) : 0;
        int st = 0;
        int hh = update_cell_traced(hv[0], hv[1], hv[2], hv[3], hv[4], hv[5], hv[6], ab, ac, bc, 2 * gap, sv[0], sv[1],
                                    sv[2], sv[3], sv[4], sv[5], sv[6], st);
        if (i == 0 && j == 0 && k == 0) hh = 0, st = start_above(kOriginStart, 0);
        h[at(i, j, k)] = hh;
        start[at(i, j, k)] = st;
        if (i % kChunkRows == kChunkRows - 1 && i / kChunkRows + 1 < rows) bottom[static_cast<std::size_t>(faces.bottom(i, j, k))] = st;
        if (j % kChunkCols == kChunkCols - 1 && j / kChunkCols + 1 < cols) right[static_cast<std::size_t>(faces.right(i, j, k))] = st;
      }
  std::vector<CubeCell> back(static_cast<std::size_t>(rows + cols));
  const int count = walk_starts(bottom.data(), right.data(), faces, m, n, start[at(m, n, p)], back.data());
  std::vector<CubePoint> points;
  if (count <= 0) return points;
  for (int x = count - 1; x >= 0; --x) {
    const CubeCell& e = back[static_cast<std::size_t>(x)];
    points.push_back({static_cast<std::size_t>(e.i), static_cast<std::size_t>(e.j), static_cast<std::size_t>(e.k)});
  }
  points.push_back({a.size(), b.size(), c.size()});
  return points;
}

}  // namespace gdp::test
