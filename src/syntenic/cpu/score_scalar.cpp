// The oracle's score pass: row by row, in linear memory.
#include <vector>

#include "core/progress.hpp"
#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {

LastCell score_scalar(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c, Progress* progress) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  // down[j]: S, D, H of (i-1, j); down[0] only its S, the next row's diagonal.
  std::vector<Down> down(static_cast<std::size_t>(n + 1));
  down[0] = top_origin(c);
  for (std::int64_t j = 1; j <= n; ++j) down[static_cast<std::size_t>(j)] = top(c, j);
  for (std::int64_t i = 1; i <= m; ++i) {
    Edge edge = left(c, i);
    int diag = down[0].s;
    down[0] = {edge.s, left_d(c, i), edge.h};
    for (std::int64_t j = 1; j <= n; ++j) {
      Down& cell = down[static_cast<std::size_t>(j)];
      const int above = cell.s;
      update_cell(diag, scheme.score(a[static_cast<std::size_t>(i - 1)], b[static_cast<std::size_t>(j - 1)]), cell,
                  edge, c);
      diag = above;
    }
    if (progress) progress->add(static_cast<std::uint64_t>(n));
  }
  const Down& last = down[static_cast<std::size_t>(n)];
  return {last.s, last.h};
}

}  // namespace gdp::syntenic
