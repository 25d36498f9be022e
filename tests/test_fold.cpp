// Nussinov folding: the oracle (CPU1) against every structure of tiny RNAs
// enumerated, the other engines against the oracle, and every returned
// structure checked for validity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "core/error.hpp"
#include "fold/fold.hpp"
#include "fold/table.hpp"

using namespace gdp;
using namespace gdp::fold;

namespace {

// The most pairs over every non-crossing structure of s[i..j], enumerated
// without memory: base i is unpaired, or pairs with some allowed k.
int enumerate(const std::string& s, int i, int j, const Rules& r) {
  if (j - i < 1) return 0;
  int best = enumerate(s, i + 1, j, r);
  for (int k = i + r.min_loop + 1; k <= j; ++k)
    if (can_pair(s[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(k)], r))
      best = std::max(best, 1 + enumerate(s, i + 1, k - 1, r) + enumerate(s, k + 1, j, r));
  return best;
}

std::string random_rna(std::mt19937& rng, std::size_t n) {
  std::uniform_int_distribution<int> d(0, 3);
  std::string s(n, 'A');
  for (auto& c : s) c = "ACGU"[d(rng)];
  return s;
}

// Balanced, allowed pairs only, hairpins long enough, and as many pairs as
// reported.
void require_valid(const std::string& s, const Structure& st, const Rules& r) {
  REQUIRE(st.dot_bracket.size() == s.size());
  std::vector<std::size_t> open;
  int pairs = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (st.dot_bracket[i] == '(') open.push_back(i);
    if (st.dot_bracket[i] == ')') {
      REQUIRE_FALSE(open.empty());
      const std::size_t o = open.back();
      open.pop_back();
      REQUIRE(can_pair(s[o], s[i], r));
      REQUIRE(static_cast<int>(i - o - 1) >= r.min_loop);
      REQUIRE(st.partner[o] == static_cast<int>(i));
      ++pairs;
    }
  }
  REQUIRE(open.empty());
  REQUIRE(pairs == st.pairs);
}

}  // namespace

TEST_CASE("Nussinov oracle equals every structure enumerated", "[fold]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    const std::string s = random_rna(rng, static_cast<std::size_t>(round % 13));
    const Rules r{round % 3 != 0, round % 5};
    INFO(s << " min loop " << r.min_loop << " gu " << r.gu);
    const Structure st = fold_rna(s, r);
    REQUIRE(st.pairs == enumerate(s, 0, static_cast<int>(s.size()) - 1, r));
    require_valid(s, st, r);
  }
}

TEST_CASE("Nussinov engines equal the oracle", "[fold]") {
  std::mt19937 rng(11);
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 31, 32, 33, 97, 128, 257, 400})
    for (int min_loop : {0, 1, 3, 4}) {
      const std::string s = random_rna(rng, n);
      const Rules r{n % 2 == 0, min_loop};
      const Structure oracle = fold_rna(s, r, Engine::cpu1);
      require_valid(s, oracle, r);
      for (Engine e : {Engine::cpu2, Engine::omp2})
        for (int threads : {1, 3}) {
          INFO("n " << n << " min loop " << min_loop << " engine " << to_string(e) << " threads " << threads);
          const Structure st = fold_rna(s, r, e, threads);
          REQUIRE(st.pairs == oracle.pairs);
          REQUIRE(st.dot_bracket == oracle.dot_bracket);
        }
    }
}

TEST_CASE("Nussinov by hand, and bad letters", "[fold]") {
  // GGGAAAUCC: G-C, G-C, G-U around a hairpin of AAA (min loop 3).
  const Structure st = fold_rna("GGGAAAUCC", Rules{});
  REQUIRE(st.pairs == 3);
  REQUIRE(st.dot_bracket == "(((...)))");
  REQUIRE(fold_rna("GGGAAAUCC", Rules{false, 3}).pairs == 2);  // no wobble pair
  REQUIRE(fold_rna("GAAAC", Rules{true, 3}).pairs == 1);
  REQUIRE(fold_rna("GAAC", Rules{true, 3}).pairs == 0);  // a loop of two is too short
  REQUIRE(fold_rna("GC", Rules{true, 0}).pairs == 1);
  REQUIRE(fold_rna("GC", Rules{true, 1}).pairs == 0);    // the dissertation's C(i,i+1) = 0
  REQUIRE_THROWS_AS(fold_rna("GGXCC", Rules{}), InputError);
  REQUIRE(parse_engine("omp2") == Engine::omp2);
  REQUIRE_THROWS_AS(parse_engine("gpu9"), InputError);
}

TEST_CASE("packed tables hold the strict upper triangle, row after row, each cell once", "[fold]") {
  for (std::int64_t n : {0, 1, 2, 3, 7, 300}) {
    Table t = packed_table(n, 2);
    const std::int64_t cells = Table::packed_cells(n);
    std::vector<int> written(static_cast<std::size_t>(cells), 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j) {
        const std::int64_t at = Table::row_start(n, i) + j - i - 1;
        REQUIRE((at >= 0 && at < cells));
        ++written[static_cast<std::size_t>(at)];
        t.packed[static_cast<std::size_t>(at)] = static_cast<std::uint16_t>((i * 131 + j) % 65536);
      }
    REQUIRE(std::all_of(written.begin(), written.end(), [](int w) { return w == 1; }));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) REQUIRE(t.at(i, j) == (j <= i ? 0 : static_cast<int>((i * 131 + j) % 65536)));
  }
}
