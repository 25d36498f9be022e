#pragma once
// Reproducible random sequences and mutated copies for the end-to-end
// tests against other programs.
#include <cstdint>
#include <string>

namespace gdp::test {

// Deterministic pseudo-random letters.
struct Letters {
  std::uint64_t state;
  char next(const std::string& alphabet) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return alphabet[(state >> 33) % alphabet.size()];
  }
  std::string random(const std::string& alphabet, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += next(alphabet);
    return s;
  }
  // A copy with about one substitution in `every` letters and a few indels.
  std::string mutate(const std::string& s, const std::string& alphabet, int every) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const int roll = static_cast<int>((state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (every * 20);
      if (roll == 0) continue;                              // deletion
      if (roll == 1) out += next(alphabet);                 // insertion
      out += roll < 20 ? next(alphabet) : s[i];             // substitution
    }
    return out;
  }
};

}  // namespace gdp::test
