// gpu-align3's formats by name, the rows they share, and the formats of a
// few lines: aligned FASTA, TSV and JSON.
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/align3_formats.hpp"
#include "io/alignment_blocks.hpp"

namespace gdp::io {

Align3Format parse_align3_format(std::string_view name) { return parse_enum(align3_format_names, name, "format"); }

bool needs_alignment(Align3Format format) { return format == Align3Format::fasta || format == Align3Format::clustal; }

std::array<std::string, 3> gapped_rows(const Align3Result& r) {
  const auto& moves = r.alignment.moves;
  std::array<std::string, 3> rows;
  for (std::size_t which = 0; which < 3; ++which) {
    const std::string& letters = r.records[which]->residues;
    const unsigned bit = 1u << which;
    std::string& row = rows[which];
    row.reserve(moves.size());
    std::size_t x = 0;
    for (const std::uint8_t move : moves) {
      if (!(move & bit)) {
        row += '-';
        continue;
      }
      if (x == letters.size()) throw std::logic_error("the columns run past the end of '" + r.records[which]->id + "'");
      row += letters[x++];
    }
    if (x != letters.size()) throw std::logic_error("the columns do not cover '" + r.records[which]->id + "'");
  }
  return rows;
}

// Each record's header as read (id, then its description), then its row in
// lines of block_width columns.
void write_align3_fasta(std::ostream& out, const Align3Result& r) {
  const auto rows = gapped_rows(r);
  for (std::size_t which = 0; which < 3; ++which) {
    const SequenceRecord& rec = *r.records[which];
    out << '>' << rec.id << (rec.description.empty() ? "" : " ") << rec.description << '\n';
    for (std::size_t col = 0; col < rows[which].size(); col += block_width)
      out << rows[which].substr(col, block_width) << '\n';
  }
}

// A '#' header, then the three ids, the columns ('-' with --score-only) and
// the score.
void write_align3_tsv(std::ostream& out, const Align3Run& run, const Align3Result& r) {
  out << "#a\tb\tc\tlength\tscore\n";
  for (const SequenceRecord* rec : r.records) out << rec->id << '\t';
  if (run.score_only)
    out << '-';
  else
    out << r.alignment.moves.size();
  out << '\t' << r.alignment.score << '\n';
}

// One object on one line: the score, the parameters, the ids and lengths,
// the columns and the rows (both null with --score-only).
void write_align3_json(std::ostream& out, const Align3Run& run, const Align3Result& r) {
  nlohmann::ordered_json j;
  j["score"] = r.alignment.score;
  j["gap"] = run.gap;
  j["scoring"] = run.scheme->name;
  j["ids"] = nlohmann::ordered_json::array();
  j["sequence_lengths"] = nlohmann::ordered_json::array();
  for (const SequenceRecord* rec : r.records) {
    j["ids"].push_back(rec->id);
    j["sequence_lengths"].push_back(rec->residues.size());
  }
  if (run.score_only) {
    j["length"] = nullptr;
    j["rows"] = nullptr;
  } else {
    j["length"] = r.alignment.moves.size();
    j["rows"] = gapped_rows(r);
  }
  out << j.dump() << '\n';
}

void write_align3(Align3Format format, std::ostream& out, const Align3Run& run, const Align3Result& r) {
  switch (format) {
    case Align3Format::fasta: return write_align3_fasta(out, r);
    case Align3Format::clustal: return write_align3_clustal(out, run, r);
    case Align3Format::tsv: return write_align3_tsv(out, run, r);
    case Align3Format::json: break;
  }
  write_align3_json(out, run, r);
}

}  // namespace gdp::io
