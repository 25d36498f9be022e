// The full matrix of direction bits and a traceback from (m, n): the
// reference alignment, for small pairs and tests.
#include <algorithm>
#include <vector>

#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {

Alignment align_full_matrix(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  const std::int64_t w = n + 1;
  std::vector<std::uint8_t> dirs(static_cast<std::size_t>((m + 1) * w));
  auto at = [w](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * w + j); };
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
      dirs[at(i, j)] = static_cast<std::uint8_t>(update_cell(
          diag, scheme.score(a[static_cast<std::size_t>(i - 1)], b[static_cast<std::size_t>(j - 1)]), cell, edge, c));
      diag = above;
    }
  }
  const Down& last = down[static_cast<std::size_t>(n)];
  Alignment out;
  out.score = final_score(c, last.s, last.h);
  out.query_end = m;
  out.target_end = n;

  // Ends in a block when that scores more than ending with the end's charge.
  int state = c.charged && last.h > last.s - c.block ? in_h : in_s;
  std::vector<Step> back;  // the path's steps, last first
  std::int64_t i = m, j = n;
  while (i > 0 && j > 0) take_step(step_back(state, dirs[at(i, j)]), back, i, j);
  // The border: a leading gap run, or a leading block (recurrence.hpp's
  // S(i, 0) and S(0, j): the gap run where it scores as well).
  const std::int64_t k = std::max(i, j);
  const bool gap_run = state == in_d || state == in_i || (state == in_s && leading_gap(c, k) >= -c.block);
  for (std::int64_t x = 0; x < k; ++x)
    back.push_back({j == 0 ? (gap_run ? Step::query_gap : Step::block_query) : (gap_run ? Step::target_gap : Step::block_target)});
  if (k > 0 && !gap_run) back.back().starts = true;
  out.regions = regions_of({back.rbegin(), back.rend()}, a, b, scheme, c);
  return out;
}

}  // namespace gdp::syntenic
