#pragma once
// Scoring schemes: a substitution matrix over small integer ranks plus affine
// gap costs. A gap of length k costs open + k * extend (the convention of
// BLAST and of the source texts; EMBOSS and parasail charge open + (k-1) *
// extend, so their open O is our open O - extend).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/alphabet.hpp"
#include "core/sequence.hpp"

namespace gdp {

// Bounds that keep every score, and -infinity minus a gap, inside int32.
inline constexpr int max_gap_cost = 1000;
inline constexpr int max_substitution_score = 1000;

struct ScoringScheme {
  std::string name;         // "BLOSUM62", "match 2, mismatch -3", or a file
  std::string letters;      // the matrix's letters; rank = position
  std::array<std::int8_t, 256> rank_of{};  // upper-case letter -> rank, -1 if absent
  std::vector<int> scores;  // dim x dim, row-major
  int dim = 0;
  int gap_open = 0;
  int gap_extend = 0;

  int score(std::uint8_t a, std::uint8_t b) const { return scores[a * dim + b]; }
  const int* row(std::uint8_t a) const { return scores.data() + a * dim; }
  int max_abs_score() const;
  // Cost of a gap of length k (k > 0).
  long long gap_cost(long long k) const { return gap_open + k * gap_extend; }
};

// Nucleotides scored match/mismatch. A, C, G and T (U is T) score `match`
// against themselves; every other pair, IUPAC ambiguity codes included,
// scores `mismatch`.
ScoringScheme match_mismatch_scheme(int match, int mismatch);

// A built-in matrix by name (case-insensitive), or else an NCBI-format matrix
// file. Throws InputError naming the file and line of what is wrong.
ScoringScheme matrix_scheme(const std::string& name_or_file);

// Parses NCBI matrix text: '#' comments, a row of column letters, then one
// row per letter with an integer per column. `source` names it in errors.
ScoringScheme parse_ncbi_matrix(std::string_view text, const std::string& source);

// Built-in matrices (BLOSUM45/50/62/80/90, PAM30/70/250, EDNAFULL).
std::vector<std::string> builtin_matrix_names();

// Sets and checks the gap costs (0..max_gap_cost each). Throws InputError.
void set_gap_costs(ScoringScheme& scheme, int open, int extend);

// Encodes one record's residues into ranks of `scheme`. Every letter must
// be in the matrix and, for a nucleotide alphabet, be a nucleotide code;
// otherwise InputError names the file, line and letter.
std::vector<std::uint8_t> encode(const SequenceFile& file, std::size_t record,
                                 const ScoringScheme& scheme, Alphabet alphabet);

}  // namespace gdp
