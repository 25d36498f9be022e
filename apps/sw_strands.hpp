#pragma once
// gpu-sw's --strand: which strands a query is searched on, and the
// queries' reverse complements (records and ranks) for the minus strand.
#include <cstdint>
#include <string>
#include <vector>

#include "core/alphabet.hpp"
#include "core/scoring.hpp"
#include "core/sequence.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::app {

// The strand asked for ("" when --strand was not given: both for
// nucleotides, plus for protein). InputError for minus or both on protein.
pairwise::Strand choose_strand(const std::string& asked, Alphabet alphabet);

// Each query's reverse complement: its record (same name, residues reverse
// complemented, qualities reversed) and its ranks in `scheme`. InputError
// naming the file and line of a letter whose complement the scheme lacks.
struct ReverseComplements {
  std::vector<SequenceRecord> records;
  std::vector<std::vector<std::uint8_t>> ranks;
};
ReverseComplements reverse_complements(const SequenceFile& queries, const ScoringScheme& scheme, Alphabet alphabet);

}  // namespace gdp::app
