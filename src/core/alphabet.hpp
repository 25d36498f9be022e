#pragma once
// Residue alphabets. Residues are kept as upper-case letters as read; the
// scoring scheme maps them to small integer ranks for the engines.
#include <string>
#include <string_view>
#include <vector>

namespace gdp {

enum class Alphabet { automatic, dna, rna, protein };

// "auto", "dna", "rna", "protein"; throws InputError otherwise.
Alphabet parse_alphabet(std::string_view name);
std::string_view to_string(Alphabet a);
inline bool is_nucleotide(Alphabet a) { return a == Alphabet::dna || a == Alphabet::rna; }

// IUPAC nucleotide codes, T and U both included.
inline constexpr std::string_view nucleotide_letters = "ACGTURYSWKMBDHVN";

// The complement of an upper-case IUPAC nucleotide code: A-T (A-U for
// rna; T and U both pair with A), C-G, R-Y, K-M, B-V, D-H, and S, W and N
// their own. '\0' for any other letter.
char complement(char base, Alphabet a);
// The letters reversed and complemented (each a nucleotide code).
std::string reverse_complement(std::string_view residues, Alphabet a);

// Decides the alphabet of upper-case residues: nucleotides when every letter
// is an IUPAC nucleotide code and at least 90% are A, C, G, T, U or N (rna if
// any U and no T), protein otherwise.
Alphabet detect_alphabet(const std::vector<const std::string*>& residues);

}  // namespace gdp
