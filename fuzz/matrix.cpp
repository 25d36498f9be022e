// Fuzz target: the NCBI scoring-matrix parser (core/scoring.hpp,
// parse_ncbi_matrix) on any text. An InputError is the answer to bad input;
// anything else is a bug. Run by scripts/fuzz.sh; ctest replays
// fuzz/corpus/matrix through corpus_main.cpp.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/scoring.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const gdp::ScoringScheme scheme = gdp::parse_ncbi_matrix(text, "fuzz.mat");
    if (scheme.dim != static_cast<int>(scheme.letters.size()) ||
        scheme.scores.size() != static_cast<std::size_t>(scheme.dim * scheme.dim))
      throw std::logic_error("a matrix whose letters and scores disagree");
    for (const char c : scheme.letters) {
      const int rank = scheme.rank_of[static_cast<unsigned char>(c)];
      if (rank < 0 || rank >= scheme.dim) throw std::logic_error("a letter of the matrix without a rank");
      scheme.max_abs_score();
    }
  } catch (const gdp::InputError&) {
  }
  return 0;
}
