// BPMax (gpu-fold --interact): the CPU oracle against the original
// program's values and against an independent top-down implementation of
// the recurrence on random pairs; every structure it traces is one
// the model makes and weighs its score; the weights' parsing.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <stdexcept>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "fold/bpmax.hpp"
#include "fold/cpu/bpmax_tables.hpp"

using namespace gdp;

namespace {

std::string rna(std::string s) {
  for (char& c : s)
    if (c == 'T') c = 'U';
  return s;
}

// The recurrence as the issue states it, top down with memos, strand 2
// read through a reversed index; nothing shared with the engine but the
// weight table.
long long top_down(const std::string& one, const std::string& two, const fold::PairWeights& w) {
  const long long m = static_cast<long long>(one.size()), n = static_cast<long long>(two.size());
  auto code = [](char c) { return fold::base_code(c); };
  auto wt = [&](char x, char y) { return static_cast<long long>(fold::pair_weight(w, code(x), code(y))); };
  auto b2 = [&](long long r) { return two[static_cast<std::size_t>(n - 1 - r)]; };
  std::map<std::tuple<int, long long, long long>, long long> s_memo;
  std::function<long long(int, long long, long long)> S = [&](int strand, long long i, long long j) -> long long {
    if (j - i <= 3) return 0;
    const auto key = std::make_tuple(strand, i, j);
    if (auto it = s_memo.find(key); it != s_memo.end()) return it->second;
    auto base = [&](long long x) { return strand == 1 ? one[static_cast<std::size_t>(x)] : b2(x); };
    long long best = S(strand, i + 1, j - 1) + wt(base(i), base(j));
    for (long long k = i; k < j; ++k) best = std::max(best, S(strand, i, k) + S(strand, k + 1, j));
    return s_memo[key] = best;
  };
  std::map<std::tuple<long long, long long, long long, long long>, long long> f_memo;
  std::function<long long(long long, long long, long long, long long)> F = [&](long long i1, long long j1, long long i2,
                                                                                 long long j2) -> long long {
    if (i1 == j1 && i2 == j2) return wt(one[static_cast<std::size_t>(i1)], b2(i2));
    const auto key = std::make_tuple(i1, j1, i2, j2);
    if (auto it = f_memo.find(key); it != f_memo.end()) return it->second;
    long long best = S(1, i1, j1) + S(2, i2, j2);
    if (j1 - i1 > 3) best = std::max(best, F(i1 + 1, j1 - 1, i2, j2) + wt(one[static_cast<std::size_t>(i1)], one[static_cast<std::size_t>(j1)]));
    if (j2 - i2 > 3) best = std::max(best, F(i1, j1, i2 + 1, j2 - 1) + wt(b2(i2), b2(j2)));
    for (long long k1 = i1; k1 < j1; ++k1)
      for (long long k2 = i2; k2 < j2; ++k2) best = std::max(best, F(i1, k1, i2, k2) + F(k1 + 1, j1, k2 + 1, j2));
    for (long long k2 = i2; k2 < j2; ++k2)
      best = std::max({best, F(i1, j1, i2, k2) + S(2, k2 + 1, j2), S(2, i2, k2) + F(i1, j1, k2 + 1, j2)});
    for (long long k1 = i1; k1 < j1; ++k1)
      best = std::max({best, F(i1, k1, i2, j2) + S(1, k1 + 1, j1), S(1, i1, k1) + F(k1 + 1, j1, i2, j2)});
    return f_memo[key] = best;
  };
  return F(0, m - 1, 0, n - 1);
}

// Whether the recurrence's cases can build a structure: a parser that
// tries, for each box of strand-1 interval by strand-2 interval (strand 2
// read reversed), every case whose cut no pair crosses.
bool derivable(const std::vector<fold::BasePair>& pairs, long long m, long long n) {
  std::vector<long long> p1(static_cast<std::size_t>(m), -1), p2(static_cast<std::size_t>(n), -1),
      x1(static_cast<std::size_t>(m), -1), x2(static_cast<std::size_t>(n), -1);  // intra partners, inter partners
  for (const fold::BasePair& p : pairs) {
    if (p.kind == fold::PairKind::intra1) p1[static_cast<std::size_t>(p.i)] = p.j, p1[static_cast<std::size_t>(p.j)] = p.i;
    if (p.kind == fold::PairKind::intra2) {
      const long long a = n - 1 - p.j, b = n - 1 - p.i;
      p2[static_cast<std::size_t>(a)] = b, p2[static_cast<std::size_t>(b)] = a;
    }
    if (p.kind == fold::PairKind::inter) x1[static_cast<std::size_t>(p.i)] = n - 1 - p.j, x2[static_cast<std::size_t>(n - 1 - p.j)] = p.i;
  }
  // No intra pair of a strand crosses the cut after k; no inter pair from
  // [lo, hi] of one strand leaves [lo2, hi2] of the other.
  auto intra_whole = [](const std::vector<long long>& p, long long lo, long long k, long long hi) {
    for (long long x = lo; x <= hi; ++x) {
      const long long y = p[static_cast<std::size_t>(x)];
      if (y >= 0 && ((x <= k) != (y <= k))) return false;
    }
    return true;
  };
  auto inter_inside = [](const std::vector<long long>& x, long long lo, long long hi, long long lo2, long long hi2) {
    for (long long a = lo; a <= hi; ++a) {
      const long long b = x[static_cast<std::size_t>(a)];
      if (b >= 0 && (b < lo2 || b > hi2)) return false;
    }
    return true;
  };
  auto no_inter = [](const std::vector<long long>& x, long long lo, long long hi) {
    for (long long a = lo; a <= hi; ++a)
      if (x[static_cast<std::size_t>(a)] >= 0) return false;
    return true;
  };
  std::map<std::tuple<long long, long long, long long, long long>, bool> memo;
  std::function<bool(long long, long long, long long, long long)> F = [&](long long i1, long long j1, long long i2,
                                                                          long long j2) -> bool {
    if (i1 == j1 && i2 == j2) return true;
    const auto key = std::make_tuple(i1, j1, i2, j2);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    bool ok = no_inter(x1, i1, j1);  // apart: every pair within a strand
    if (!ok && p1[static_cast<std::size_t>(i1)] == j1) ok = F(i1 + 1, j1 - 1, i2, j2);
    if (!ok && p2[static_cast<std::size_t>(i2)] == j2) ok = F(i1, j1, i2 + 1, j2 - 1);
    for (long long k1 = i1; !ok && k1 < j1; ++k1)
      for (long long k2 = i2; !ok && k2 < j2; ++k2)
        ok = intra_whole(p1, i1, k1, j1) && intra_whole(p2, i2, k2, j2) && inter_inside(x1, i1, k1, i2, k2) &&
             inter_inside(x1, k1 + 1, j1, k2 + 1, j2) && F(i1, k1, i2, k2) && F(k1 + 1, j1, k2 + 1, j2);
    for (long long k2 = i2; !ok && k2 < j2; ++k2)
      ok = intra_whole(p2, i2, k2, j2) &&
           ((no_inter(x2, k2 + 1, j2) && F(i1, j1, i2, k2)) || (no_inter(x2, i2, k2) && F(i1, j1, k2 + 1, j2)));
    for (long long k1 = i1; !ok && k1 < j1; ++k1)
      ok = intra_whole(p1, i1, k1, j1) &&
           ((no_inter(x1, k1 + 1, j1) && F(i1, k1, i2, j2)) || (no_inter(x1, i1, k1) && F(k1 + 1, j1, i2, j2)));
    return memo[key] = ok;
  };
  return F(0, m - 1, 0, n - 1);
}

std::string random_rna(std::mt19937& rng, std::size_t length, bool with_n) {
  const char* letters = with_n ? "ACGUN" : "ACGU";
  std::string s(length, 'A');
  for (char& c : s) c = letters[rng() % (with_n ? 5 : 4)];
  return s;
}

}  // namespace

TEST_CASE("bpmax: the original program's scores", "[bpmax]") {
  const fold::InteractionWeights w = fold::parse_interaction_weights("3,1,1.5");
  auto score = [&](const char* one, const char* two) {
    const std::string a = rna(one), b = rna(two);
    const fold::Interaction r = fold::interact_oracle(a, b, w.pairs);
    CHECK(fold::structure_weight(a, b, r.pairs, w.pairs) == r.score);
    return fold::format_score(r.score, w.unit);
  };
  CHECK(score("ACGU", "ACGU") == "8");
  CHECK(score("GGGAAACCC", "GGGUUUCCC") == "21");
  CHECK(score("ACCGCCGTCTTCGAGGAAAG", "CCCGGCTGCTAGCTAGGAGAAATCGCGCATTT") == "52");
  CHECK(score("CGCGCTGGATAAATATAGGACCAGGAAT", "GCTCGGATAGAGCTAGGAGAAATCGCGCCGCTAGA") == "52.5");
}

TEST_CASE("bpmax: the oracle equals a top-down reading of the recurrence; its structures weigh its score", "[bpmax]") {
  std::mt19937 rng(2020);
  const fold::PairWeights weights[] = {{6, 2, 3}, {1, 1, 1}, {5, 0, 2}};
  for (int trial = 0; trial < 300; ++trial) {
    const fold::PairWeights& w = weights[trial % 3];
    const std::string a = random_rna(rng, 1 + rng() % 9, trial % 4 == 0), b = random_rna(rng, 1 + rng() % 9, trial % 5 == 0);
    const fold::Interaction r = fold::interact_oracle(a, b, w);
    INFO("trial " << trial << ": " << a << "&" << b << " -> " << r.structure);
    REQUIRE(r.score == top_down(a, b, w));
    REQUIRE(fold::structure_weight(a, b, r.pairs, w) == r.score);
    REQUIRE(derivable(r.pairs, static_cast<long long>(a.size()), static_cast<long long>(b.size())));
    REQUIRE(r.structure.size() == a.size() + b.size() + 1);
  }
  const std::string a = random_rna(rng, 2, false), b = random_rna(rng, 40, false);  // very unequal
  CHECK(fold::interact_oracle(a, b, weights[0]).score == top_down(a, b, weights[0]));
}

TEST_CASE("bpmax: the parser by the recurrence's cases accepts what the model makes, not a zigzag across strands", "[bpmax]") {
  using fold::BasePair, fold::PairKind;
  CHECK(derivable({}, 3, 3));
  CHECK(derivable({{0, 2, PairKind::inter}, {2, 0, PairKind::inter}}, 3, 3));
  CHECK(derivable({{0, 8, PairKind::intra1}, {4, 4, PairKind::inter}}, 9, 9));  // a pair between the strands inside a hairpin
  // Inter pairs in the same order on both strands cross: no case builds them.
  CHECK_FALSE(derivable({{0, 0, PairKind::inter}, {2, 2, PairKind::inter}}, 3, 3));
}

TEST_CASE("bpmax: the structure check refuses what the model does not make", "[bpmax]") {
  const fold::PairWeights w;
  using fold::BasePair, fold::PairKind;
  CHECK(fold::structure_weight("GAAAC", "A", {{0, 4, PairKind::intra1}}, w) == 6);
  CHECK_THROWS_AS(fold::structure_weight("GAAC", "A", {{0, 3, PairKind::intra1}}, w), std::logic_error);  // hairpin of 2
  CHECK_THROWS_AS(fold::structure_weight("GAAAA", "A", {{0, 4, PairKind::intra1}}, w), std::logic_error);  // G-A
  CHECK(fold::structure_weight("GC", "GC", {{0, 1, PairKind::inter}, {1, 0, PairKind::inter}}, w) == 12);  // antiparallel
  CHECK_THROWS_AS(fold::structure_weight("GC", "CG", {{0, 0, PairKind::inter}, {1, 1, PairKind::inter}}, w),
                  std::logic_error);  // crossing between the strands
  CHECK_THROWS_AS(fold::structure_weight("G", "CC", {{0, 0, PairKind::inter}, {0, 1, PairKind::inter}}, w),
                  std::logic_error);  // a base in two pairs
}

TEST_CASE("bpmax: weights parse to the smallest unit and scores print back exactly", "[bpmax]") {
  const fold::InteractionWeights half = fold::parse_interaction_weights("3,1,1.5");
  CHECK(half.unit == 2);
  CHECK(half.pairs.gc == 6);
  CHECK(half.pairs.au == 2);
  CHECK(half.pairs.gu == 3);
  const fold::InteractionWeights whole = fold::parse_interaction_weights("3,2,1");
  CHECK(whole.unit == 1);
  const fold::InteractionWeights cents = fold::parse_interaction_weights("0.25,1,0.05");
  CHECK(cents.unit == 20);
  CHECK(cents.pairs.gc == 5);
  CHECK(fold::format_score(105, 2) == "52.5");
  CHECK(fold::format_score(21, 1) == "21");
  CHECK(fold::format_score(21, 20) == "1.05");
  CHECK(fold::format_score(0, 4) == "0");
  for (const char* bad : {"", "3,1", "3,1,1,1", "-1,1,1", "3,1,1.555", "a,1,1", "3,,1", "1e3,1,1", "."})
    CHECK_THROWS_AS(fold::parse_interaction_weights(bad), InputError);
}

TEST_CASE("bpmax: strands swapped score the same; a swapped structure maps back to one of the same weight", "[bpmax]") {
  std::mt19937 rng(77);
  const fold::PairWeights w;
  for (int trial = 0; trial < 40; ++trial) {
    const std::string a = random_rna(rng, 1 + rng() % 10, trial % 4 == 0), b = random_rna(rng, 1 + rng() % 6, false);
    INFO(a << "&" << b);
    const fold::Interaction direct = fold::interact_oracle(a, b, w);
    REQUIRE(fold::interact_oracle(b, a, w).score == direct.score);
    const fold::Interaction mapped = fold::bpmax_cpu::shorter_strand_first(
        a, b, {}, [&](std::string_view one, std::string_view two, const fold::InteractionWindow&) {
          return fold::interact_oracle(one, two, w);
        });
    CHECK(mapped.score == direct.score);
    CHECK(fold::structure_weight(a, b, mapped.pairs, w) == direct.score);
    CHECK(mapped.structure.size() == a.size() + b.size() + 1);
    CHECK(mapped.structure[a.size()] == '&');
  }
}

TEST_CASE("bpmax: S by diagonals on threads equals S cell by cell", "[bpmax]") {
  std::mt19937 rng(5);
  for (const std::size_t n : {1, 2, 4, 5, 6, 17, 64, 200, 600}) {
    for (const fold::PairWeights w : {fold::PairWeights{}, fold::PairWeights{1, 1, 1}}) {
      const std::string s = random_rna(rng, n, n % 2 == 0);
      for (const long long span : {fold::InteractionWindow::kWhole, 0LL, 3LL, 4LL, 9LL, 130LL}) {
        const fold::InteractionWindow window{span, span};
        const fold::bpmax_cpu::Strands cells(s, s, w, window, fold::bpmax_cpu::SingleFill::cells),
            rows(s, s, w, window, fold::bpmax_cpu::SingleFill::diagonals, 3);
        INFO(s << " span " << span);
        CHECK(rows.s1.s == cells.s1.s);
        CHECK(rows.s2.s == cells.s2.s);
      }
    }
  }
}

TEST_CASE("bpmax: the products' form gives the oracle's score and structure, on one thread and several", "[bpmax]") {
  std::mt19937 rng(2021);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1}, {1, 2}, {2, 1}, {4, 5}, {5, 4}, {5, 5},
                                                                    {1, 40}, {40, 1}, {6, 60}, {12, 12}, {3, 90}};
  for (int trial = 0; trial < 60; ++trial) {
    const auto [la, lb] = trial < static_cast<int>(shapes.size())
                              ? shapes[static_cast<std::size_t>(trial)]
                              : std::pair<std::size_t, std::size_t>{1 + rng() % 12, 1 + rng() % 30};
    const std::string a = random_rna(rng, la, trial % 4 == 0), b = random_rna(rng, lb, trial % 5 == 0);
    const fold::PairWeights w = trial % 3 == 0 ? fold::PairWeights{1, 1, 1} : fold::PairWeights{};
    // The products' form puts the shorter strand first: the oracle on the
    // strands in that order.
    const fold::Interaction oracle = fold::bpmax_cpu::shorter_strand_first(
        a, b, {}, [&](std::string_view one, std::string_view two, const fold::InteractionWindow&) {
          return fold::interact_oracle(one, two, w);
        });
    INFO(a << "&" << b);
    for (const int threads : {1, 3}) {
      const fold::Interaction products = fold::interact_products(a, b, w, threads);
      CHECK(products.score == oracle.score);
      CHECK(products.structure == oracle.structure);
      CHECK(products.pairs == oracle.pairs);
    }
  }
}

// The windowed score by brute force: the unwindowed oracle on every pair
// of substrings of the window's lengths.
long long best_substrings(const std::string& a, const std::string& b, const fold::PairWeights& w,
                          const fold::InteractionWindow& window) {
  const std::size_t la = static_cast<std::size_t>(std::min<long long>(window.span1, static_cast<long long>(a.size()) - 1)) + 1;
  const std::size_t lb = static_cast<std::size_t>(std::min<long long>(window.span2, static_cast<long long>(b.size()) - 1)) + 1;
  long long best = 0;
  for (std::size_t x = 0; x + la <= a.size(); ++x)
    for (std::size_t y = 0; y + lb <= b.size(); ++y)
      best = std::max(best, fold::interact_oracle(a.substr(x, la), b.substr(y, lb), w).score);
  return best;
}

TEST_CASE("bpmax: with a window, the oracle's score is the best of every pair of substrings that long", "[bpmax]") {
  std::mt19937 rng(31);
  const fold::PairWeights w;
  for (int trial = 0; trial < 40; ++trial) {
    const std::string a = random_rna(rng, 1 + rng() % 9, trial % 5 == 0), b = random_rna(rng, 1 + rng() % 14, false);
    const fold::InteractionWindow window{static_cast<long long>(rng() % 7), static_cast<long long>(rng() % 10)};
    INFO(a << "&" << b << " window " << window.span1 << "," << window.span2);
    const fold::Interaction r = fold::interact_oracle(a, b, w, window);
    CHECK(r.score == best_substrings(a, b, w, window));
    CHECK(fold::structure_weight(a, b, r.pairs, w) == r.score);
    // Every pair lies within one window's reach on each strand.
    int lo1 = static_cast<int>(a.size()), hi1 = -1, lo2 = static_cast<int>(b.size()), hi2 = -1;
    for (const fold::BasePair& p : r.pairs) {
      const bool on2 = p.kind == fold::PairKind::intra2, inter = p.kind == fold::PairKind::inter;
      if (!on2) lo1 = std::min(lo1, p.i), hi1 = std::max(hi1, inter ? p.i : p.j);
      if (on2 || inter) lo2 = std::min(lo2, on2 ? p.i : p.j), hi2 = std::max(hi2, p.j);
    }
    if (hi1 >= 0) CHECK(hi1 - lo1 <= window.span1);
    if (hi2 >= 0) CHECK(hi2 - lo2 <= window.span2);
  }
  // A window as long as the strands is no window.
  CHECK(fold::interact_oracle("GGGAAACCC", "GGGUUUCCC", w, {8, 8}).score ==
        fold::interact_oracle("GGGAAACCC", "GGGUUUCCC", w).score);
}

TEST_CASE("bpmax: with a window, the products' form gives the oracle's score and structure", "[bpmax]") {
  std::mt19937 rng(4242);
  for (int trial = 0; trial < 60; ++trial) {
    const std::string a = random_rna(rng, 1 + rng() % 12, trial % 4 == 0), b = random_rna(rng, 1 + rng() % 40, false);
    const fold::PairWeights w = trial % 3 == 0 ? fold::PairWeights{1, 1, 1} : fold::PairWeights{};
    const fold::InteractionWindow window{static_cast<long long>(rng() % 14), static_cast<long long>(rng() % 30)};
    const fold::Interaction oracle = fold::bpmax_cpu::shorter_strand_first(
        a, b, window, [&](std::string_view one, std::string_view two, const fold::InteractionWindow& wnd) {
          return fold::interact_oracle(one, two, w, wnd);
        });
    INFO(a << "&" << b << " window " << window.span1 << "," << window.span2);
    CHECK(fold::interact_oracle(a, b, w, window).score == oracle.score);
    for (const int threads : {1, 3}) {
      const fold::Interaction products = fold::interact_products(a, b, w, threads, window);
      CHECK(products.score == oracle.score);
      CHECK(products.structure == oracle.structure);
      CHECK(products.pairs == oracle.pairs);
    }
  }
}

TEST_CASE("bpmax: windows parse as two whole numbers", "[bpmax]") {
  const fold::InteractionWindow w = fold::parse_interaction_window("150,20");
  CHECK(w.span1 == 150);
  CHECK(w.span2 == 20);
  CHECK(fold::parse_interaction_window("0,0").span1 == 0);
  for (const char* bad : {"", "150", "150,", ",20", "a,1", "1.5,2", "-1,4", "1,2,3", "99999999999999,1"})
    CHECK_THROWS_AS(fold::parse_interaction_window(bad), InputError);
}
