// The oracle against a real peer: parasail's scalar/striped aligners.
// parasail charges a gap of length k as open' + (k-1)*extend, so its open'
// is our open + extend. Our semiglobal (target ends free) is its sg_dx.
#include <parasail.h>
#include <parasail/matrices/blosum62.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "pairwise/pairwise.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

std::string letters(const std::vector<std::uint8_t>& ranks, const ScoringScheme& s) {
  std::string out;
  for (auto r : ranks) out += s.letters[r];
  return out;
}

int parasail_score(Mode mode, const std::string& q, const std::string& t, const ScoringScheme& s,
                   const parasail_matrix_t* matrix) {
  using Fn = parasail_result_t* (*)(const char*, int, const char*, int, int, int, const parasail_matrix_t*);
  const Fn fn = mode == Mode::local ? parasail_sw : mode == Mode::global ? parasail_nw : parasail_sg_dx;
  std::unique_ptr<parasail_result_t, decltype(&parasail_result_free)> r(
      fn(q.c_str(), static_cast<int>(q.size()), t.c_str(), static_cast<int>(t.size()), s.gap_open + s.gap_extend,
         s.gap_extend, matrix),
      &parasail_result_free);
  return r->score;
}

}  // namespace

TEST_CASE("oracle equals parasail on random DNA pairs, all modes", "[pairwise][parasail]") {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> len(1, 200);
  for (int round = 0; round < 150; ++round) {
    const int match = 1 + round % 3, mismatch = -1 - round % 4;
    ScoringScheme s = test::dna_scheme(match, mismatch, 1 + round % 6, 1 + round % 3);
    std::unique_ptr<parasail_matrix_t, decltype(&parasail_matrix_free)> matrix(
        parasail_matrix_create("ACGT", match, mismatch), &parasail_matrix_free);
    const auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 4);
    const auto t = round % 2 ? test::mutate(rng, q, 4) : test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 4);
    for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) {
      INFO("round " << round << " mode " << to_string(mode));
      const int ours = align(q, t, s, Options{.mode = mode, .score_only = true, .backend = Backend::cpu_scalar, .threads = 1}).score;
      REQUIRE(ours == parasail_score(mode, letters(q, s), letters(t, s), s, matrix.get()));
    }
  }
}

TEST_CASE("oracle equals parasail on random protein pairs with BLOSUM62, all modes", "[pairwise][parasail]") {
  std::mt19937 rng(41);
  std::uniform_int_distribution<int> len(1, 300);
  const ScoringScheme blosum = test::protein_scheme();
  for (int round = 0; round < 100; ++round) {
    ScoringScheme s = blosum;
    set_gap_costs(s, 5 + round % 8, 1 + round % 2);
    const auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 20);
    const auto t = round % 2 ? test::mutate(rng, q, 20, 0.3) : test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 20);
    for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) {
      INFO("round " << round << " mode " << to_string(mode));
      const Alignment a = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = Backend::cpu_scalar, .threads = 1});
      REQUIRE(a.score == parasail_score(mode, letters(q, s), letters(t, s), s, &parasail_blosum62));
      REQUIRE(rescore(a, q, t, s) == a.score);
    }
  }
}
