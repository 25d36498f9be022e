#include "io/blast_tabular.hpp"

#include <cstdio>

#include "io/writers.hpp"

namespace gdp::io {

std::string format_evalue(double e) {
  char buf[32];
  if (e < 1.0e-180) return "0.0";
  const char* f = e < 0.0009 ? "%.2e" : e < 0.1 ? "%.3f" : e < 1.0 ? "%.2f" : e < 10.0 ? "%.1f" : "%.0f";
  std::snprintf(buf, sizeof buf, f, e);
  return buf;
}

std::string format_bit_score(double bits) {
  char buf[32];
  if (bits > 99.9)
    std::snprintf(buf, sizeof buf, "%ld", static_cast<long>(bits));
  else
    std::snprintf(buf, sizeof buf, "%4.1f", bits);
  return buf;
}

std::string blast_tabular_line(const PairResult& r, const PairRun& run) {
  const auto& a = r.alignment;
  const AlignmentStats s = alignment_stats(r, *run.scheme);
  std::int64_t gap_opens = 0;
  pairwise::Op previous = pairwise::Op::match;
  for (const auto& c : a.cigar) {
    const bool gap = c.op == pairwise::Op::insertion || c.op == pairwise::Op::deletion;
    gap_opens += gap && c.op != previous;
    previous = c.op;
  }
  const std::int64_t mismatches = s.length - s.gaps - s.identical;
  const auto qlen = static_cast<std::int64_t>(r.query_ranks.size());
  const auto tlen = static_cast<std::int64_t>(r.target_ranks.size());
  // 1-based inclusive. The reverse complement's [begin, end) is the forward
  // query's [qlen - end, qlen - begin); BLAST then writes the target's
  // coordinates from end to start.
  std::int64_t qstart = a.query_begin + 1, qend = a.query_end, sstart = a.target_begin + 1, send = a.target_end;
  if (r.reverse_strand) {
    qstart = qlen - a.query_end + 1, qend = qlen - a.query_begin;
    std::swap(sstart, send);
  }
  char pident[32];
  std::snprintf(pident, sizeof pident, "%.3f", s.identity_percent());
  const stats::SearchStatistics& st = *run.statistics;
  std::string line = r.query->id + '\t' + r.target->id + '\t' + pident;
  for (const std::int64_t v : {s.length, mismatches, gap_opens, qstart, qend, sstart, send}) line += '\t' + std::to_string(v);
  line += '\t' + format_evalue(st.evalue(a.score, qlen, tlen));
  line += '\t' + format_bit_score(st.bit_score(a.score));
  return line;
}

namespace {

class BlastTabularWriter : public PairWriter {
 public:
  BlastTabularWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}
  void write(const PairResult& r) override {
    if (r.alignment.empty() || r.alignment.cigar.empty()) return;  // no local alignment: not a hit
    out_ << blast_tabular_line(r, run_) << '\n';
  }

 private:
  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_blast_tabular_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<BlastTabularWriter>(out, run);
}

}  // namespace gdp::io
