// BPMax's CPU oracle: every F(i1, j1, i2, j2) the window allows in a dense
// table, by strand 1's interval length, then strand 2's (every candidate
// reads shorter intervals, or the same strand-1 interval with a shorter
// strand-2 one); then the traceback (bpmax_tables.hpp).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "fold/cpu/bpmax_tables.hpp"
#include "fold/cuda/bpmax_device.hpp"  // plain C++: the padded length

namespace gdp::fold {
namespace {

using bpmax_cpu::Strands;

// F(i1, j1, i2, j2) at [((i1 m + j1) n + i2) n + j2].
struct DenseF {
  long long m = 0, n = 0;
  std::vector<int> f;
  int operator()(long long i1, long long j1, long long i2, long long j2) const {
    return f[static_cast<std::size_t>(((i1 * m + j1) * n + i2) * n + j2)];
  }
};

DenseF fill(const Strands& s) {
  const long long m = s.m, n = s.n;
  DenseF t{m, n, std::vector<int>(static_cast<std::size_t>(m * m * n * n), 0)};
  for (long long d1 = 0; d1 <= s.span1; ++d1)
    for (long long i1 = 0; i1 + d1 < m; ++i1)
      for (long long d2 = 0; d2 <= s.span2; ++d2)
        for (long long i2 = 0; i2 + d2 < n; ++i2) {
          const long long j1 = i1 + d1, j2 = i2 + d2;
          t.f[static_cast<std::size_t>(((i1 * m + j1) * n + i2) * n + j2)] =
              interaction_cell(i1, j1, i2, j2, t, s.s1, s.s2, s.w1(i1, j1), s.w2(i2, j2), s.w12(i1, i2));
        }
  return t;
}

}  // namespace

double window_intervals(long long n, long long span) {
  const double dn = static_cast<double>(n), ds = static_cast<double>(std::min(span, n - 1));
  return (ds + 1) * dn - ds * (ds + 1) / 2;
}

namespace {

// The strands as the fast engines take them, the shorter first, with the
// window's spans clipped to their lengths.
struct ShorterFirst {
  long long one, two, span1, span2;
  ShorterFirst(long long m, long long n, const InteractionWindow& w)
      : one(std::min(m, n)), two(std::max(m, n)), span1(std::min(m > n ? w.span2 : w.span1, one - 1)),
        span2(std::min(m > n ? w.span1 : w.span2, two - 1)) {}
};

}  // namespace

double interaction_bytes(long long m, long long n, bool oracle, const InteractionWindow& window) {
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  if (oracle) return 4.0 * (dm * dm * dn * dn + dm * dm + dn * dn);
  // A band of span + 1 cells a row.
  const ShorterFirst s(m, n, window);
  const double rows = static_cast<double>(s.two) * static_cast<double>(s.span2 + 1);
  return 4.0 * (window_intervals(s.one, s.span1) * rows + static_cast<double>(s.one) * static_cast<double>(s.span1 + 1) + rows);
}

double interaction_gpu_bytes(long long m, long long n, const InteractionWindow& window) {
  const ShorterFirst s(m, n, window);
  return (window_intervals(s.one, s.span1) + 1) * 4.0 * static_cast<double>(bpmax_matrix_cells(s.two, s.span2));
}

Interaction interact_oracle(std::string_view s1, std::string_view s2, const PairWeights& weights,
                            const InteractionWindow& window) {
  const Strands s(s1, s2, weights, window);
  return bpmax_cpu::result_of(s, fill(s));
}

long long structure_weight(std::string_view s1, std::string_view s2, const std::vector<BasePair>& pairs,
                           const PairWeights& weights) {
  const long long m = static_cast<long long>(s1.size()), n = static_cast<long long>(s2.size());
  std::vector<int> used1(s1.size(), 0), used2(s2.size(), 0);
  long long total = 0;
  auto fail = [](const std::string& why) { throw std::logic_error("gpu-fold: not a BPMax structure: " + why); };
  for (const BasePair& p : pairs) {
    const bool inter = p.kind == PairKind::inter, on2 = p.kind == PairKind::intra2;
    const long long li = inter || !on2 ? m : n, lj = inter || on2 ? n : m;
    if (p.i < 0 || p.j < 0 || p.i >= li || p.j >= lj) fail("a position outside its strand");
    const char x = (on2 ? s2 : s1)[static_cast<std::size_t>(p.i)], y = (inter || on2 ? s2 : s1)[static_cast<std::size_t>(p.j)];
    const int w = pair_weight(weights, base_code(x), base_code(y));
    if (w <= 0) fail(std::string("the pair ") + x + "-" + y + " weighs nothing");
    if (!inter && p.j - p.i <= kBpmaxMinSpan) fail("a hairpin of fewer than 3 unpaired bases");
    total += w;
    (on2 ? used2 : used1)[static_cast<std::size_t>(p.i)]++;
    (inter || on2 ? used2 : used1)[static_cast<std::size_t>(p.j)]++;
  }
  if (std::any_of(used1.begin(), used1.end(), [](int u) { return u > 1; }) ||
      std::any_of(used2.begin(), used2.end(), [](int u) { return u > 1; }))
    fail("a base in two pairs");
  for (const BasePair& p : pairs)
    for (const BasePair& q : pairs) {
      if (p.kind != q.kind) continue;
      // Within a strand: nested or apart. Between them: strand 1 and
      // strand 2 in opposite orders (strand 2 runs antiparallel).
      if (p.kind != PairKind::inter && p.i < q.i && q.i < p.j && p.j < q.j) fail("crossing pairs within a strand");
      if (p.kind == PairKind::inter && p.i < q.i && p.j < q.j) fail("crossing pairs between the strands");
    }
  return total;
}

}  // namespace gdp::fold
