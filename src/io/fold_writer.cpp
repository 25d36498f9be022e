#include "io/fold_writer.hpp"

#include <nlohmann/json.hpp>

namespace gdp::io {

FoldFormat parse_fold_format(std::string_view name) { return parse_enum(fold_format_names, name, "format"); }

void write_fold_header(FoldFormat format, std::ostream& out) {
  if (format == FoldFormat::tsv) out << "#id\tlength\tpairs\tstructure\tdescription\n";
}

void write_fold(FoldFormat format, std::ostream& out, const std::string& id, const std::string& description,
                const std::string& rna, const fold::Structure& st) {
  const std::size_t n = rna.size();
  const std::string title = description.empty() ? id : id + ' ' + description;  // the whole header line
  switch (format) {
    case FoldFormat::dotbracket:  // as RNAfold prints it: >header, the sequence, the structure and its score
      out << '>' << title << '\n' << rna << '\n' << st.dot_bracket << " (" << st.pairs << ")\n";
      break;
    case FoldFormat::bpseq:  // one line a base: index, base, partner's index (0: unpaired), 1-based
      out << "# " << title << '\n';
      for (std::size_t i = 0; i < n; ++i) out << i + 1 << ' ' << rna[i] << ' ' << st.partner[i] + 1 << '\n';
      break;
    case FoldFormat::ct:  // length and title, then index, base, previous, next, partner, index
      out << n << ' ' << title << '\n';
      for (std::size_t i = 0; i < n; ++i)
        out << i + 1 << ' ' << rna[i] << ' ' << i << ' ' << (i + 1 < n ? i + 2 : 0) << ' ' << st.partner[i] + 1 << ' '
            << i + 1 << '\n';
      break;
    case FoldFormat::tsv:
      out << id << '\t' << n << '\t' << st.pairs << '\t' << st.dot_bracket << '\t' << description << '\n';
      break;
    case FoldFormat::json: {
      nlohmann::ordered_json j;
      j["id"] = id;
      j["description"] = description;
      j["length"] = n;
      j["pairs"] = st.pairs;
      j["sequence"] = rna;
      j["structure"] = st.dot_bracket;
      out << j.dump() << '\n';
      break;
    }
  }
}

}  // namespace gdp::io
