// gpu-align3's Clustal format, as Clustal W and Clustal Omega write it and
// Biopython's clustal parser reads it: a "CLUSTAL" header line and two
// blank lines, then blocks of block_width columns separated by a blank
// line. A block is a line a sequence (its name, padded so that the columns
// line up, the columns, a space and the count of its letters so far), then
// the conservation line under the columns, as wide as they are.
#include <algorithm>
#include <string_view>

#include "io/align3_formats.hpp"
#include "io/alignment_blocks.hpp"

namespace gdp::io {
namespace {

// Clustal's residue groups (Clustal W and Omega): a column of three letters
// all in one strong group is marked ':', all in one weak group '.'.
constexpr std::string_view strong_groups[] = {"STA", "NEQK", "NHQK", "NDEQ", "QHRK", "MILV", "MILF", "HY", "FYW"};
constexpr std::string_view weak_groups[] = {"CSA",    "ATV",    "SAG",    "STNK",   "STPA", "SGND",
                                            "SNDEQK", "NDEQHK", "NEQHRK", "FVLIM",  "HFY"};

template <std::size_t N>
bool in_one_group(const std::string_view (&groups)[N], char x, char y, char z) {
  return std::any_of(std::begin(groups), std::end(groups), [&](std::string_view g) {
    return g.find(x) != g.npos && g.find(y) != g.npos && g.find(z) != g.npos;
  });
}

// Names longer than this are cut (Clustal W's limit); the columns start
// this many spaces after the longest name.
constexpr std::size_t max_name = 30, name_gap = 6;

}  // namespace

char conservation_mark(char x, char y, char z, bool nucleotide) {
  if (x == '-' || y == '-' || z == '-') return ' ';
  if (x == y && y == z) return '*';
  if (nucleotide) return ' ';
  if (in_one_group(strong_groups, x, y, z)) return ':';
  if (in_one_group(weak_groups, x, y, z)) return '.';
  return ' ';
}

void write_align3_clustal(std::ostream& out, const Align3Run& run, const Align3Result& r) {
  const auto rows = gapped_rows(r);
  std::array<std::string, 3> names;
  std::size_t longest = 0;
  for (std::size_t which = 0; which < 3; ++which) {
    names[which] = r.records[which]->id.substr(0, max_name);
    longest = std::max(longest, names[which].size());
  }
  const std::size_t name_w = longest + name_gap;
  out << "CLUSTAL multiple sequence alignment by " << run.tool << ' ' << run.version << "\n\n\n";
  std::array<std::size_t, 3> letters{};
  const std::size_t columns = rows[0].size();
  for (std::size_t col = 0; col < columns; col += block_width) {
    if (col) out << '\n';
    const std::size_t width = std::min(block_width, columns - col);
    for (std::size_t which = 0; which < 3; ++which) {
      const std::string part = rows[which].substr(col, width);
      letters[which] += static_cast<std::size_t>(std::count_if(part.begin(), part.end(), [](char x) { return x != '-'; }));
      out << names[which] << std::string(name_w - names[which].size(), ' ') << part << ' ' << letters[which] << '\n';
    }
    std::string marks(name_w, ' ');
    for (std::size_t k = col; k < col + width; ++k)
      marks += conservation_mark(rows[0][k], rows[1][k], rows[2][k], run.nucleotide);
    out << marks << '\n';
  }
}

}  // namespace gdp::io
