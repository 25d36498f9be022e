#pragma once
// Karlin-Altschul parameters of ungapped local alignment, computed from a
// substitution matrix and letter frequencies (Karlin & Altschul, PNAS 87,
// 2264-2268, 1990): lambda is the positive root of
// sum_s p(s) e^(lambda s) = 1, H = lambda sum_s s p(s) e^(lambda s) (the
// relative entropy, nats per aligned pair), and K the series of the paper's
// appendix, summed as NCBI BLAST does (blast_stat.c, BlastKarlinLHtoK: at
// most 100 terms, stopping at the first below 1e-4, closed forms where the
// lowest score is -1 or the highest +1).
#include <optional>
#include <span>
#include <vector>

#include "core/scoring.hpp"

namespace gdp::stats {

// The probability of each score of one aligned pair of random letters.
struct ScoreProbabilities {
  int low = 0;            // the lowest score with a non-zero probability
  std::vector<double> p;  // p[s - low], summing to 1; the last is non-zero
  int high() const { return low + static_cast<int>(p.size()) - 1; }
  double at(int s) const { return s < low || s > high() ? 0.0 : p[static_cast<std::size_t>(s - low)]; }
  double mean() const;
};

// The score distribution of `scheme` when both letters are drawn from
// `frequencies` (by rank of the scheme; they need not sum to 1).
ScoreProbabilities score_probabilities(const ScoringScheme& scheme, std::span<const double> frequencies);

// BLAST's background letter frequencies by rank of `scheme`: for
// nucleotides A, C, G and T (U) uniform; for protein the 20 standard amino
// acids at Robinson & Robinson's frequencies (blast_stat.c, Robinson_prob).
// Other letters get 0. Empty if none of those letters is in the scheme.
std::vector<double> background_frequencies(const ScoringScheme& scheme, bool nucleotide);

struct KarlinAltschul {
  double lambda = 0, K = 0, H = 0;
};

// Lambda, K and H of the distribution; none when they do not exist (the
// mean score is not negative, or no score is positive).
std::optional<KarlinAltschul> ungapped_parameters(const ScoreProbabilities& scores);

}  // namespace gdp::stats
