#pragma once
// The scoring flags gpu-sw and gpu-syntenic share (--alphabet, --matrix,
// --match, --mismatch, --gap-open, --gap-extend), the scheme they make, and
// the inputs encoded in it. gpu-align3 takes the substitution flags only
// (its gaps are linear: one --gap of its own).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/alphabet.hpp"
#include "core/scoring.hpp"
#include "core/sequence_reader.hpp"

namespace gdp::app {

struct ScoringFlags {
  std::string alphabet = "auto";
  std::optional<int> match, mismatch, gap_open, gap_extend;
  std::string matrix;
};

// --alphabet, --matrix, --match and --mismatch.
void add_substitution_options(CLI::App& app, ScoringFlags& flags);
// Those, then --gap-open and --gap-extend.
void add_scoring_options(CLI::App& app, ScoringFlags& flags);

// The alphabet asked for, or the one every record of both inputs fits.
Alphabet choose_alphabet(const ScoringFlags& flags, const SequenceFile& a, const SequenceFile& b);
// The same over every record of `files`.
Alphabet choose_alphabet(const ScoringFlags& flags, const std::vector<const SequenceFile*>& files);

// Match/mismatch for nucleotides (default +2/-3), a matrix for protein
// (default BLOSUM62); gap costs 5/2 for nucleotides, 11/1 for protein.
// InputError for flags that do not go together.
ScoringScheme make_scheme(const ScoringFlags& flags, Alphabet alphabet);

// Each record in ranks of the scheme; `longest` gets the longest's length.
std::vector<std::vector<std::uint8_t>> encode_all(const SequenceFile& file, const ScoringScheme& scheme,
                                                   Alphabet alphabet, std::int64_t& longest);

}  // namespace gdp::app
