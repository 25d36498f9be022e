// Both strands of nucleotide queries through align_each_query: a query's
// two strands are one group of the batch (plus, then minus), so that
// --top keeps the best over both and aligns only those.
#include <stdexcept>
#include <vector>

#include "core/enum_names.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::pairwise {
namespace {
constexpr EnumNames<Strand, 3> strand_names{{{Strand::both, "both"}, {Strand::plus, "plus"}, {Strand::minus, "minus"}}};
}  // namespace

Strand parse_strand(std::string_view name) { return parse_enum(strand_names, name, "strand"); }
std::string_view to_string(Strand s) { return name_of(strand_names, s); }

void align_each_query_on_strands(const std::vector<Residues>& queries,
                                 const std::vector<Residues>& reverse_complements, Strand strand,
                                 const std::vector<Residues>& targets, const ScoringScheme& scheme,
                                 const Options& options, std::size_t top_k, const QueryHits& done,
                                 const HitFilter& keep) {
  if (strand == Strand::plus) {
    align_each_query(queries, targets, scheme, options, top_k, done, 1, keep);
    return;
  }
  if (reverse_complements.size() != queries.size())
    throw std::invalid_argument("align_each_query_on_strands: a reverse complement for each query is needed");
  std::vector<Hit> marked;  // one query's hits, with its index and strand
  if (strand == Strand::minus) {
    align_each_query(
        reverse_complements, targets, scheme, options, top_k,
        [&](std::span<const Hit> hits) {
          marked.assign(hits.begin(), hits.end());
          for (Hit& h : marked) h.reverse_strand = true;
          done(marked);
        },
        1, keep);
    return;
  }
  // Both: q0+, q0-, q1+, q1-, ... in groups of two.
  std::vector<Residues> strands;
  strands.reserve(2 * queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    strands.push_back(queries[q]);
    strands.push_back(reverse_complements[q]);
  }
  align_each_query(
      strands, targets, scheme, options, top_k,
      [&](std::span<const Hit> hits) {
        marked.assign(hits.begin(), hits.end());
        for (Hit& h : marked) {
          h.reverse_strand = h.query % 2 == 1;
          h.query /= 2;
        }
        done(marked);
      },
      2, keep ? HitFilter([&](std::size_t q, std::size_t t, int score) { return keep(q / 2, t, score); }) : HitFilter{});
}

}  // namespace gdp::pairwise
