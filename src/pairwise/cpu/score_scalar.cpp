// The scalar oracle: simple and obviously right. Everything else is tested
// against it.
#include <algorithm>
#include <vector>

#include "core/progress.hpp"
#include "pairwise/cpu/passes.hpp"

namespace gdp::pairwise {
namespace {

template <bool Local>
PassResult run(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, LastRow last_row,
               Progress* progress, SavedRows* saved) {
  const GapCosts g = gap_costs(scheme);
  const std::int64_t m = static_cast<std::int64_t>(q.size()), n = static_cast<std::int64_t>(t.size());
  std::vector<int> H(static_cast<std::size_t>(n + 1)), F(static_cast<std::size_t>(n + 1), neg_inf);
  for (std::int64_t j = 0; j <= n; ++j) H[j] = top_h_of(shape, g, j);

  PassResult best{0, 0, 0};  // H(0,0) = 0; no other boundary cell is higher
  for (std::int64_t i = 1; i <= m; ++i) {
    const int* sub = scheme.row(q[i - 1]);
    int diag = H[0];
    H[0] = left_h_of(shape, g, i);
    int left = H[0], e = neg_inf;
    for (std::int64_t j = 1; j <= n; ++j) {
      const int up = H[j];
      const int h = update_cell<Local>(diag, up, left, sub[t[j - 1]], e, F[j], g);
      diag = up;
      H[j] = left = h;
      if (shape.end == End::anywhere && h > best.score) best = {h, i, j};
    }
    if (progress) progress->add(static_cast<std::uint64_t>(n));
    if (saved && i % saved->every == 0) {
      const std::int64_t k = i / saved->every;
      std::copy(H.begin(), H.end(), saved->h(k).begin());
      std::copy(F.begin(), F.end(), saved->f(k).begin());
      saved->f(k)[0] = H[0];  // as finish_pass hands out a last row
    }
  }
  return finish_pass(H, F, m, shape, best, last_row);
}

}  // namespace

PassResult score_pass_scalar(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                             LastRow last_row, Progress* progress, SavedRows* saved) {
  if (saved) saved->allocate(static_cast<std::int64_t>(q.size()) / saved->every, static_cast<std::int64_t>(t.size()) + 1);
  return shape.local ? run<true>(q, t, scheme, shape, last_row, progress, saved)
                     : run<false>(q, t, scheme, shape, last_row, progress, saved);
}

}  // namespace gdp::pairwise
