#pragma once
// Writers of gpu-syntenic results: listing (for people), PAF, TSV and JSON
// lines. Coordinates are 1-based and inclusive except in PAF (0-based
// starts, as PAF has them). A block's range of 0 letters in one sequence is
// start = end + 1 in TSV and JSON, "- (0 letters, after END)" in the listing.
#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/scoring.hpp"
#include "core/sequence.hpp"
#include "syntenic/syntenic.hpp"

namespace gdp::io {

enum class SyntenicFormat { listing, paf, tsv, json };
inline constexpr EnumNames<SyntenicFormat, 4> syntenic_format_names{{{SyntenicFormat::listing, "listing"},
                                                                     {SyntenicFormat::paf, "paf"},
                                                                     {SyntenicFormat::tsv, "tsv"},
                                                                     {SyntenicFormat::json, "json"}}};
// InputError "unknown format 'x' (use listing, paf, tsv or json)".
SyntenicFormat parse_syntenic_format(std::string_view name);
// listing and paf are made of the regions: they cannot show a score-only result.
bool needs_alignment(SyntenicFormat format);

// What every pair of a run shares.
struct SyntenicRun {
  std::string tool, command_line;
  const ScoringScheme* scheme = nullptr;
  syntenic::Ends ends = syntenic::Ends::charged;
  int block_penalty = 0;
  bool score_only = false;  // tsv and json write a pair's score alone
};

// One pair. The ranks (the records encoded by the run's scheme) are read by
// the listing's markup line only.
struct SyntenicResult {
  const SequenceRecord& query;
  const SequenceRecord& target;
  std::span<const std::uint8_t> query_ranks, target_ranks;
  const syntenic::Alignment& alignment;
};

class SyntenicWriter {
 public:
  virtual ~SyntenicWriter() = default;
  virtual void begin() {}  // the listing's and TSV's headers
  virtual void write(const SyntenicResult& r) = 0;
  virtual void end() {}
};

std::unique_ptr<SyntenicWriter> make_syntenic_writer(SyntenicFormat format, std::ostream& out, const SyntenicRun& run);

// Counts over a matching region's columns; identity is '=' columns over all
// columns, in percent (0 for no columns).
struct RegionStats {
  std::int64_t columns = 0, identical = 0;
  double identity_percent() const {
    return columns ? 100.0 * static_cast<double>(identical) / static_cast<double>(columns) : 0.0;
  }
};
RegionStats region_stats(const syntenic::Region& region);

}  // namespace gdp::io
