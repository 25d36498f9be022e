#include "io/alignment_blocks.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gdp::io {
namespace {

// EMBOSS's columns, which Biopython's "emboss" reader needs: the name and
// the first position in the first 20 columns (the position right-aligned
// in `digits`, the name cut to leave a space before it), the letters from
// column 22, then the last position.
constexpr std::size_t kLead = 20;

void sequence_line(std::ostream& out, const std::string& name, int digits, std::int64_t from, const std::string& s,
                   std::int64_t to) {
  const std::size_t name_w = kLead - 1 - static_cast<std::size_t>(digits);
  const std::string shown = name.substr(0, name_w);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%*lld", digits, static_cast<long long>(from));
  out << shown << std::string(name_w - shown.size() + 1, ' ') << buf << ' ' << s;
  std::snprintf(buf, sizeof buf, " %*lld", digits, static_cast<long long>(to));
  out << buf << '\n';
}

int digits_of(std::int64_t x) {
  int d = 1;
  while (x >= 10) x /= 10, ++d;
  return d;
}

}  // namespace

void write_alignment_blocks(std::ostream& out, const AlignedColumns& c, const ScoringScheme& scheme) {
  std::string top, mid, bottom;
  std::int64_t i = c.query_begin, j = c.target_begin;
  for (const auto& run : c.cigar)
    for (std::int64_t k = 0; k < run.length; ++k) {
      const bool q = run.op != pairwise::Op::deletion, t = run.op != pairwise::Op::insertion;
      top += q ? c.query.residues[i] : '-';
      bottom += t ? c.target.residues[j] : '-';
      char mark = ' ';
      if (q && t) {
        const std::uint8_t a = c.query_ranks[i], b = c.target_ranks[j];
        mark = a == b ? '|' : scheme.score(a, b) > 0 ? ':' : '.';
      }
      mid += mark;
      i += q, j += t;
    }
  // Seven digits as EMBOSS; more for longer sequences, the names shorter.
  const int digits = std::min(16, std::max(7, digits_of(std::max(i, j))));
  std::int64_t qi = c.query_begin, tj = c.target_begin;
  for (std::size_t col = 0; col < top.size(); col += block_width) {
    const std::string qs = top.substr(col, block_width), ms = mid.substr(col, block_width), ts = bottom.substr(col, block_width);
    const std::int64_t qn = std::count_if(qs.begin(), qs.end(), [](char x) { return x != '-'; });
    const std::int64_t tn = std::count_if(ts.begin(), ts.end(), [](char x) { return x != '-'; });
    // A line without letters gives the position before it twice, as EMBOSS does.
    sequence_line(out, c.query.id, digits, qn ? qi + 1 : qi, qs, qi + qn);
    out << std::string(kLead + 1, ' ') << ms << '\n';
    sequence_line(out, c.target.id, digits, tn ? tj + 1 : tj, ts, tj + tn);
    out << '\n';
    qi += qn, tj += tn;
  }
}

std::string fraction_text(std::int64_t part, std::int64_t whole) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld/%lld (%.1f%%)", static_cast<long long>(part), static_cast<long long>(whole),
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

}  // namespace gdp::io
