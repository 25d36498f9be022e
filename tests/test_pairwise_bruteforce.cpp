// The scalar oracle, the full-matrix traceback and the linear-space alignment
// against brute force on tiny inputs.
#include <catch2/catch.hpp>

#include "brute_force.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

const Mode all_modes[] = {Mode::local, Mode::global, Mode::semiglobal};

void check_against_brute_force(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& t,
                               const ScoringScheme& s, Mode mode) {
  INFO("mode " << to_string(mode) << ", m " << q.size() << ", n " << t.size() << ", open " << s.gap_open
               << ", extend " << s.gap_extend);
  const int expected = test::brute_force_score(q, t, s, mode);
  REQUIRE(score_pass_scalar(q, t, s, shape_of(mode, s)).score == expected);

  const Alignment full = align_full_matrix(q, t, s, mode);
  REQUIRE(full.score == expected);
  REQUIRE(rescore(full, q, t, s) == expected);

  const Alignment linear = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = Backend::cpu_scalar, .threads = 1});
  REQUIRE(linear.score == expected);
  REQUIRE(rescore(linear, q, t, s) == expected);
  if (mode != Mode::local) REQUIRE(linear.query_begin == 0);
  if (mode != Mode::local) REQUIRE(linear.query_end == static_cast<std::int64_t>(q.size()));
}

}  // namespace

TEST_CASE("oracle, full matrix and linear space equal brute force on every tiny pair", "[pairwise][brute]") {
  // Every pair over a 2-letter alphabet up to length 3 x 3, several gap costs.
  for (int open : {0, 1, 5})
    for (int extend : {0, 1, 2}) {
      ScoringScheme s = test::dna_scheme(2, -3, open, extend);
      for (int m = 0; m <= 3; ++m)
        for (int n = 0; n <= 3; ++n)
          for (int qbits = 0; qbits < (1 << m); ++qbits)
            for (int tbits = 0; tbits < (1 << n); ++tbits) {
              std::vector<std::uint8_t> q, t;
              for (int k = 0; k < m; ++k) q.push_back(static_cast<std::uint8_t>((qbits >> k) & 1));
              for (int k = 0; k < n; ++k) t.push_back(static_cast<std::uint8_t>((tbits >> k) & 1));
              for (Mode mode : all_modes) check_against_brute_force(q, t, s, mode);
            }
    }
}

TEST_CASE("oracle equals brute force on random small DNA and protein pairs", "[pairwise][brute]") {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> len(0, 6), gap(0, 6);
  const ScoringScheme blosum = test::protein_scheme();
  for (int round = 0; round < 300; ++round) {
    const bool protein = round % 3 == 0;
    ScoringScheme s = protein ? blosum : test::dna_scheme(1 + round % 3, -1 - round % 4);
    set_gap_costs(s, gap(rng), gap(rng) % 3);
    const int alphabet = protein ? 20 : 4;
    const auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    const auto t = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    for (Mode mode : all_modes) check_against_brute_force(q, t, s, mode);
  }
}
