#include "io/interaction_writer.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace gdp::io {
namespace {

std::string_view kind_name(fold::PairKind kind) {
  return kind == fold::PairKind::inter ? "inter" : kind == fold::PairKind::intra1 ? "intra1" : "intra2";
}

long long inter_pairs(const fold::Interaction& r) {
  return std::count_if(r.pairs.begin(), r.pairs.end(), [](const fold::BasePair& p) { return p.kind == fold::PairKind::inter; });
}

}  // namespace

InteractionFormat parse_interaction_format(std::string_view name) {
  return parse_enum(interaction_format_names, name, "format");
}

void write_interaction_header(InteractionFormat format, std::ostream& out) {
  if (format == InteractionFormat::tsv) out << "#id\tlen1\tlen2\tscore\tinter_pairs\tstructure\tdescription\n";
}

void write_interaction(InteractionFormat format, std::ostream& out, const InteractionRecord& rec,
                       const fold::Interaction& r, int unit) {
  const std::string title = rec.description.empty() ? rec.id : rec.id + ' ' + rec.description;
  const std::string score = fold::format_score(r.score, unit);
  switch (format) {
    case InteractionFormat::dotbracket:  // as RNAcofold prints it: >header, SEQ1&SEQ2, the structure and its score
      out << '>' << title << '\n' << rec.strand1 << '&' << rec.strand2 << '\n' << r.structure << " (" << score << ")\n";
      break;
    case InteractionFormat::pairs:  // a pair a line: 1-based positions, each on its own strand, and the kind
      out << "# " << title << " score " << score << '\n';
      for (const fold::BasePair& p : r.pairs) out << p.i + 1 << ' ' << p.j + 1 << ' ' << kind_name(p.kind) << '\n';
      break;
    case InteractionFormat::tsv:
      out << rec.id << '\t' << rec.strand1.size() << '\t' << rec.strand2.size() << '\t' << score << '\t'
          << inter_pairs(r) << '\t' << r.structure << '\t' << rec.description << '\n';
      break;
    case InteractionFormat::json: {
      nlohmann::ordered_json j;
      j["id"] = rec.id;
      j["description"] = rec.description;
      j["length1"] = rec.strand1.size();
      j["length2"] = rec.strand2.size();
      if (r.score % unit == 0)
        j["score"] = r.score / unit;
      else
        j["score"] = static_cast<double>(r.score) / unit;
      j["inter_pairs"] = inter_pairs(r);
      j["sequence"] = rec.strand1 + '&' + rec.strand2;
      j["structure"] = r.structure;
      j["pairs"] = nlohmann::ordered_json::array();
      for (const fold::BasePair& p : r.pairs) j["pairs"].push_back({p.i + 1, p.j + 1, kind_name(p.kind)});
      out << j.dump() << '\n';
      break;
    }
  }
}

}  // namespace gdp::io
