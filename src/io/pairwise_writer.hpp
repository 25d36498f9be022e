#pragma once
// Writers of gpu-sw results: pair (EMBOSS-like), SAM, TSV, JSON lines, PAF,
// BLAST tabular (-outfmt 6).
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/scoring.hpp"
#include "core/sequence.hpp"
#include "pairwise/pairwise.hpp"
#include "stats/statistics.hpp"

namespace gdp::io {

enum class PairFormat { pair, sam, tsv, json, paf, blast6 };
PairFormat parse_pair_format(std::string_view name);  // throws InputError
// SAM and PAF: not with --score-only.
bool needs_alignment(PairFormat format);

struct PairRun {
  std::string tool, command_line;
  pairwise::Mode mode = pairwise::Mode::local;
  bool score_only = false;
  const ScoringScheme* scheme = nullptr;
  std::vector<const SequenceRecord*> targets;  // for the SAM header
  pairwise::Strand strand = pairwise::Strand::plus;  // the query strands searched
  const stats::SearchStatistics* statistics = nullptr;  // E-values and bit scores (blast6)
};

struct PairResult {
  const SequenceRecord* query = nullptr;
  const SequenceRecord* target = nullptr;
  std::span<const std::uint8_t> query_ranks, target_ranks;
  pairwise::Alignment alignment;
  bool secondary = false;  // not the query's best result (SAM flag 256; SAM
                           // writes an unmapped query only for its best)
  // The query's reverse complement was aligned: query_ranks and the
  // alignment's query coordinates are the reverse complement's, and so is
  // `query` (its residues reverse complemented, its qualities reversed).
  bool reverse_strand = false;
};

class PairWriter {
 public:
  virtual ~PairWriter() = default;
  virtual void begin() {}
  virtual void write(const PairResult& r) = 0;
  virtual void end() {}
};

std::unique_ptr<PairWriter> make_pair_writer(PairFormat format, std::ostream& out, const PairRun& run);

// SAM names each target once in an @SQ line, and samtools refuses two with
// one name: throws InputError naming both records (file and line).
void check_sam_target_names(const SequenceFile& targets);

// Counts over the columns of an alignment.
struct AlignmentStats {
  std::int64_t length = 0, identical = 0, similar = 0, gaps = 0, edits = 0;
  double identity_percent() const { return length ? 100.0 * static_cast<double>(identical) / static_cast<double>(length) : 0.0; }
};
AlignmentStats alignment_stats(const PairResult& r, const ScoringScheme& scheme);

}  // namespace gdp::io
