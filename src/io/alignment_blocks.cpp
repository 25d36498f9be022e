#include "io/alignment_blocks.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gdp::io {
namespace {

// NAME, padded to name_w, then FROM in 10 columns, S, and TO in 10 columns.
void sequence_line(std::ostream& out, const std::string& name, std::size_t name_w, std::int64_t from,
                   const std::string& s, std::int64_t to) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%10lld", static_cast<long long>(from));
  out << name << std::string(name_w - name.size() + 1, ' ') << buf << ' ' << s;
  std::snprintf(buf, sizeof buf, " %10lld", static_cast<long long>(to));
  out << buf << '\n';
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
  const std::size_t name_w = std::clamp<std::size_t>(std::max(c.query.id.size(), c.target.id.size()), 6, 20);
  std::int64_t qi = c.query_begin, tj = c.target_begin;
  for (std::size_t col = 0; col < top.size(); col += block_width) {
    const std::string qs = top.substr(col, block_width), ms = mid.substr(col, block_width), ts = bottom.substr(col, block_width);
    const std::int64_t qn = std::count_if(qs.begin(), qs.end(), [](char x) { return x != '-'; });
    const std::int64_t tn = std::count_if(ts.begin(), ts.end(), [](char x) { return x != '-'; });
    sequence_line(out, c.query.id.substr(0, name_w), name_w, qi + 1, qs, qi + qn);
    out << std::string(name_w + 1 + 10 + 1, ' ') << ms << '\n';
    sequence_line(out, c.target.id.substr(0, name_w), name_w, tj + 1, ts, tj + tn);
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
