// The CPU lanes (cpu/score_lanes.hpp) against the oracle, each variant this
// CPU runs: the same score and end cell (ties included) on random groups of
// many shapes, padding lanes and 16-bit overflow; and through
// align_each_query, which hands them a search's score passes.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "pairwise/cpu/score_lanes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

// Each lane's result equals the oracle's, or the lane reports overflow
// exactly where the oracle's score reaches the bound.
void require_oracle(Residues q, const std::vector<std::vector<std::uint8_t>>& ts, const ScoringScheme& s) {
  const std::vector<Residues> targets(ts.begin(), ts.end());
  const Shape shape = shape_of(Mode::local, s);
  const int bound = overflow_bound16(s);
  for (const std::string& variant : score_lanes_variants()) {
    PassResult out[kScoreLanes];
    bool overflowed[kScoreLanes];
    score_lanes(q, targets, s, out, overflowed, variant);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const PassResult want = score_pass_scalar(q, targets[k], s, shape);
      INFO(variant << ", lane " << k << " of " << targets.size() << ", m " << q.size() << ", n " << targets[k].size());
      REQUIRE(overflowed[k] == (want.score >= bound));
      if (overflowed[k]) continue;
      REQUIRE(out[k].score == want.score);
      REQUIRE(out[k].end_i == want.end_i);
      REQUIRE(out[k].end_j == want.end_j);
    }
  }
}

}  // namespace

TEST_CASE("score_lanes equals the oracle on random groups of DNA and protein", "[pairwise][lanes]") {
  std::mt19937 rng(91);
  for (int round = 0; round < 300; ++round) {
    const bool protein = round % 2;
    const int alphabet = protein ? 20 : 4;
    ScoringScheme s = protein ? test::protein_scheme(round % 4 ? "BLOSUM62" : "BLOSUM80", round % 13, 1 + round % 3)
                              : test::dna_scheme(1 + round % 3, -1 - round % 4, round % 7, round % 3);
    REQUIRE(score_lanes_can_run(s, shape_of(Mode::local, s)));
    // Lengths of one size class or of all sizes; a few lanes or a whole group.
    const std::size_t lanes = 1 + static_cast<std::size_t>(rng() % kScoreLanes);
    const std::size_t top = round % 3 == 0 ? 8 : round % 3 == 1 ? 120 : 700;
    const auto q = test::random_ranks(rng, 1 + rng() % 150, alphabet);
    std::vector<std::vector<std::uint8_t>> ts;
    for (std::size_t k = 0; k < lanes; ++k) {
      if (k % 3 == 1) ts.push_back(test::mutate(rng, q, alphabet));  // long alignments, many ties near the end
      else ts.push_back(test::random_ranks(rng, 1 + rng() % top, alphabet));
      if (ts.back().empty()) ts.back().push_back(0);
    }
    INFO("round " << round);
    require_oracle(q, ts, s);
  }
}

TEST_CASE("score_lanes keeps the first best cell in row-major order among ties", "[pairwise][lanes]") {
  // Repeats: the best score is reached in many cells.
  const ScoringScheme s = test::dna_scheme(1, -1, 2, 1);
  std::vector<std::uint8_t> q, a, b, c;
  for (int k = 0; k < 12; ++k) q.push_back(static_cast<std::uint8_t>(k % 2));
  for (int k = 0; k < 40; ++k) a.push_back(static_cast<std::uint8_t>(k % 2));
  for (int k = 0; k < 40; ++k) b.push_back(static_cast<std::uint8_t>(k % 4 == 0 ? 1 : 0));
  c = {3, 3, 3};  // no match: the empty alignment, score 0 at (0, 0)
  require_oracle(q, {a, b, c, a}, s);
}

TEST_CASE("score_lanes reports the lanes that reach the 16-bit bound, and only those", "[pairwise][lanes]") {
  std::mt19937 rng(5);
  const ScoringScheme s = test::dna_scheme(100, -100, 5, 2);
  const auto q = test::random_ranks(rng, 400, 4);  // a copy scores 40,000
  std::vector<std::vector<std::uint8_t>> ts{q, test::random_ranks(rng, 400, 4), test::mutate(rng, q, 4, 0.05),
                                            std::vector<std::uint8_t>(q.begin(), q.begin() + 300),
                                            std::vector<std::uint8_t>(q.begin(), q.begin() + 320)};
  require_oracle(q, ts, s);
  PassResult out[kScoreLanes];
  bool overflowed[kScoreLanes];
  const std::vector<Residues> targets(ts.begin(), ts.end());
  score_lanes(q, targets, s, out, overflowed);
  REQUIRE(overflowed[0]);
  REQUIRE_FALSE(overflowed[1]);
  REQUIRE_FALSE(overflowed[3]);  // 30,000: below the bound
}

TEST_CASE("score_lanes: longest target and group size within the limits", "[pairwise][lanes]") {
  std::mt19937 rng(6);
  const ScoringScheme s = test::protein_scheme();
  const auto q = test::random_ranks(rng, 20, 20);
  const std::size_t longest = score_lanes_max_target(s);
  REQUIRE(longest >= 10000);  // a protein database's long tail
  REQUIRE(score_lanes_max_target(test::dna_scheme()) >= 10000);
  std::vector<std::vector<std::uint8_t>> ts{test::random_ranks(rng, longest, 20), {1}};
  require_oracle(q, ts, s);
  ts.push_back(test::random_ranks(rng, longest + 1, 20));
  const std::vector<Residues> too_long(ts.begin(), ts.end());
  PassResult out[kScoreLanes];
  bool overflowed[kScoreLanes];
  REQUIRE_THROWS_AS(score_lanes(q, too_long, s, out, overflowed), std::invalid_argument);
  const std::vector<Residues> too_many(kScoreLanes + 1, Residues(ts[1]));
  REQUIRE_THROWS_AS(score_lanes(q, too_many, s, out, overflowed), std::invalid_argument);
  REQUIRE_THROWS_AS(score_lanes(q, too_many, s, out, overflowed, "no such variant"), std::invalid_argument);
  REQUIRE(score_lanes_variants().back() == "baseline");
  REQUIRE_FALSE(score_lanes_can_run(s, shape_of(Mode::global, s)));
  REQUIRE_FALSE(score_lanes_can_run(s, shape_of(Mode::semiglobal, s)));
}

TEST_CASE("align_each_query's score-only search on the lanes equals align() a pair", "[pairwise][lanes][batch]") {
  std::mt19937 rng(12);
  const ScoringScheme s = test::dna_scheme(60, -60, 5, 2);  // some pairs pass the 16-bit bound
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (int k = 0; k < 5; ++k) qs.push_back(test::random_ranks(rng, 100 + 150 * static_cast<std::size_t>(k), 4));
  for (int k = 0; k < 45; ++k)
    ts.push_back(k % 5 == 0 ? test::mutate(rng, qs[static_cast<std::size_t>(k / 10)], 4, 0.02)
                            : test::random_ranks(rng, 1 + rng() % 900, 4));
  ts.push_back({});  // an empty target stays with the pair path
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  for (const int threads : {1, 2})
    for (const std::size_t top : {std::size_t{0}, std::size_t{4}}) {
      INFO("threads " << threads << ", top " << top);
      const Options o{.mode = Mode::local, .score_only = true,
                      .backend = threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar, .threads = threads};
      std::size_t seen = 0;
      align_each_query(q, t, s, o, top, [&](std::span<const Hit> hits) {
        for (const Hit& h : hits) {
          const Alignment want = align(q[h.query], t[h.target], s, Options{.score_only = true});
          REQUIRE(h.alignment.score == want.score);
          REQUIRE(h.alignment.query_end == want.query_end);
          REQUIRE(h.alignment.target_end == want.target_end);
          ++seen;
        }
      });
      REQUIRE(seen == q.size() * (top ? top : t.size()));
    }
}
