#pragma once
// What BPMax's CPU engines share (cpu/bpmax.cpp, the oracle, and
// cpu/bpmax_products.cpp): the strands as base codes with their weights
// and single-strand tables, and the traceback, which reads F through any
// table that answers f(i1, j1, i2, j2). Internal to src/fold.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "fold/bpmax.hpp"

namespace gdp::fold::bpmax_cpu {

inline std::vector<std::uint8_t> codes_of(std::string_view s, bool reverse, const char* which) {
  if (s.empty()) throw InputError(std::string(which) + " is empty");
  std::vector<std::uint8_t> out(s.size());
  for (std::size_t x = 0; x < s.size(); ++x) {
    const char c = s[x];
    if (!is_rna_letter(c))
      throw InputError(std::string("letter '") + c + "' in " + which + " is not an RNA base (A, C, G, U, or " +
                       std::string(kUnpairedBases) + ")");
    out[reverse ? s.size() - 1 - x : x] = base_code(c);  // N and the like: kNoBase, which pairs with nothing
  }
  return out;
}

// One strand's S on the band the window leaves: S(i, j) for
// i <= j <= i + span at [i span + j] (each row's span + 1 cells after the
// last's), 0 for j <= i + 3.
struct SingleTable {
  long long n = 0, span = 0;
  std::vector<int> s;
  SingleTable(long long bases, long long band) : n(bases), span(band), s(static_cast<std::size_t>(bases * (band + 1)), 0) {}
  int operator()(long long i, long long j) const { return s[static_cast<std::size_t>(i * span + j)]; }
  int& at(long long i, long long j) { return s[static_cast<std::size_t>(i * span + j)]; }
  const int* row(long long i) const { return s.data() + i * span; }  // row(i)[j] = S(i, j)
};

inline SingleTable fill_single(const std::vector<std::uint8_t>& b, const PairWeights& w, long long span) {
  SingleTable t(static_cast<long long>(b.size()), span);
  for (long long d = kBpmaxMinSpan + 1; d <= span; ++d)
    for (long long i = 0; i + d < t.n; ++i) {
      const long long j = i + d;
      t.at(i, j) = single_cell(i, j, t, pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]));
    }
  return t;
}

// The same table a diagonal at a time on `threads` threads, each cell's
// splits one vectorised sweep along its row and a copy of its column
// (cpu/bpmax_products.cpp). Equal to fill_single (tests/test_bpmax.cpp).
SingleTable fill_single_diagonals(const std::vector<std::uint8_t>& b, const PairWeights& w, long long span, int threads);

// How Strands fills S: the oracle's cell by cell, or the fast engines' by diagonals.
enum class SingleFill { cells, diagonals };

// The two strands (strand 2 reversed), their weights, the window's spans
// (the most j - i of an interval on each, at most its length - 1) and the
// S tables on them.
struct Strands {
  std::vector<std::uint8_t> a, b;
  PairWeights w;
  long long m = 0, n = 0;
  long long span1 = 0, span2 = 0;
  SingleTable s1, s2;

  Strands(std::string_view one, std::string_view two, const PairWeights& weights, const InteractionWindow& window = {},
          SingleFill fill = SingleFill::cells, int threads = 1)
      : a(codes_of(one, false, "strand 1")), b(codes_of(two, true, "strand 2")), w(weights),
        m(static_cast<long long>(a.size())), n(static_cast<long long>(b.size())),
        span1(std::min(window.span1, m - 1)), span2(std::min(window.span2, n - 1)),
        s1(fill == SingleFill::cells ? fill_single(a, weights, span1) : fill_single_diagonals(a, weights, span1, threads)),
        s2(fill == SingleFill::cells ? fill_single(b, weights, span2) : fill_single_diagonals(b, weights, span2, threads)) {}
  int w1(long long i, long long j) const { return pair_weight(w, a[static_cast<std::size_t>(i)], a[static_cast<std::size_t>(j)]); }
  int w2(long long i, long long j) const { return pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]); }
  int w12(long long i1, long long i2) const {
    return pair_weight(w, a[static_cast<std::size_t>(i1)], b[static_cast<std::size_t>(i2)]);
  }
  // Strand-1 intervals with F: those of the window's diagonals.
  long long intervals() const { return bpmax_interval(m, 0, span1 + 1); }
  // The fill's progress, by diagonals of strand 1's intervals (j1 - i1 =
  // d1): each weighs about its share of the products, (m - d1)(d1 + 1).
  std::uint64_t diagonal_weight(long long d1) const { return static_cast<std::uint64_t>((m - d1) * (d1 + 1)); }
  std::uint64_t fill_weight() const {
    std::uint64_t all = 0;
    for (long long d1 = 0; d1 <= span1; ++d1) all += diagonal_weight(d1);
    return all;
  }
};

// Pairs in Interaction's order: strand 1's first, by position.
inline void sort_pairs(std::vector<BasePair>& pairs) {
  std::sort(pairs.begin(), pairs.end(), [](const BasePair& x, const BasePair& y) {
    return std::tie(x.kind, x.i, x.j) < std::tie(y.kind, y.i, y.j);
  });
}

// The traceback from F(start) by the first candidate that gives each value.
struct Item {
  enum Kind { f, s1, s2 } kind;
  long long i1, j1, i2, j2;  // S's interval in (i1, j1)
};

template <class F>
std::vector<BasePair> trace(const Strands& t, const F& f, const Item& start) {
  std::vector<BasePair> pairs;
  const long long n = t.n;
  auto strand2 = [&](long long r) { return static_cast<int>(n - 1 - r); };  // reversed index to position
  std::vector<Item> todo{start};
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
    const long long i1 = it.i1, j1 = it.j1, i2 = it.i2, j2 = it.j2, value = f(i1, j1, i2, j2);
    bool found = false;
    for_each_candidate(i1, j1, i2, j2, f, t.s1, t.s2, t.w1(i1, j1), t.w2(i2, j2), t.w12(i1, i2), [&](int v, BpmaxCase c, long long k1, long long k2) {
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
  sort_pairs(pairs);
  return pairs;
}

inline std::string dot_bracket(std::size_t m, std::size_t n, const std::vector<BasePair>& pairs) {
  std::string one(m, '.'), two(n, '.');
  for (const BasePair& p : pairs) {
    const auto i = static_cast<std::size_t>(p.i), j = static_cast<std::size_t>(p.j);
    if (p.kind == PairKind::inter) one[i] = '[', two[j] = ']';
    if (p.kind == PairKind::intra1) one[i] = '(', one[j] = ')';
    if (p.kind == PairKind::intra2) two[i] = '(', two[j] = ')';
  }
  return one + '&' + two;
}

// The score, the pairs and the dot-bracket of filled tables, traced from
// `start`, the cell that holds the score.
template <class F>
Interaction result_from(const Strands& s, const F& f, const Item& start) {
  Interaction out;
  out.score = f(start.i1, start.j1, start.i2, start.j2);
  out.pairs = trace(s, f, start);
  out.structure = dot_bracket(static_cast<std::size_t>(s.m), static_cast<std::size_t>(s.n), out.pairs);
  return out;
}

// The cell that holds the score: the first (by i1, then i2) of the best
// pairs of longest intervals the window allows (F never falls as an
// interval grows), F(0, m-1, 0, n-1) without a window. `longest(i1, i2)`
// reads F(i1, i1 + span1, i2, i2 + span2).
template <class Longest>
Item best_window(const Strands& s, const Longest& longest) {
  Item best{Item::f, 0, s.span1, 0, s.span2};
  int value = longest(0, 0);
  for (long long i1 = 0; i1 + s.span1 < s.m; ++i1)
    for (long long i2 = 0; i2 + s.span2 < s.n; ++i2)
      if (const int v = longest(i1, i2); v > value) value = v, best = {Item::f, i1, i1 + s.span1, i2, i2 + s.span2};
  return best;
}

template <class F>
Interaction result_of(const Strands& s, const F& f) {
  const Item start = best_window(s, [&](long long i1, long long i2) { return f(i1, i1 + s.span1, i2, i2 + s.span2); });
  return result_from(s, f, start);
}

// The model is symmetric: strands swapped, each reversed (strand 2's
// reversed index i2 becoming strand 1's position), give the same scores.
// The fast engines put the shorter strand first, where it makes the fewer
// matrices; `run` computes the Interaction of the strands and window as
// given to it, and its pairs come back named for the caller's strands.
template <class Run>
Interaction shorter_strand_first(std::string_view one, std::string_view two, const InteractionWindow& window, Run&& run) {
  codes_of(one, false, "strand 1"), codes_of(two, true, "strand 2");  // errors named for the caller's strands
  if (one.size() <= two.size()) return run(one, two, window);
  Interaction swapped = run(two, one, InteractionWindow{window.span2, window.span1});
  for (BasePair& p : swapped.pairs) {
    if (p.kind == PairKind::inter) std::swap(p.i, p.j);
    else p.kind = p.kind == PairKind::intra1 ? PairKind::intra2 : PairKind::intra1;
  }
  sort_pairs(swapped.pairs);
  swapped.structure = dot_bracket(one.size(), two.size(), swapped.pairs);
  return swapped;
}

}  // namespace gdp::fold::bpmax_cpu
