#pragma once
// Writers of gpu-align3's one result: aligned FASTA, Clustal, TSV and JSON.
// The rows carry the records' own letters (as read, upper case) with '-'
// where a column does not advance a sequence; 60 columns a line.
#include <array>
#include <ostream>
#include <string>
#include <string_view>

#include "align3/align3.hpp"
#include "core/enum_names.hpp"
#include "core/scoring.hpp"
#include "core/sequence.hpp"

namespace gdp::io {

enum class Align3Format { fasta, clustal, tsv, json };
inline constexpr EnumNames<Align3Format, 4> align3_format_names{{{Align3Format::fasta, "fasta"},
                                                                 {Align3Format::clustal, "clustal"},
                                                                 {Align3Format::tsv, "tsv"},
                                                                 {Align3Format::json, "json"}}};
// InputError "unknown format 'x' (use fasta, clustal, tsv or json)".
Align3Format parse_align3_format(std::string_view name);
// fasta and clustal are made of the rows: they cannot show a score-only result.
bool needs_alignment(Align3Format format);

// What the run used. `version` goes in Clustal's header line.
struct Align3Run {
  std::string tool, version;
  const ScoringScheme* scheme = nullptr;
  bool nucleotide = true;  // Clustal's conservation line: '*' only
  int gap = 0;
  bool score_only = false;  // tsv and json write the score alone
};

// The three records, in input order, and their alignment (moves empty with
// score_only).
struct Align3Result {
  std::array<const SequenceRecord*, 3> records;
  const align3::Alignment& alignment;
};

void write_align3(Align3Format format, std::ostream& out, const Align3Run& run, const Align3Result& result);

// Each record's row of the alignment. std::logic_error when the moves do
// not use every letter of the three records exactly once.
std::array<std::string, 3> gapped_rows(const Align3Result& result);

// Clustal's mark of a column of three rows: '*' three identical letters;
// for protein ':' three letters of one strong group, '.' of one weak group
// (Clustal's groups); ' ' otherwise, and wherever a row has a gap.
char conservation_mark(char x, char y, char z, bool nucleotide);

}  // namespace gdp::io
