#include "stats/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "core/error.hpp"
#include "stats/blast_tables.hpp"
#include "stats/karlin.hpp"

namespace gdp::stats {
namespace {

// (match, mismatch) of a scheme made by match_mismatch_scheme.
bool reward_penalty(const ScoringScheme& s, int& reward, int& penalty) {
  if (std::string_view(s.name).substr(0, 6) != "match " || s.dim < 4) return false;
  reward = s.score(0, 0), penalty = s.score(0, 1);
  return true;
}

std::string gaps(const ScoringScheme& s) {
  return "gaps " + std::to_string(s.gap_open) + "/" + std::to_string(s.gap_extend);
}

}  // namespace

SearchParameters search_parameters(const ScoringScheme& scheme, bool nucleotide) {
  SearchParameters p;
  int reward = 0, penalty = 0;
  const bool rp = nucleotide && reward_penalty(scheme, reward, penalty);
  const auto found = nucleotide ? std::nullopt : protein_rows(scheme.name, scheme.gap_open, scheme.gap_extend);
  const bool protein = found.has_value();
  const ProteinRows rows = found.value_or(ProteinRows{});
  if (rp) {
    if (const auto row = nucleotide_row(reward, penalty, scheme.gap_open, scheme.gap_extend)) {
      p.lambda = row->row.lambda, p.K = row->row.K, p.H = row->row.H;
      p.alpha = row->row.alpha, p.beta = row->row.beta;
      p.gapped = true, p.round_down = row->round_down;
      p.source = "BLAST's table for match " + std::to_string(reward) + ", mismatch " +
                 std::to_string(penalty) + ", " + gaps(scheme);
      return p;
    }
  }
  const std::vector<double> freq = background_frequencies(scheme, nucleotide);
  const auto k = freq.empty() ? std::nullopt : ungapped_parameters(score_probabilities(scheme, freq));
  // A built-in matrix whose scale is not BLAST's (this project's BLOSUM80 is
  // in 1/3 bits, BLAST's in 1/2 bits) cannot use BLAST's rows: its ungapped
  // lambda must be the published one.
  const bool same_matrix = protein && k && std::abs(k->lambda - rows.ungapped.lambda) < 0.01 * rows.ungapped.lambda;
  if (rows.gapped && same_matrix) {
    const TableRow& g = *rows.gapped;
    const TableRow& u = rows.ungapped;
    p.lambda = g.lambda, p.K = g.K, p.H = g.H, p.alpha = g.alpha, p.beta = g.beta;
    p.gapped = true;
    // Blast_GumbelBlkLoadFromTables.
    const double G = g.open + g.extend;
    p.spouge = Spouge{g.alpha, 2 * G * (u.alpha - g.alpha), g.alpha_v, 2 * G * (u.alpha_v - g.alpha_v),
                      g.sigma, 2 * G * (u.alpha_v - g.sigma)};
    p.source = "BLAST's table for " + scheme.name + ", " + gaps(scheme);
    return p;
  }
  if (!k)
    throw InputError("E-values need a scoring system with a positive score and a negative mean score on random " +
                     std::string(nucleotide ? "DNA" : "protein") + "; " + scheme.name + " has none");
  p.lambda = k->lambda, p.K = k->K, p.H = k->H;
  if (same_matrix) {
    p.alpha = rows.ungapped.alpha, p.beta = rows.ungapped.beta;
  } else {
    p.alpha = k->lambda / k->H;
    p.beta = rp ? ungapped_nucleotide_beta(reward, penalty) : 0;
  }
  p.source = "ungapped parameters computed for " + scheme.name + ", " + gaps(scheme) + " (BLAST publishes none" +
             (protein && !same_matrix ? " for this scale of " + scheme.name : "") + ")";
  return p;
}

std::int64_t length_adjustment(double K, double alpha_over_lambda, double beta, std::int64_t query_length,
                               std::int64_t db_residues, std::int64_t db_sequences) {
  const double m = static_cast<double>(query_length), n = static_cast<double>(db_residues),
               N = static_cast<double>(db_sequences), logK = std::log(K);
  // The largest l with K (m - l)(n - N l) > max(m, n): the quadratic's root.
  const double a = N, mb = m * N + n, c = n * m - std::max(m, n) / K;
  if (c < 0) return 0;
  double ell_max = 2 * c / (mb + std::sqrt(mb * mb - 4 * a * c)), ell_min = 0, ell_next = 0;
  bool converged = false;
  const auto f = [&](double ell) { return alpha_over_lambda * (logK + std::log((m - ell) * (n - N * ell))) + beta; };
  for (int i = 1; i <= 20; ++i) {
    const double ell = ell_next, ell_bar = f(ell);
    if (ell_bar >= ell) {
      ell_min = ell;
      if (ell_bar - ell_min <= 1.0) {
        converged = true;
        break;
      }
      if (ell_min == ell_max) break;
    } else {
      ell_max = ell;
    }
    ell_next = ell_min <= ell_bar && ell_bar <= ell_max ? ell_bar : i == 1 ? ell_max : (ell_min + ell_max) / 2;
  }
  auto l = static_cast<std::int64_t>(ell_min);
  if (converged) {
    const double up = std::ceil(ell_min);
    if (up <= ell_max && f(up) >= up) l = static_cast<std::int64_t>(up);
  }
  return l;
}

double spouge_pair_evalue(const SearchParameters& p, int score, std::int64_t m, std::int64_t n) {
  const Spouge& g = *p.spouge;
  const double y = score, lambda = p.lambda;
  constexpr double inv_sqrt_2pi = 0.39894228040143267793994605993438;
  // One side's expected effective length: E[max(0, L)] for L normal with
  // this mean and variance (P is the normal CDF at mean / sd; with it, the
  // values equal blastp 2.12's to its three printed digits).
  const auto side = [&](double length, double& P) {
    const double mean = length - (g.a * y + g.b);
    const double var = std::max(2.0 * g.alpha / lambda, g.alpha * y + g.beta);
    const double sd = std::sqrt(var), F = mean / sd;
    P = 0.5 * std::erfc(-F / std::sqrt(2.0));
    return mean * P + sd * inv_sqrt_2pi * std::exp(-0.5 * F * F);
  };
  double Pm = 0, Pn = 0;
  const double p1 = side(static_cast<double>(m), Pm), p2 = side(static_cast<double>(n), Pn);
  const double c = std::max(2.0 * g.sigma / lambda, g.sigma * y + g.tau);
  return (p1 * p2 + c * Pm * Pn) * p.K * std::exp(-lambda * y);
}

SearchStatistics::SearchStatistics(SearchParameters parameters, Database database)
    : p_(std::move(parameters)), db_(database) {}

double SearchStatistics::bit_score(int score) const { return (p_.lambda * score - std::log(p_.K)) / std::log(2.0); }

double SearchStatistics::search_space(std::int64_t query_length) const {
  const std::int64_t l = length_adjustment(p_.K, p_.alpha / p_.lambda, p_.beta, query_length, db_.residues, db_.sequences);
  const std::int64_t db = std::max<std::int64_t>(db_.residues - db_.sequences * l, 1);
  return static_cast<double>(db) * static_cast<double>(query_length - l);
}

double SearchStatistics::evalue(int score, std::int64_t query_length, std::int64_t target_length) const {
  const int s = p_.round_down ? score & ~1 : score;
  if (p_.spouge)
    return spouge_pair_evalue(p_, s, query_length, target_length) * static_cast<double>(db_.residues) /
           static_cast<double>(std::max<std::int64_t>(target_length, 1));
  return search_space(query_length) * p_.K * std::exp(-p_.lambda * s);
}

EvalueCut::EvalueCut(const SearchStatistics& statistics, double max_evalue,
                     const std::vector<std::int64_t>& query_lengths)
    : statistics_(&statistics), max_evalue_(max_evalue), query_lengths_(query_lengths) {
  if (statistics.parameters().spouge) return;
  // The E-value falls as the score rises (also in floating point: a
  // product of positive factors, rounded, with exp falling), so each query
  // length's least kept score is found by bisection over the scores an int
  // holds; one past them where none is kept.
  std::map<std::int64_t, long long> least_by_length;
  least_score_.reserve(query_lengths.size());
  for (const std::int64_t m : query_lengths) {
    auto [it, added] = least_by_length.try_emplace(m, 0);
    if (added) {
      const auto kept = [&](long long s) { return statistics.evalue(static_cast<int>(s), m, 1) <= max_evalue; };
      long long low = std::numeric_limits<int>::min(), high = std::numeric_limits<int>::max() + 1LL;
      while (low < high) {  // the least kept score lies in [low, high]
        const long long mid = low + (high - low) / 2;
        if (kept(mid))
          high = mid;
        else
          low = mid + 1;
      }
      it->second = high;
    }
    least_score_.push_back(it->second);
  }
}

bool EvalueCut::keeps(std::size_t query, int score, std::int64_t target_length) const {
  if (least_score_.empty()) return statistics_->evalue(score, query_lengths_[query], target_length) <= max_evalue_;
  return score >= least_score_[query];
}

}  // namespace gdp::stats
