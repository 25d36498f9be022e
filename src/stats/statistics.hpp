#pragma once
// E-values and bit scores of local alignments in a database search, as NCBI
// BLAST computes them.
//
// Parameters: BLAST's published table row for the scoring system
// (blast_tables.hpp) where there is one; otherwise lambda, K and H of
// ungapped alignment computed from the matrix and BLAST's background
// frequencies (karlin.hpp), with BLAST's ungapped length-adjustment
// parameters (BLAST_GetAlphaBeta, Blast_GetNuclAlphaBeta): the matrix's
// published ungapped alpha and beta for a built-in protein matrix, else
// alpha = lambda / H and beta = 0 (-2 for nucleotide scores 1/-1 and 2/-3).
//
// Bit score: (lambda S - ln K) / ln 2.
// E-value, nucleotides and ungapped parameters (BLAST_KarlinStoE_simple):
//   K m' n' e^(-lambda S), m' = m - l, n' = n - N l (at least 1), with l the
//   length adjustment (BLAST_ComputeLengthAdjustment), m the query's length,
//   n the database's residues and N its sequences.
// E-value, protein table rows: BLAST+ (since 2.2.26) uses Spouge's
//   finite-size correction (BLAST_SpougeStoE) instead, per target sequence,
//   scaled by n / (target length); so does this.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/scoring.hpp"

namespace gdp::stats {

// Spouge's finite-size correction, as BLAST's Gumbel block (Blast_GumbelBlk).
struct Spouge {
  double a = 0, b = 0, alpha = 0, beta = 0, sigma = 0, tau = 0;
};

struct SearchParameters {
  double lambda = 0, K = 0, H = 0;
  double alpha = 0, beta = 0;
  bool gapped = false;       // from BLAST's table; false: computed, ungapped
  bool round_down = false;   // E-values from the score rounded down to even (BLAST, some nucleotide scores)
  std::optional<Spouge> spouge;
  std::string source;        // where they come from, for messages: "BLAST's table for BLOSUM62, gaps 11/1"
};

// The parameters for `scheme` (nucleotide: match/mismatch tables apply to
// schemes made by match_mismatch_scheme). Throws InputError when the
// scoring system has none (no positive score, or a mean score that is not
// negative under the background frequencies).
SearchParameters search_parameters(const ScoringScheme& scheme, bool nucleotide);

// BLAST_ComputeLengthAdjustment: the largest integer l below the fixed
// point of l = beta + (alpha / lambda) (ln K + ln((m - l)(n - N l))), found
// by BLAST's iteration (at most 20 steps); 0 where K (m)(n) <= max(m, n).
std::int64_t length_adjustment(double K, double alpha_over_lambda, double beta, std::int64_t query_length,
                               std::int64_t db_residues, std::int64_t db_sequences);

struct Database {
  std::int64_t residues = 0, sequences = 0;
};

// BLAST_SpougeStoE for one pair (query length m, target length n), without
// the scaling to the database.
double spouge_pair_evalue(const SearchParameters& p, int score, std::int64_t m, std::int64_t n);

// E-values and bit scores of one search: parameters and database.
class SearchStatistics {
 public:
  SearchStatistics(SearchParameters parameters, Database database);
  const SearchParameters& parameters() const { return p_; }
  const Database& database() const { return db_; }
  double bit_score(int score) const;
  double evalue(int score, std::int64_t query_length, std::int64_t target_length) const;
  // m' n' for a query of this length (Karlin-Altschul E-values).
  double search_space(std::int64_t query_length) const;

 private:
  SearchParameters p_;
  Database db_;
};

// Whether a search's hits have an E-value of at most `max_evalue`, for
// many pairs: exactly SearchStatistics::evalue(...) <= max_evalue, but where
// the E-value depends on the query alone (Karlin-Altschul), each query's
// least such score is found once, and a pair costs one comparison.
class EvalueCut {
 public:
  EvalueCut(const SearchStatistics& statistics, double max_evalue, const std::vector<std::int64_t>& query_lengths);
  bool keeps(std::size_t query, int score, std::int64_t target_length) const;

 private:
  const SearchStatistics* statistics_;
  double max_evalue_;
  std::vector<std::int64_t> query_lengths_;
  std::vector<long long> least_score_;  // by query; empty with Spouge's correction
};

}  // namespace gdp::stats
