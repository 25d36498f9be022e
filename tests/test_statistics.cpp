// Karlin-Altschul statistics against values derived independently: BLAST's
// published ungapped parameters, roots worked out by hand, the formulas
// evaluated here, and numbers blastp/blastn 2.12 printed.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "io/blast_tabular.hpp"
#include "random_inputs.hpp"
#include "stats/blast_tables.hpp"
#include "stats/karlin.hpp"
#include "stats/statistics.hpp"

using namespace gdp;

namespace {

stats::KarlinAltschul computed(const ScoringScheme& s, bool nucleotide) {
  const auto k = stats::ungapped_parameters(stats::score_probabilities(s, stats::background_frequencies(s, nucleotide)));
  REQUIRE(k);
  return *k;
}

// BLAST's length adjustment by its definition (blast_stat.c): the largest
// integer l >= 0 with l <= beta + (alpha/lambda)(ln K + ln((m - l)(n - N l)))
// and K (m - l)(n - N l) > max(m, n); by trying each.
std::int64_t brute_length_adjustment(double K, double a_l, double beta, double m, double n, double N) {
  std::int64_t best = 0;
  for (std::int64_t l = 0; static_cast<double>(l) < m && N * static_cast<double>(l) < n; ++l) {
    const auto d = static_cast<double>(l);
    const double space = (m - d) * (n - N * d);
    if (K * space <= std::max(m, n)) break;
    if (a_l * (std::log(K) + std::log(space)) + beta >= d) best = l;
  }
  return best;
}

}  // namespace

TEST_CASE("ungapped BLOSUM62 with Robinson frequencies gives BLAST's published lambda, K and H", "[stats]") {
  // blast_stat.c, blosum62_values' ungapped row: 0.3176, 0.134, 0.4012.
  const auto k = computed(matrix_scheme("BLOSUM62"), false);
  CHECK(k.lambda == Approx(0.3176).margin(0.00005));
  CHECK(k.K == Approx(0.134).margin(0.0005));
  CHECK(k.H == Approx(0.4012).margin(0.00005));
  // And the other built-in matrices whose scale is BLAST's.
  for (const char* name : {"BLOSUM45", "BLOSUM50", "BLOSUM90", "PAM30", "PAM70", "PAM250"}) {
    INFO(name);
    const auto rows = stats::protein_rows(name, 0, 0);
    REQUIRE(rows);
    const auto c = computed(matrix_scheme(name), false);
    CHECK(c.lambda == Approx(rows->ungapped.lambda).margin(0.00006));
    CHECK(c.H == Approx(rows->ungapped.H).epsilon(0.002));
    CHECK(c.K == Approx(rows->ungapped.K).epsilon(0.01));
  }
}

TEST_CASE("lambda and K of Karlin and Altschul's worked example", "[stats]") {
  // blast_stat.c's comment: scores -2, 0, 3 with probabilities 0.7, 0.1,
  // 0.2 give lambda = 0.330 and K = 0.154 (the general series for K).
  const auto k = stats::ungapped_parameters({-2, {0.7, 0, 0.1, 0, 0, 0.2}});
  REQUIRE(k);
  CHECK(k->lambda == Approx(0.330).margin(0.0005));
  CHECK(k->K == Approx(0.154).margin(0.0005));
}

TEST_CASE("DNA match +1, mismatch -3 on uniform bases: lambda is the root worked out by hand", "[stats]") {
  // 1/4 e^l + 3/4 e^-3l = 1; with x = e^l: x^4 - 4x^3 + 3 = 0
  // = (x - 1)(x^3 - 3x^2 - 3x - 3). With x = t + 1: t^3 - 6t - 8 = 0, whose
  // one real root (Cardano) is t = cbrt(4 + sqrt 8) + cbrt(4 - sqrt 8).
  const double x = 1 + std::cbrt(4 + std::sqrt(8.0)) + std::cbrt(4 - std::sqrt(8.0));
  const double lambda = std::log(x);
  // H = lambda (1/4 e^l - 9/4 e^-3l); the highest score is +1, so K has
  // the closed form (H / lambda)(1 - e^-lambda).
  const double H = lambda * (0.25 * x - 2.25 / (x * x * x));
  const double K = H / lambda * (1 - 1 / x);
  const auto k = computed(match_mismatch_scheme(1, -3), true);
  CHECK(k.lambda == Approx(lambda).epsilon(1e-12));
  CHECK(k.H == Approx(H).epsilon(1e-10));
  CHECK(k.K == Approx(K).epsilon(1e-10));
  // BLAST's blastn_values_1_3 prints these as 1.374, 0.711, 1.31.
  CHECK(lambda == Approx(1.374).margin(0.0005));
  CHECK(K == Approx(0.711).margin(0.0005));
}

TEST_CASE("match +1, mismatch -1: the closed form for scores -1 and +1", "[stats]") {
  // lambda = ln 3 (1/4 e^l + 3/4 e^-l = 1), K = (p(-1) - p(1))^2 / p(-1) = 1/3.
  const auto k = computed(match_mismatch_scheme(1, -1), true);
  CHECK(k.lambda == Approx(std::log(3.0)).epsilon(1e-12));
  CHECK(k.K == Approx((0.75 - 0.25) * (0.75 - 0.25) / 0.75).epsilon(1e-12));
}

TEST_CASE("length adjustment: BLAST's iteration finds the largest integer below the fixed point", "[stats]") {
  // blastn 2.12, match 2 mismatch -3 gaps 5/2 (lambda 0.625, K 0.41, alpha
  // 0.8, beta -2): a 270-letter query against 900 letters in 2 sequences
  // printed "Effective search space used: 226008" = (270 - 12)(900 - 2*12).
  // By hand: f(12) = 1.28 (ln 0.41 + ln(258*876)) - 2 = 12.64 >= 12 and
  // f(13) = 1.28 (ln 0.41 + ln(257*874)) - 2 = 12.63 < 13.
  CHECK(stats::length_adjustment(0.41, 0.8 / 0.625, -2, 270, 900, 2) == 12);
  CHECK(1.28 * (std::log(0.41) + std::log(258.0 * 876)) - 2 >= 12);
  CHECK(1.28 * (std::log(0.41) + std::log(257.0 * 874)) - 2 < 13);
  // Against trying every integer, over many shapes (BLOSUM62 11/1 too).
  for (const auto& [K, al, beta] : {std::tuple{0.41, 0.8 / 0.625, -2.0}, std::tuple{0.041, 1.9 / 0.267, -30.0},
                                    std::tuple{0.134, 0.7916 / 0.3176, -3.2}})
    for (double m : {20.0, 142.0, 1000.0, 30000.0})
      for (const auto& [n, N] : {std::pair{147.0, 1.0}, std::pair{5e4, 100.0}, std::pair{2e8, 5e5}}) {
        INFO("K " << K << " m " << m << " n " << n << " N " << N);
        CHECK(stats::length_adjustment(K, al, beta, static_cast<std::int64_t>(m), static_cast<std::int64_t>(n),
                                       static_cast<std::int64_t>(N)) == brute_length_adjustment(K, al, beta, m, n, N));
      }
  // K m n <= max(m, n): no adjustment.
  CHECK(stats::length_adjustment(0.041, 1.9 / 0.267, -30, 2, 3, 1) == 0);
}

TEST_CASE("parameters come from BLAST's tables where BLAST publishes them", "[stats]") {
  const auto b62 = stats::search_parameters(test::protein_scheme("BLOSUM62", 11, 1), false);
  CHECK(b62.gapped);
  CHECK(b62.lambda == 0.267);
  CHECK(b62.K == 0.041);
  CHECK(b62.alpha == 1.9);
  CHECK(b62.beta == -30);
  REQUIRE(b62.spouge);
  // Blast_GumbelBlkLoadFromTables: b = 2G(a_un - a), G = open + extend.
  CHECK(b62.spouge->b == Approx(2 * 12 * (0.7916 - 1.9)));
  CHECK(b62.spouge->tau == Approx(2 * 12 * (4.964660 - 43.636200)));

  const auto dna = stats::search_parameters(test::dna_scheme(2, -3, 5, 2), true);
  CHECK(dna.gapped);
  CHECK(dna.round_down);
  CHECK_FALSE(dna.spouge);
  CHECK(dna.lambda == 0.625);
  CHECK(dna.K == 0.41);
  // The gcd rule: 4/-6 is 2/-3 scaled by 2; gaps 10/4 are the row 5/2.
  const auto scaled = stats::search_parameters(test::dna_scheme(4, -6, 10, 4), true);
  CHECK(scaled.gapped);
  CHECK(scaled.lambda == Approx(0.625 / 2));
  CHECK(scaled.alpha == Approx(0.8 / 2));
  // BLAST's linear row (0, 0) is open 0, extend reward/2 - penalty: 2/-7 -> 0/8.
  const auto linear = stats::search_parameters(test::dna_scheme(2, -7, 0, 8), true);
  CHECK(linear.gapped);
  CHECK(linear.lambda == 0.69);
  CHECK(linear.beta == 0);
  CHECK_FALSE(stats::search_parameters(test::dna_scheme(2, -7, 0, 7), true).gapped);
}

TEST_CASE("without a published row the ungapped parameters are computed", "[stats]") {
  const auto odd_gaps = stats::search_parameters(test::protein_scheme("BLOSUM62", 5, 5), false);
  CHECK_FALSE(odd_gaps.gapped);
  CHECK(odd_gaps.lambda == Approx(0.3176).margin(0.00005));
  CHECK(odd_gaps.alpha == 0.7916);  // BLAST_GetAlphaBeta: the matrix's ungapped row
  // This project's BLOSUM80 is in 1/3 bits, BLAST's in 1/2 bits: BLAST's
  // rows do not apply to it.
  const auto b80 = stats::search_parameters(test::protein_scheme("BLOSUM80", 10, 1), false);
  CHECK_FALSE(b80.gapped);
  CHECK(b80.lambda == Approx(std::log(2.0) / 3).epsilon(0.05));
  const auto dna = stats::search_parameters(test::dna_scheme(1, -3, 7, 7), true);
  CHECK_FALSE(dna.gapped);
  CHECK(dna.alpha == Approx(dna.lambda / dna.H));
  CHECK(dna.beta == 0);
  CHECK(stats::search_parameters(test::dna_scheme(2, -3, 9, 9), true).beta == -2);  // s_GetUngappedBeta
  // No positive score: no statistics.
  CHECK_THROWS_AS(stats::search_parameters(test::dna_scheme(-1, -3, 5, 2), true), InputError);
}

TEST_CASE("bit scores and E-values by the formulas, and as blastn and blastp printed them", "[stats]") {
  // blastn: 2/-3, gaps 5/2; 900 letters in 2 sequences; a 270-letter query.
  const stats::SearchStatistics n(stats::search_parameters(test::dna_scheme(2, -3, 5, 2), true), {900, 2});
  CHECK(n.search_space(270) == 226008.0);
  CHECK(n.bit_score(383) == Approx((0.625 * 383 - std::log(0.41)) / std::log(2.0)));
  // The score is rounded down to even for the E-value (blastn printed 1.90e-99).
  CHECK(n.evalue(383, 270, 600) == Approx(226008 * 0.41 * std::exp(-0.625 * 382)));
  CHECK(io::format_evalue(n.evalue(383, 270, 600)) == "1.90e-99");
  CHECK(io::format_bit_score(n.bit_score(383)) == "346");

  // blastp: BLOSUM62 11/1; HBA_HUMAN (142) against HBB_HUMAN (147), score
  // 285: blastp 2.12 -comp_based_stats 0 printed 2.54e-38 and 114.
  const stats::SearchStatistics p(stats::search_parameters(test::protein_scheme("BLOSUM62", 11, 1), false), {147, 1});
  CHECK(p.bit_score(285) == Approx((0.267 * 285 - std::log(0.041)) / std::log(2.0)));
  CHECK(io::format_evalue(p.evalue(285, 142, 147)) == "2.54e-38");
  CHECK(io::format_bit_score(p.bit_score(285)) == "114");
  // Spouge's E-value scales with the database over the target's length.
  const stats::SearchStatistics p10(stats::search_parameters(test::protein_scheme("BLOSUM62", 11, 1), false),
                                    {1470, 10});
  CHECK(p10.evalue(285, 142, 147) == Approx(10 * p.evalue(285, 142, 147)));

  // Ungapped parameters: Karlin-Altschul with the length adjustment.
  const stats::SearchStatistics u(stats::search_parameters(test::dna_scheme(1, -3, 7, 7), true), {100000, 10});
  const auto& up = u.parameters();
  const std::int64_t l = stats::length_adjustment(up.K, up.alpha / up.lambda, up.beta, 500, 100000, 10);
  CHECK(u.evalue(60, 500, 1000) == Approx(up.K * (500.0 - static_cast<double>(l)) * (100000.0 - 10 * static_cast<double>(l)) * std::exp(-up.lambda * 60)));
}

TEST_CASE("E-values and bit scores are printed as BLAST's tabular output prints them", "[stats]") {
  // Each pair as blastp/blastn 2.12 printed it in -outfmt 6.
  CHECK(io::format_evalue(1e-200) == "0.0");
  CHECK(io::format_evalue(1.157e-100) == "1.16e-100");
  CHECK(io::format_evalue(6.1349e-20) == "6.13e-20");
  CHECK(io::format_evalue(0.0271) == "0.027");
  CHECK(io::format_evalue(0.006) == "0.006");
  CHECK(io::format_evalue(0.33) == "0.33");
  CHECK(io::format_evalue(4.63) == "4.6");
  CHECK(io::format_evalue(10.2) == "10");
  CHECK(io::format_evalue(1510.3) == "1510");
  CHECK(io::format_bit_score(9.63) == " 9.6");
  CHECK(io::format_bit_score(24.31) == "24.3");
  CHECK(io::format_bit_score(134.736) == "134");  // the integer part, not rounded
  CHECK(io::format_bit_score(10641.2) == "10641");
}

TEST_CASE("EvalueCut keeps exactly the hits whose E-value is at most the cut-off", "[stats]") {
  // Karlin-Altschul (nucleotides, a least score a query length, with and
  // without BLAST's rounding down to even) and Spouge (protein, a pair at a
  // time), around each cut-off's score and far from it.
  const std::vector<stats::SearchStatistics> searches{
      {stats::search_parameters(test::dna_scheme(2, -3, 5, 2), true), {100000, 40}},
      {stats::search_parameters(test::dna_scheme(1, -3, 7, 7), true), {5000000, 1000}},
      {stats::search_parameters(test::dna_scheme(1, -2, 5, 2), true), {300, 3}},
      {stats::search_parameters(test::protein_scheme("BLOSUM62", 11, 1), false), {1430000, 4000}}};
  const std::vector<std::int64_t> query_lengths{1, 30, 150, 151, 1000, 30};
  for (const auto& search : searches)
    for (const double max_evalue : {1e-30, 1e-5, 0.5, 10.0, 1e6}) {
      const stats::EvalueCut cut(search, max_evalue, query_lengths);
      std::size_t kept = 0, dropped = 0;
      for (std::size_t q = 0; q < query_lengths.size(); ++q)
        for (const std::int64_t n : {1, 29, 300, 5000})
          for (int score = -5; score < 400; ++score) {
            INFO(search.parameters().source << ", E <= " << max_evalue << ", m " << query_lengths[q] << ", n " << n
                                            << ", score " << score);
            const bool want = search.evalue(score, query_lengths[q], n) <= max_evalue;
            REQUIRE(cut.keeps(q, score, n) == want);
            (want ? kept : dropped) += 1;
          }
      if (max_evalue == 10.0) {  // the cut-off falls within the scores tried
        CHECK(kept > 0);
        CHECK(dropped > 0);
      }
    }
}
