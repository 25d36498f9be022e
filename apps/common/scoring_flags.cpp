#include "common/scoring_flags.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/log.hpp"

namespace gdp::app {

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
