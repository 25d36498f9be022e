#pragma once
// BPMax (Ebrahimpour-Boroojeny, Rajopadhye and Chitsaz): the joint
// structure of two RNAs with the most weighted base pairs, written once for
// every engine. Strand 2 is indexed reversed (its position i2 is base
// N - 1 - i2), so that the joint structure is planar.
//
// S(i, j), one strand's best weight on bases i..j: 0 when j - i <= 3, else
// the best of S(i+1, j-1) + w(i, j) and S(i, k) + S(k+1, j), i <= k < j.
//
// F(i1, j1, i2, j2), both strands' best on bases i1..j1 of strand 1 and
// i2..j2 of strand 2: w between the strands where both intervals are one
// base (the only place a pair between the strands is made); otherwise the
// best of the candidates for_each_candidate names. Scores are integers in
// the weights' unit (bpmax.hpp).
#include <cstdint>

#include "core/host_device.hpp"
#include "fold/recurrence.hpp"

namespace gdp::fold {

// A pair within a strand spans more than this: three unpaired bases at
// least inside a hairpin.
inline constexpr long long kBpmaxMinSpan = 3;

// The weights of the three pairs, in a unit of their own.
struct PairWeights {
  int gc = 6, au = 2, gu = 3;  // 3, 1 and 1.5 in half units
};

// The weight of bases a and b (base codes, either order); 0 for any other
// pair, N included.
GDP_HD int pair_weight(const PairWeights& w, std::uint8_t a, std::uint8_t b) {
  const int x = min_of(a, b), y = max_of(a, b);
  return x == kBaseC && y == kBaseG ? w.gc : x == kBaseA && y == kBaseU ? w.au : x == kBaseG && y == kBaseU ? w.gu : 0;
}

// The number of strand-1 interval (i1, j1) among m bases when intervals
// go by length, j1 - i1 = d, then by i1: every engine's tables keep one
// diagonal's matrices together this way. The intervals of length d or
// less number bpmax_interval(m, 0, d + 1).
GDP_HD long long bpmax_interval(long long m, long long i1, long long j1) {
  const long long d = j1 - i1;
  return d * m - d * (d - 1) / 2 + i1;
}

// One strand's cell: s(i, j) reads S, w_ij is the weight of i and j.
template <class S>
GDP_HD int single_cell(long long i, long long j, const S& s, int w_ij) {
  if (j - i <= kBpmaxMinSpan) return 0;
  int best = w_ij > 0 ? s(i + 1, j - 1) + w_ij : 0;
  for (long long k = i; k < j; ++k) best = max_of(best, s(i, k) + s(k + 1, j));
  return best;
}

// The cases of F's recurrence, in the order for_each_candidate visits them.
enum class BpmaxCase : std::uint8_t {
  inter,      // i1 = j1, i2 = j2: the pair between the strands (weight 0: none)
  apart,      // S1(i1, j1) + S2(i2, j2): no pair between the strands
  pair1,      // F(i1+1, j1-1, i2, j2) + w(i1, j1): i1 and j1 pair
  pair2,      // F(i1, j1, i2+1, j2-1) + w(i2, j2): i2 and j2 pair
  split,      // F(i1, k1, i2, k2) + F(k1+1, j1, k2+1, j2)
  f_then_s2,  // F(i1, j1, i2, k2) + S2(k2+1, j2)
  s2_then_f,  // S2(i2, k2) + F(i1, j1, k2+1, j2)
  f_then_s1,  // F(i1, k1, i2, j2) + S1(k1+1, j1)
  s1_then_f,  // S1(i1, k1) + F(k1+1, j1, i2, j2)
};

// Calls visit(value, case, k1, k2) for each candidate of F(i1, j1, i2, j2)
// until it returns true: f, s1 and s2 read F, S1 and S2; w1 and w2 are the
// weights of i1 with j1 and of i2 with j2 within their strands, w12 of i1
// with i2 between them. Pair candidates of weight 0 are left out (never
// better than the others).
template <class F, class S1, class S2, class Visit>
GDP_HD void for_each_candidate(long long i1, long long j1, long long i2, long long j2, const F& f, const S1& s1,
                               const S2& s2, int w1, int w2, int w12, Visit&& visit) {
  if (i1 == j1 && i2 == j2) {
    visit(w12, BpmaxCase::inter, i1, i2);
    return;
  }
  if (visit(s1(i1, j1) + s2(i2, j2), BpmaxCase::apart, i1, i2)) return;
  if (j1 - i1 > kBpmaxMinSpan && w1 > 0 && visit(f(i1 + 1, j1 - 1, i2, j2) + w1, BpmaxCase::pair1, i1, i2)) return;
  if (j2 - i2 > kBpmaxMinSpan && w2 > 0 && visit(f(i1, j1, i2 + 1, j2 - 1) + w2, BpmaxCase::pair2, i1, i2)) return;
  for (long long k1 = i1; k1 < j1; ++k1)
    for (long long k2 = i2; k2 < j2; ++k2)
      if (visit(f(i1, k1, i2, k2) + f(k1 + 1, j1, k2 + 1, j2), BpmaxCase::split, k1, k2)) return;
  for (long long k2 = i2; k2 < j2; ++k2) {
    if (visit(f(i1, j1, i2, k2) + s2(k2 + 1, j2), BpmaxCase::f_then_s2, i1, k2)) return;
    if (visit(s2(i2, k2) + f(i1, j1, k2 + 1, j2), BpmaxCase::s2_then_f, i1, k2)) return;
  }
  for (long long k1 = i1; k1 < j1; ++k1) {
    if (visit(f(i1, k1, i2, j2) + s1(k1 + 1, j1), BpmaxCase::f_then_s1, k1, i2)) return;
    if (visit(s1(i1, k1) + f(k1 + 1, j1, i2, j2), BpmaxCase::s1_then_f, k1, i2)) return;
  }
}

// F(i1, j1, i2, j2): the best of its candidates.
template <class F, class S1, class S2>
GDP_HD int interaction_cell(long long i1, long long j1, long long i2, long long j2, const F& f, const S1& s1,
                            const S2& s2, int w1, int w2, int w12) {
  int best = 0;
  for_each_candidate(i1, j1, i2, j2, f, s1, s2, w1, w2, w12, [&](int value, BpmaxCase, long long, long long) {
    best = max_of(best, value);
    return false;
  });
  return best;
}

}  // namespace gdp::fold
