// BPMax on the CPU: the single-strand tables S1 and S2, then every
// F(i1, j1, i2, j2) in a dense table, by strand 1's interval length, then
// strand 2's (every candidate reads shorter intervals, or the same strand-1
// interval with a shorter strand-2 one); then the traceback from
// F(0, m-1, 0, n-1) by the first candidate that gives each value.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "fold/bpmax.hpp"

namespace gdp::fold {
namespace {

std::vector<std::uint8_t> codes_of(std::string_view s, bool reverse, const char* which) {
  if (s.empty()) throw InputError(std::string(which) + " is empty");
  std::vector<std::uint8_t> out(s.size());
  for (std::size_t x = 0; x < s.size(); ++x) {
    const char c = s[x];
    if (c != 'A' && c != 'C' && c != 'G' && c != 'U' && c != 'N')
      throw InputError(std::string("letter '") + c + "' in " + which + " is not an RNA base (A, C, G, U, N)");
    out[reverse ? s.size() - 1 - x : x] = base_code(c);  // N: kNoBase, which pairs with nothing
  }
  return out;
}

// One strand's S, dense: S(i, j) at [i * n + j], 0 for j <= i + 3.
struct SingleTable {
  long long n = 0;
  std::vector<int> s;
  int operator()(long long i, long long j) const { return s[static_cast<std::size_t>(i * n + j)]; }
};

SingleTable fill_single(const std::vector<std::uint8_t>& b, const PairWeights& w) {
  SingleTable t{static_cast<long long>(b.size()), std::vector<int>(b.size() * b.size(), 0)};
  for (long long span = kBpmaxMinSpan + 1; span < t.n; ++span)
    for (long long i = 0; i + span < t.n; ++i) {
      const long long j = i + span;
      t.s[static_cast<std::size_t>(i * t.n + j)] =
          single_cell(i, j, t, pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]));
    }
  return t;
}

struct Tables {
  std::vector<std::uint8_t> a, b;  // strand 1; strand 2 reversed
  PairWeights w;
  SingleTable s1, s2;
  long long m = 0, n = 0;
  std::vector<int> f;  // F(i1, j1, i2, j2) at [((i1 m + j1) n + i2) n + j2]

  int operator()(long long i1, long long j1, long long i2, long long j2) const {
    return f[static_cast<std::size_t>(((i1 * m + j1) * n + i2) * n + j2)];
  }
  int w1(long long i, long long j) const { return pair_weight(w, a[static_cast<std::size_t>(i)], a[static_cast<std::size_t>(j)]); }
  int w2(long long i, long long j) const { return pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]); }
  int w12(long long i1, long long i2) const {
    return pair_weight(w, a[static_cast<std::size_t>(i1)], b[static_cast<std::size_t>(i2)]);
  }
  template <class Visit>
  void candidates(long long i1, long long j1, long long i2, long long j2, Visit&& visit) const {
    for_each_candidate(i1, j1, i2, j2, *this, s1, s2, w1(i1, j1), w2(i2, j2), w12(i1, i2), visit);
  }
};

// Strand 1's intervals of one length are independent of each other: each
// reads only shorter ones and its own; they go to the threads.
void fill(Tables& t, int threads) {
  const long long m = t.m, n = t.n;
  t.f.assign(static_cast<std::size_t>(m * m * n * n), 0);
  for (long long d1 = 0; d1 < m; ++d1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
    for (long long i1 = 0; i1 < m - d1; ++i1)
      for (long long d2 = 0; d2 < n; ++d2)
        for (long long i2 = 0; i2 + d2 < n; ++i2) {
          const long long j1 = i1 + d1, j2 = i2 + d2;
          t.f[static_cast<std::size_t>(((i1 * m + j1) * n + i2) * n + j2)] =
              interaction_cell(i1, j1, i2, j2, t, t.s1, t.s2, t.w1(i1, j1), t.w2(i2, j2), t.w12(i1, i2));
        }
  }
}

// The traceback's work items: an interval of F, or of one strand's S.
struct Item {
  enum Kind { f, s1, s2 } kind;
  long long i1, j1, i2, j2;  // S's interval in (i1, j1)
};

std::vector<BasePair> trace(const Tables& t) {
  std::vector<BasePair> pairs;
  const long long n = t.n;
  auto strand2 = [&](long long r) { return static_cast<int>(n - 1 - r); };  // reversed index to position
  std::vector<Item> todo{{Item::f, 0, t.m - 1, 0, n - 1}};
  while (!todo.empty()) {
    const Item it = todo.back();
    todo.pop_back();
    if (it.kind != Item::f) {
      const SingleTable& s = it.kind == Item::s1 ? t.s1 : t.s2;
      const long long i = it.i1, j = it.j1, value = s(i, j);
      if (value == 0) continue;
      const int w = it.kind == Item::s1 ? t.w1(i, j) : t.w2(i, j);
      if (w > 0 && s(i + 1, j - 1) + w == value) {
        pairs.push_back(it.kind == Item::s1 ? BasePair{static_cast<int>(i), static_cast<int>(j), PairKind::intra1}
                                            : BasePair{strand2(j), strand2(i), PairKind::intra2});
        todo.push_back({it.kind, i + 1, j - 1, 0, 0});
        continue;
      }
      long long k = i;
      while (k < j && s(i, k) + s(k + 1, j) != value) ++k;
      if (k == j) throw std::logic_error("gpu-fold: no case of S gives its value");
      todo.push_back({it.kind, i, k, 0, 0});
      todo.push_back({it.kind, k + 1, j, 0, 0});
      continue;
    }
    const long long i1 = it.i1, j1 = it.j1, i2 = it.i2, j2 = it.j2, value = t(i1, j1, i2, j2);
    bool found = false;
    t.candidates(i1, j1, i2, j2, [&](int v, BpmaxCase c, long long k1, long long k2) {
      if (v != value) return false;
      found = true;
      switch (c) {
        case BpmaxCase::inter:
          if (v > 0) pairs.push_back({static_cast<int>(i1), strand2(i2), PairKind::inter});
          break;
        case BpmaxCase::apart:
          todo.push_back({Item::s1, i1, j1, 0, 0});
          todo.push_back({Item::s2, i2, j2, 0, 0});
          break;
        case BpmaxCase::pair1:
          pairs.push_back({static_cast<int>(i1), static_cast<int>(j1), PairKind::intra1});
          todo.push_back({Item::f, i1 + 1, j1 - 1, i2, j2});
          break;
        case BpmaxCase::pair2:
          pairs.push_back({strand2(j2), strand2(i2), PairKind::intra2});
          todo.push_back({Item::f, i1, j1, i2 + 1, j2 - 1});
          break;
        case BpmaxCase::split:
          todo.push_back({Item::f, i1, k1, i2, k2});
          todo.push_back({Item::f, k1 + 1, j1, k2 + 1, j2});
          break;
        case BpmaxCase::f_then_s2:
          todo.push_back({Item::f, i1, j1, i2, k2});
          todo.push_back({Item::s2, k2 + 1, j2, 0, 0});
          break;
        case BpmaxCase::s2_then_f:
          todo.push_back({Item::s2, i2, k2, 0, 0});
          todo.push_back({Item::f, i1, j1, k2 + 1, j2});
          break;
        case BpmaxCase::f_then_s1:
          todo.push_back({Item::f, i1, k1, i2, j2});
          todo.push_back({Item::s1, k1 + 1, j1, 0, 0});
          break;
        case BpmaxCase::s1_then_f:
          todo.push_back({Item::s1, i1, k1, 0, 0});
          todo.push_back({Item::f, k1 + 1, j1, i2, j2});
          break;
      }
      return true;
    });
    if (!found) throw std::logic_error("gpu-fold: no case of F gives its value");
  }
  std::sort(pairs.begin(), pairs.end(), [](const BasePair& x, const BasePair& y) {
    return std::tie(x.kind, x.i, x.j) < std::tie(y.kind, y.i, y.j);
  });
  return pairs;
}

std::string dot_bracket(std::size_t m, std::size_t n, const std::vector<BasePair>& pairs) {
  std::string one(m, '.'), two(n, '.');
  for (const BasePair& p : pairs) {
    const auto i = static_cast<std::size_t>(p.i), j = static_cast<std::size_t>(p.j);
    if (p.kind == PairKind::inter) one[i] = '[', two[j] = ']';
    if (p.kind == PairKind::intra1) one[i] = '(', one[j] = ')';
    if (p.kind == PairKind::intra2) two[i] = '(', two[j] = ')';
  }
  return one + '&' + two;
}

}  // namespace

double interaction_bytes(long long m, long long n) {
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  return 4.0 * (dm * dm * dn * dn + dm * dm + dn * dn);
}

Interaction interact_cpu(std::string_view s1, std::string_view s2, const PairWeights& weights, int threads) {
  Tables t;
  t.a = codes_of(s1, false, "strand 1");
  t.b = codes_of(s2, true, "strand 2");
  t.w = weights;
  t.m = static_cast<long long>(t.a.size());
  t.n = static_cast<long long>(t.b.size());
  t.s1 = fill_single(t.a, weights);
  t.s2 = fill_single(t.b, weights);
  fill(t, threads);
  Interaction out;
  out.score = t(0, t.m - 1, 0, t.n - 1);
  out.pairs = trace(t);
  out.structure = dot_bracket(s1.size(), s2.size(), out.pairs);
  return out;
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
