// Full-matrix Gotoh with traceback: the reference alignment for tests.
#include <stdexcept>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {

Alignment align_full_matrix(Residues q, Residues t, const ScoringScheme& scheme, Mode mode) {
  const GapCosts g = gap_costs(scheme);
  const Shape shape = shape_of(mode, scheme);
  const std::int64_t m = static_cast<std::int64_t>(q.size()), n = static_cast<std::int64_t>(t.size());
  const std::int64_t w = n + 1;
  std::vector<int> H(static_cast<std::size_t>((m + 1) * w)), E(H.size(), neg_inf), F(H.size(), neg_inf);
  auto at = [w](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * w + j); };
  for (std::int64_t j = 0; j <= n; ++j) H[at(0, j)] = top_h_of(shape, g, j);
  for (std::int64_t i = 1; i <= m; ++i) {
    H[at(i, 0)] = left_h_of(shape, g, i);
    for (std::int64_t j = 1; j <= n; ++j) {
      int e = E[at(i, j - 1)], f = F[at(i - 1, j)];
      const int sub = scheme.score(q[i - 1], t[j - 1]);
      H[at(i, j)] = shape.local ? update_cell<true>(H[at(i - 1, j - 1)], H[at(i - 1, j)], H[at(i, j - 1)], sub, e, f, g)
                                : update_cell<false>(H[at(i - 1, j - 1)], H[at(i - 1, j)], H[at(i, j - 1)], sub, e, f, g);
      E[at(i, j)] = e;
      F[at(i, j)] = f;
    }
  }
  // The end cell: the first best in row-major order, as the passes choose.
  PassResult end{H[at(m, n)], m, n};
  if (shape.end == End::anywhere) {
    end = {0, 0, 0};
    for (std::int64_t i = 1; i <= m; ++i)
      for (std::int64_t j = 1; j <= n; ++j)
        if (H[at(i, j)] > end.score) end = {H[at(i, j)], i, j};
  } else if (shape.end == End::last_row) {
    end = {H[at(m, 0)], m, 0};
    for (std::int64_t j = 1; j <= n; ++j)
      if (H[at(m, j)] > end.score) end = {H[at(m, j)], m, j};
  }

  Alignment a;
  a.score = end.score;
  a.query_end = end.end_i;
  a.target_end = end.end_j;
  a.has_begin = true;
  Cigar reversed;
  std::int64_t i = end.end_i, j = end.end_j;
  enum class State { h, e, f } state = State::h;
  while (true) {
    if (state == State::h) {
      const int h = H[at(i, j)];
      if (shape.local && h == 0) break;
      if (i == 0) {
        if (!shape.free_top) push_run(reversed, Op::deletion, j), j = 0;
        break;
      }
      if (j == 0) {
        push_run(reversed, Op::insertion, i), i = 0;
        break;
      }
      const int sub = scheme.score(q[i - 1], t[j - 1]);
      if (h == H[at(i - 1, j - 1)] + sub) {
        push_run(reversed, q[i - 1] == t[j - 1] ? Op::match : Op::mismatch, 1);
        --i, --j;
      } else if (h == E[at(i, j)]) {
        state = State::e;
      } else if (h == F[at(i, j)]) {
        state = State::f;
      } else {
        throw std::logic_error("full-matrix traceback lost its way");
      }
    } else if (state == State::e) {  // gap in the query: consumes the target
      push_run(reversed, Op::deletion, 1);
      if (E[at(i, j)] == H[at(i, j - 1)] - g.open_extend) state = State::h;
      --j;
    } else {  // gap in the target: consumes the query
      push_run(reversed, Op::insertion, 1);
      if (F[at(i, j)] == H[at(i - 1, j)] - g.open_extend) state = State::h;
      --i;
    }
  }
  a.query_begin = i;
  a.target_begin = j;
  if (a.query_end == a.query_begin && a.target_end == a.target_begin)
    a.query_begin = a.query_end = a.target_begin = a.target_end = 0;
  a.cigar.assign(reversed.rbegin(), reversed.rend());
  return a;
}

}  // namespace gdp::pairwise
