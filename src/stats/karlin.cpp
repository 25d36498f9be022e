#include "stats/karlin.hpp"

#include <cmath>
#include <numeric>
#include <string_view>

namespace gdp::stats {

double ScoreProbabilities::mean() const {
  double m = 0;
  for (std::size_t i = 0; i < p.size(); ++i) m += (low + static_cast<double>(i)) * p[i];
  return m;
}

ScoreProbabilities score_probabilities(const ScoringScheme& scheme, std::span<const double> frequencies) {
  int lo = 0, hi = 0;
  bool any = false;
  double total = 0;
  for (int a = 0; a < scheme.dim; ++a)
    for (int b = 0; b < scheme.dim; ++b) {
      const double w = frequencies[a] * frequencies[b];
      if (w <= 0) continue;
      const int s = scheme.score(static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b));
      lo = any ? std::min(lo, s) : s, hi = any ? std::max(hi, s) : s, any = true;
      total += w;
    }
  ScoreProbabilities d;
  if (!any) return d;
  d.low = lo;
  d.p.assign(static_cast<std::size_t>(hi - lo + 1), 0.0);
  for (int a = 0; a < scheme.dim; ++a)
    for (int b = 0; b < scheme.dim; ++b) {
      const double w = frequencies[a] * frequencies[b];
      if (w > 0) d.p[static_cast<std::size_t>(scheme.score(static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)) - lo)] += w / total;
    }
  return d;
}

std::vector<double> background_frequencies(const ScoringScheme& scheme, bool nucleotide) {
  // Robinson & Robinson, PNAS 88, 8880-8884 (1991), as in blast_stat.c.
  struct Letter {
    char c;
    double p;
  };
  static constexpr Letter robinson[] = {{'A', 78.05}, {'C', 19.25}, {'D', 53.64}, {'E', 62.95}, {'F', 38.56},
                                        {'G', 73.77}, {'H', 21.99}, {'I', 51.42}, {'K', 57.44}, {'L', 90.19},
                                        {'M', 22.43}, {'N', 44.87}, {'P', 52.03}, {'Q', 42.64}, {'R', 51.29},
                                        {'S', 71.20}, {'T', 58.41}, {'V', 64.41}, {'W', 13.30}, {'Y', 32.16}};
  static constexpr Letter bases[] = {{'A', 1}, {'C', 1}, {'G', 1}, {'T', 1}};
  std::vector<double> f(static_cast<std::size_t>(scheme.dim), 0.0);
  double sum = 0;
  const std::span<const Letter> letters = nucleotide ? std::span<const Letter>(bases) : std::span<const Letter>(robinson);
  for (const Letter& l : letters) {
    const int r = scheme.rank_of[static_cast<unsigned char>(l.c)];
    if (r < 0) continue;
    f[static_cast<std::size_t>(r)] = l.p;
    sum += l.p;
  }
  if (sum <= 0) return {};
  for (double& x : f) x /= sum;
  return f;
}

namespace {

// sum_s p(s) e^(lambda s) - 1.
double phi(const ScoreProbabilities& d, double lambda) {
  double sum = 0;
  for (std::size_t i = 0; i < d.p.size(); ++i)
    if (d.p[i] > 0) sum += d.p[i] * std::exp(lambda * (d.low + static_cast<double>(i)));
  return sum - 1;
}

// The positive root of phi: phi(0) = 0, phi'(0) = mean < 0 and phi is
// convex, so phi < 0 on (0, lambda) and > 0 beyond. Bisection to the
// precision of a double.
double solve_lambda(const ScoreProbabilities& d) {
  double lo = 0, hi = 0.5;
  while (phi(d, hi) <= 0) lo = hi, hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (phi(d, mid) > 0 ? hi : lo) = mid;
  }
  return (lo + hi) / 2;
}

double entropy(const ScoreProbabilities& d, double lambda) {
  double sum = 0;
  for (std::size_t i = 0; i < d.p.size(); ++i) {
    const double s = d.low + static_cast<double>(i);
    if (d.p[i] > 0) sum += s * d.p[i] * std::exp(lambda * s);
  }
  return lambda * sum;
}

// K from lambda and H (Karlin & Altschul's appendix; BlastKarlinLHtoK).
// Scores are first divided by delta, the gcd of those that occur, and
// lambda multiplied by it. Then
//   K = exp(-2 sigma) lambda / (H (1 - e^-lambda)),
//   sigma = sum_{j>=1} (1/j) [ sum_{i<0} P_j(i) e^(lambda i) + sum_{i>=0} P_j(i) ],
// P_j the distribution of the sum of j scores.
double solve_K(const ScoreProbabilities& d, double lambda, double H) {
  int delta = -d.low;
  for (std::size_t i = 1; i < d.p.size() && delta > 1; ++i)
    if (d.p[i] != 0) delta = std::gcd(delta, static_cast<int>(i));
  const int low = d.low / delta, high = d.high() / delta;
  std::vector<double> q(static_cast<std::size_t>(high - low + 1), 0.0);  // by reduced score
  for (int s = low; s <= high; ++s) q[static_cast<std::size_t>(s - low)] = d.at(s * delta);
  lambda *= delta;
  const double h_over_lambda = H / lambda;
  if (low == -1 && high == 1) {
    const double pm = q.front(), pp = q.back();
    return (pm - pp) * (pm - pp) / pm;
  }
  if (low == -1 || high == 1) {
    double first = h_over_lambda;
    if (high != 1) {
      const double mean = d.mean() / delta;
      first = mean * mean / h_over_lambda;
    }
    return first * (1 - std::exp(-lambda));
  }
  constexpr int max_terms = 100;
  constexpr double smallest_term = 1e-4;
  std::vector<double> sum_probabilities{1.0}, next;  // P_j, from score j*low
  double sigma = 0, term = 1;
  for (int j = 1; j <= max_terms && term > smallest_term; ++j) {
    next.assign(sum_probabilities.size() + q.size() - 1, 0.0);
    for (std::size_t a = 0; a < sum_probabilities.size(); ++a)
      if (sum_probabilities[a] != 0)
        for (std::size_t b = 0; b < q.size(); ++b) next[a + b] += sum_probabilities[a] * q[b];
    sum_probabilities.swap(next);
    double inner = 0;
    const int first_score = j * low;
    for (std::size_t k = 0; k < sum_probabilities.size(); ++k) {
      const int s = first_score + static_cast<int>(k);
      inner += s < 0 ? sum_probabilities[k] * std::exp(lambda * s) : sum_probabilities[k];
    }
    term = inner / j;
    sigma += term;
  }
  return -std::exp(-2 * sigma) / (h_over_lambda * std::expm1(-lambda));
}

}  // namespace

std::optional<KarlinAltschul> ungapped_parameters(const ScoreProbabilities& d) {
  if (d.p.empty() || d.high() <= 0 || d.low >= 0 || d.mean() >= 0) return std::nullopt;
  KarlinAltschul k;
  k.lambda = solve_lambda(d);
  k.H = entropy(d, k.lambda);
  k.K = solve_K(d, k.lambda, k.H);
  if (!(k.lambda > 0 && k.H > 0 && k.K > 0)) return std::nullopt;
  return k;
}

}  // namespace gdp::stats
