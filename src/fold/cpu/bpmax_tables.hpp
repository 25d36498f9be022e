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
  const int* row(long long i) const { return s.data() + i * n; }  // S(i, .)
};

inline SingleTable fill_single(const std::vector<std::uint8_t>& b, const PairWeights& w) {
  SingleTable t{static_cast<long long>(b.size()), std::vector<int>(b.size() * b.size(), 0)};
  for (long long span = kBpmaxMinSpan + 1; span < t.n; ++span)
    for (long long i = 0; i + span < t.n; ++i) {
      const long long j = i + span;
      t.s[static_cast<std::size_t>(i * t.n + j)] =
          single_cell(i, j, t, pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]));
    }
  return t;
}

// The same table a diagonal at a time on `threads` threads, each cell's
// splits one vectorised sweep along its row and a copy of its column
// (cpu/bpmax_products.cpp). Equal to fill_single (tests/test_bpmax.cpp).
SingleTable fill_single_diagonals(const std::vector<std::uint8_t>& b, const PairWeights& w, int threads);

// How Strands fills S: the oracle's cell by cell, or the fast engines' by diagonals.
enum class SingleFill { cells, diagonals };

// The two strands (strand 2 reversed), their weights and S tables.
struct Strands {
  std::vector<std::uint8_t> a, b;
  PairWeights w;
  SingleTable s1, s2;
  long long m = 0, n = 0;

  Strands(std::string_view one, std::string_view two, const PairWeights& weights, SingleFill fill = SingleFill::cells,
          int threads = 1)
      : a(codes_of(one, false, "strand 1")), b(codes_of(two, true, "strand 2")), w(weights),
        s1(fill == SingleFill::cells ? fill_single(a, weights) : fill_single_diagonals(a, weights, threads)),
        s2(fill == SingleFill::cells ? fill_single(b, weights) : fill_single_diagonals(b, weights, threads)),
        m(static_cast<long long>(a.size())),
        n(static_cast<long long>(b.size())) {}
  int w1(long long i, long long j) const { return pair_weight(w, a[static_cast<std::size_t>(i)], a[static_cast<std::size_t>(j)]); }
  int w2(long long i, long long j) const { return pair_weight(w, b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]); }
  int w12(long long i1, long long i2) const {
    return pair_weight(w, a[static_cast<std::size_t>(i1)], b[static_cast<std::size_t>(i2)]);
  }
};

// Pairs in Interaction's order: strand 1's first, by position.
inline void sort_pairs(std::vector<BasePair>& pairs) {
  std::sort(pairs.begin(), pairs.end(), [](const BasePair& x, const BasePair& y) {
    return std::tie(x.kind, x.i, x.j) < std::tie(y.kind, y.i, y.j);
  });
}

// The traceback from F(0, m-1, 0, n-1) by the first candidate that gives
// each value.
struct Item {
  enum Kind { f, s1, s2 } kind;
  long long i1, j1, i2, j2;  // S's interval in (i1, j1)
};

template <class F>
std::vector<BasePair> trace(const Strands& t, const F& f) {
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

// The score, the pairs and the dot-bracket of filled tables.
template <class F>
Interaction result_of(const Strands& s, const F& f) {
  Interaction out;
  out.score = f(0, s.m - 1, 0, s.n - 1);
  out.pairs = trace(s, f);
  out.structure = dot_bracket(static_cast<std::size_t>(s.m), static_cast<std::size_t>(s.n), out.pairs);
  return out;
}

// The model is symmetric: strands swapped, each reversed (strand 2's
// reversed index i2 becoming strand 1's position), give the same scores.
// The fast engines put the shorter strand first, where it makes the fewer
// matrices; `run` computes the Interaction of the strands as given to it,
// and its pairs come back named for the caller's strands.
template <class Run>
Interaction shorter_strand_first(std::string_view one, std::string_view two, Run&& run) {
  codes_of(one, false, "strand 1"), codes_of(two, true, "strand 2");  // errors named for the caller's strands
  if (one.size() <= two.size()) return run(one, two);
  Interaction swapped = run(two, one);
  for (BasePair& p : swapped.pairs) {
    if (p.kind == PairKind::inter) std::swap(p.i, p.j);
    else p.kind = p.kind == PairKind::intra1 ? PairKind::intra2 : PairKind::intra1;
  }
  sort_pairs(swapped.pairs);
  swapped.structure = dot_bracket(one.size(), two.size(), swapped.pairs);
  return swapped;
}

}  // namespace gdp::fold::bpmax_cpu
