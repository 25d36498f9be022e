#include "core/alphabet.hpp"

#include <array>

#include "core/error.hpp"

namespace gdp {

Alphabet parse_alphabet(std::string_view name) {
  if (name == "auto") return Alphabet::automatic;
  if (name == "dna") return Alphabet::dna;
  if (name == "rna") return Alphabet::rna;
  if (name == "protein") return Alphabet::protein;
  throw InputError("unknown alphabet '" + std::string(name) + "' (use auto, dna, rna or protein)");
}

std::string_view to_string(Alphabet a) {
  switch (a) {
    case Alphabet::automatic: return "auto";
    case Alphabet::dna: return "dna";
    case Alphabet::rna: return "rna";
    case Alphabet::protein: return "protein";
  }
  return "?";
}

Alphabet detect_alphabet(const std::vector<const std::string*>& residues) {
  std::array<std::size_t, 256> count{};
  std::size_t total = 0;
  for (const std::string* s : residues) {
    for (unsigned char c : *s) ++count[c];
    total += s->size();
  }
  std::size_t nucleotide = 0;
  for (char c : nucleotide_letters) nucleotide += count[static_cast<unsigned char>(c)];
  if (nucleotide != total) return Alphabet::protein;
  const std::size_t plain = count['A'] + count['C'] + count['G'] + count['T'] + count['U'] + count['N'];
  if (plain * 10 < total * 9) return Alphabet::protein;
  return (count['U'] > 0 && count['T'] == 0) ? Alphabet::rna : Alphabet::dna;
}

}  // namespace gdp
