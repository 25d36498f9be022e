#include "common/scoring_flags.hpp"

#include <algorithm>
#include <string_view>

#include "core/error.hpp"
#include "core/log.hpp"

namespace gdp::app {

namespace {

bool is_nucleotide_letter(char c) { return nucleotide_letters.find(c) != std::string_view::npos; }

// Detection chose protein scoring for input that holds nucleotide records:
// most likely a stray letter in DNA. One warning naming the letter that
// decided it (or the ambiguity codes), and the flag that settles it.
void warn_protein_among_nucleotides(const std::vector<const SequenceFile*>& files) {
  bool nucleotide_record = false;
  for (const SequenceFile* f : files)
    for (const auto& r : f->records)
      nucleotide_record |= !r.residues.empty() && std::all_of(r.residues.begin(), r.residues.end(), is_nucleotide_letter);
  if (!nucleotide_record) return;
  for (const SequenceFile* f : files)
    for (std::size_t i = 0; i < f->records.size(); ++i) {
      const std::string& s = f->records[i].residues;
      const auto letter = std::find_if_not(s.begin(), s.end(), is_nucleotide_letter);
      if (letter == s.end()) continue;
      spdlog::warn("{}:{}: letter '{}' in record '{}' is not a nucleotide, so every pair is scored as protein; "
                   "--alphabet dna refuses it, --alphabet protein keeps protein scoring without this warning",
                   f->display_name(), f->line_of(i, static_cast<std::size_t>(letter - s.begin())), *letter,
                   f->records[i].id);
      return;
    }
  spdlog::warn("over a tenth of the letters are ambiguity codes (not A, C, G, T, U or N), so every pair is scored as "
               "protein; --alphabet dna scores them as nucleotides");
}

}  // namespace

void add_substitution_options(CLI::App& app, ScoringFlags& f) {
  app.add_option("--alphabet", f.alphabet, "auto | dna | rna | protein")->capture_default_str();
  app.add_option("--matrix", f.matrix, "Substitution matrix: BLOSUM45/50/62/80/90, PAM30/70/250, EDNAFULL, or an NCBI-format file");
  app.add_option("--match", f.match, "Nucleotide match score (default 2)");
  app.add_option("--mismatch", f.mismatch, "Nucleotide mismatch score (default -3)");
}

void add_scoring_options(CLI::App& app, ScoringFlags& f) {
  add_substitution_options(app, f);
  app.add_option("--gap-open", f.gap_open, "Gap open cost (default 5 DNA, 11 protein)");
  app.add_option("--gap-extend", f.gap_extend, "Gap extend cost per letter (default 2 DNA, 1 protein)");
}

Alphabet choose_alphabet(const ScoringFlags& flags, const SequenceFile& a, const SequenceFile& b) {
  return choose_alphabet(flags, std::vector<const SequenceFile*>{&a, &b});
}

Alphabet choose_alphabet(const ScoringFlags& flags, const std::vector<const SequenceFile*>& files) {
  const Alphabet asked = parse_alphabet(flags.alphabet);
  if (asked != Alphabet::automatic) return asked;
  std::vector<const std::string*> all;
  for (const SequenceFile* f : files)
    for (const auto& r : f->records) all.push_back(&r.residues);
  const Alphabet found = detect_alphabet(all);
  spdlog::debug("alphabet: {}", to_string(found));
  if (found == Alphabet::protein) warn_protein_among_nucleotides(files);
  return found;
}

ScoringScheme make_scheme(const ScoringFlags& f, Alphabet alphabet) {
  const bool nucleotide = is_nucleotide(alphabet);
  if (!nucleotide && (f.match || f.mismatch))
    throw InputError("--match/--mismatch score nucleotides; for protein use --matrix (default BLOSUM62)");
  if (!f.matrix.empty() && (f.match || f.mismatch))
    throw InputError("--matrix and --match/--mismatch cannot be used together");
  ScoringScheme s = !f.matrix.empty() ? matrix_scheme(f.matrix)
                    : nucleotide      ? match_mismatch_scheme(f.match.value_or(2), f.mismatch.value_or(-3))
                                      : matrix_scheme("BLOSUM62");
  set_gap_costs(s, f.gap_open.value_or(nucleotide ? 5 : 11), f.gap_extend.value_or(nucleotide ? 2 : 1));
  return s;
}

std::vector<std::vector<std::uint8_t>> encode_all(const SequenceFile& file, const ScoringScheme& scheme,
                                                   Alphabet alphabet, std::int64_t& longest) {
  std::vector<std::vector<std::uint8_t>> ranks;
  for (std::size_t i = 0; i < file.records.size(); ++i) {
    ranks.push_back(encode(file, i, scheme, alphabet));
    longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(ranks.back().size()));
  }
  return ranks;
}

}  // namespace gdp::app
