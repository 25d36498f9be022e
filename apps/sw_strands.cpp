#include "sw_strands.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gdp::app {

pairwise::Strand choose_strand(const std::string& asked, Alphabet alphabet) {
  if (asked.empty()) return is_nucleotide(alphabet) ? pairwise::Strand::both : pairwise::Strand::plus;
  const pairwise::Strand strand = pairwise::parse_strand(asked);
  if (strand != pairwise::Strand::plus && !is_nucleotide(alphabet))
    throw InputError("--strand " + asked + " needs nucleotides, and the inputs are scored as protein (use --strand plus)");
  return strand;
}

ReverseComplements reverse_complements(const SequenceFile& queries, const ScoringScheme& scheme, Alphabet alphabet) {
  ReverseComplements rc;
  rc.records.reserve(queries.records.size());
  rc.ranks.reserve(queries.records.size());
  for (std::size_t k = 0; k < queries.records.size(); ++k) {
    const SequenceRecord& q = queries.records[k];
    SequenceRecord r{q.id, q.description, reverse_complement(q.residues, alphabet), q.line, {}, q.quality};
    std::reverse(r.quality.begin(), r.quality.end());
    std::vector<std::uint8_t> ranks(r.residues.size());
    const std::size_t n = r.residues.size();
    for (std::size_t i = 0; i < n; ++i) {
      const char c = r.residues[i];
      const int rank = c ? scheme.rank_of[static_cast<unsigned char>(c)] : -1;
      if (rank < 0) {
        const char letter = q.residues[n - 1 - i];
        throw InputError(queries.display_name(), queries.line_of(k, n - 1 - i),
                         "letter '" + std::string(1, letter) + "' in record '" + q.id + "' has " +
                             (c ? "the complement '" + std::string(1, c) + "', which is not in " + scheme.name
                                : std::string("no complement")) +
                             ": its minus strand cannot be scored (use --strand plus)");
      }
      ranks[i] = static_cast<std::uint8_t>(rank);
    }
    rc.records.push_back(std::move(r));
    rc.ranks.push_back(std::move(ranks));
  }
  return rc;
}

}  // namespace gdp::app
