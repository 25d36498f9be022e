#pragma once
// An alignment as people read it, after EMBOSS's pair format: blocks of 60
// columns, each a query line, a markup line ('|' identical, ':' positive
// score, '.' other, ' ' gap) and a target line, each sequence line between
// the 1-based positions of its first and last letters (a line without
// letters: the position before it, twice), then a blank line;
// in EMBOSS's columns (the letters from column 22), so that Biopython's
// "emboss" reader takes it.
// Shared by gpu-sw's pair format and gpu-syntenic's listing.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "core/scoring.hpp"
#include "core/sequence.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::io {

// Columns a line in every blocked alignment output: the pair format, the
// listing, aligned FASTA and Clustal.
inline constexpr std::size_t block_width = 60;

// The columns of `cigar`, starting at 0-based letters query_begin and
// target_begin of the two records (ranks: the records encoded by `scheme`).
struct AlignedColumns {
  const SequenceRecord& query;
  const SequenceRecord& target;
  std::span<const std::uint8_t> query_ranks, target_ranks;
  std::int64_t query_begin = 0, target_begin = 0;
  const pairwise::Cigar& cigar;
};

void write_alignment_blocks(std::ostream& out, const AlignedColumns& columns, const ScoringScheme& scheme);

// "part/whole (p.p%)", as the statistics lines around the blocks write a
// count of columns (0.0% when whole is 0).
std::string fraction_text(std::int64_t part, std::int64_t whole);

}  // namespace gdp::io
