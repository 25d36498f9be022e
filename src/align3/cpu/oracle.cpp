// The oracle: the cube plane by plane (i), each plane's cells in row-major
// order; and the full cube of moves with a traceback, for small inputs.
#include <algorithm>
#include <string>
#include <vector>

#include "align3/align3.hpp"
#include "align3/recurrence.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"

namespace gdp::align3 {
namespace {

// Sweeps the cube; `on_cell(i, j, k, h, from)` sees every cell but the
// origin. Returns H(|a|, |b|, |c|). Each layer's cells are added to
// `progress`, if set.
template <class OnCell>
int sweep(Residues a, Residues b, Residues c, const ScoringScheme& s, int gap, OnCell&& on_cell,
          Progress* progress = nullptr) {
  const std::size_t n = b.size(), p = c.size(), w = p + 1;
  std::vector<int> before((n + 1) * w, neg_inf), plane((n + 1) * w, neg_inf);
  for (std::size_t i = 0; i <= a.size(); ++i) {
    for (std::size_t j = 0; j <= n; ++j)
      for (std::size_t k = 0; k <= p; ++k) {
        if (i == 0 && j == 0 && k == 0) {
          plane[0] = 0;
          continue;
        }
        int prev[8];
        prev[0] = neg_inf;
        for (unsigned move = 1; move <= kMoves; ++move) {
          const bool da = move & kMoveA, db = move & kMoveB, dc = move & kMoveC;
          if ((da && i == 0) || (db && j == 0) || (dc && k == 0)) {
            prev[move] = neg_inf;
            continue;
          }
          const std::vector<int>& from = da ? before : plane;
          prev[move] = from[(j - db) * w + (k - dc)];
        }
        const int ab = i && j ? s.score(a[i - 1], b[j - 1]) : 0;
        const int ac = i && k ? s.score(a[i - 1], c[k - 1]) : 0;
        const int bc = j && k ? s.score(b[j - 1], c[k - 1]) : 0;
        unsigned from = 0;
        const int h = update_cell(prev, ab, ac, bc, gap, from);
        plane[j * w + k] = h;
        on_cell(i, j, k, h, from);
      }
    std::swap(before, plane);
    if (progress) progress->add((n + 1) * w);
  }
  return before[n * w + p];
}

}  // namespace

void check_score_range(std::int64_t a, std::int64_t b, std::int64_t c, const ScoringScheme& s, int gap) {
  // A column scores at most three pairs of the largest score or gap.
  const double bound = static_cast<double>(a + b + c) * 3.0 * std::max(s.max_abs_score(), gap);
  if (bound >= static_cast<double>(1 << 29))
    throw InputError("sequences of " + std::to_string(a) + ", " + std::to_string(b) + " and " + std::to_string(c) +
                     " letters with these scores could overflow 32-bit scores; use smaller scores or gap");
}

int score_scalar(Residues a, Residues b, Residues c, const ScoringScheme& s, int gap, Progress* progress) {
  return sweep(a, b, c, s, gap, [](std::size_t, std::size_t, std::size_t, int, unsigned) {}, progress);
}

Alignment align_full_cube(Residues a, Residues b, Residues c, const ScoringScheme& s, int gap) {
  const std::size_t m = a.size(), n = b.size(), p = c.size();
  std::vector<std::uint8_t> moves((m + 1) * (n + 1) * (p + 1));
  auto at = [&](std::size_t i, std::size_t j, std::size_t k) { return (i * (n + 1) + j) * (p + 1) + k; };
  Alignment out;
  out.score = sweep(a, b, c, s, gap, [&](std::size_t i, std::size_t j, std::size_t k, int, unsigned from) {
    moves[at(i, j, k)] = static_cast<std::uint8_t>(from);
  });
  std::size_t i = m, j = n, k = p;
  while (i || j || k) {
    const unsigned move = moves[at(i, j, k)];
    out.moves.push_back(static_cast<std::uint8_t>(move));
    i -= (move & kMoveA) ? 1 : 0, j -= (move & kMoveB) ? 1 : 0, k -= (move & kMoveC) ? 1 : 0;
  }
  std::reverse(out.moves.begin(), out.moves.end());
  return out;
}

}  // namespace gdp::align3
