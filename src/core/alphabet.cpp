#include "core/alphabet.hpp"

#include <array>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace gdp {

namespace {
constexpr EnumNames<Alphabet, 4> alphabet_names{
    {{Alphabet::automatic, "auto"}, {Alphabet::dna, "dna"}, {Alphabet::rna, "rna"}, {Alphabet::protein, "protein"}}};
}  // namespace

Alphabet parse_alphabet(std::string_view name) { return parse_enum(alphabet_names, name, "alphabet"); }
std::string_view to_string(Alphabet a) { return name_of(alphabet_names, a); }

char complement(char base, Alphabet a) {
  switch (base) {
    case 'A': return a == Alphabet::rna ? 'U' : 'T';
    case 'T': case 'U': return 'A';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'R': return 'Y';
    case 'Y': return 'R';
    case 'K': return 'M';
    case 'M': return 'K';
    case 'B': return 'V';
    case 'V': return 'B';
    case 'D': return 'H';
    case 'H': return 'D';
    case 'S': case 'W': case 'N': return base;
    default: return '\0';
  }
}

std::string reverse_complement(std::string_view residues, Alphabet a) {
  std::string rc(residues.rbegin(), residues.rend());
  for (char& c : rc) c = complement(c, a);
  return rc;
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
