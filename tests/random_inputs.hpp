#pragma once
// Random sequences and schemes for property tests (deterministic seeds).
#include <cstdint>
#include <random>
#include <vector>

#include "core/scoring.hpp"

namespace gdp::test {

inline std::vector<std::uint8_t> random_ranks(std::mt19937& rng, std::size_t n, int alphabet) {
  std::uniform_int_distribution<int> d(0, alphabet - 1);
  std::vector<std::uint8_t> s(n);
  for (auto& c : s) c = static_cast<std::uint8_t>(d(rng));
  return s;
}

// A copy of `s` with point mutations and indels, so alignments are long.
inline std::vector<std::uint8_t> mutate(std::mt19937& rng, const std::vector<std::uint8_t>& s, int alphabet,
                                        double rate = 0.15) {
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> d(0, alphabet - 1);
  std::vector<std::uint8_t> out;
  for (auto c : s) {
    const double r = u(rng);
    if (r < rate / 3) continue;
    if (r < 2 * rate / 3) out.push_back(static_cast<std::uint8_t>(d(rng)));
    if (r < rate) {
      out.push_back(static_cast<std::uint8_t>(d(rng)));
      continue;
    }
    out.push_back(c);
  }
  return out;
}

inline ScoringScheme dna_scheme(int match = 2, int mismatch = -3, int open = 5, int extend = 2) {
  ScoringScheme s = match_mismatch_scheme(match, mismatch);
  set_gap_costs(s, open, extend);
  return s;
}

inline ScoringScheme protein_scheme(const char* name = "BLOSUM62", int open = 11, int extend = 1) {
  ScoringScheme s = matrix_scheme(name);
  set_gap_costs(s, open, extend);
  return s;
}

}  // namespace gdp::test
