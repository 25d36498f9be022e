// The "pair" format, after EMBOSS's: a header of parameters and statistics,
// then the alignment in blocks of 60 columns with a markup line
// ('|' identical, ':' similar (positive score), '.' other, ' ' gap).
#include <algorithm>
#include <cstdio>

#include "io/writers.hpp"

namespace gdp::io {
namespace {

constexpr std::int64_t width = 60;

std::string percent(std::int64_t part, std::int64_t whole) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld/%lld (%.1f%%)", static_cast<long long>(part), static_cast<long long>(whole),
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

class EmbossPairWriter : public PairWriter {
 public:
  EmbossPairWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}

  void begin() override {
    const auto& s = *run_.scheme;
    out_ << "########################################\n"
         << "# Program:  " << run_.tool << "\n"
         << "# Command:  " << run_.command_line << "\n"
         << "# Mode:     " << pairwise::to_string(run_.mode) << (run_.score_only ? " (score only)" : "") << "\n"
         << "# Scoring:  " << s.name << "\n"
         << "# Gaps:     open " << s.gap_open << ", extend " << s.gap_extend
         << " (a gap of length k costs open + k*extend)\n"
         << "########################################\n";
  }

  void write(const PairResult& r) override {
    const auto& a = r.alignment;
    out_ << "\n#=======================================\n"
         << "# 1: " << r.query->id << " (" << r.query->residues.size() << ")\n"
         << "# 2: " << r.target->id << " (" << r.target->residues.size() << ")\n";
    if (a.cigar.empty()) {
      out_ << "# Score:      " << a.score << "\n";
      if (!a.empty())
        out_ << "# End:        query " << a.query_end << ", target " << a.target_end << "\n";
      else
        out_ << "# (no alignment scores above zero)\n";
      out_ << "#=======================================\n";
      return;
    }
    const AlignmentStats st = alignment_stats(r, *run_.scheme);
    out_ << "# Length:     " << st.length << "\n"
         << "# Identity:   " << percent(st.identical, st.length) << "\n"
         << "# Similarity: " << percent(st.similar, st.length) << "\n"
         << "# Gaps:       " << percent(st.gaps, st.length) << "\n"
         << "# Score:      " << a.score << "\n"
         << "#=======================================\n\n";
    write_blocks(r);
  }

 private:
  void write_blocks(const PairResult& r) {
    const auto& a = r.alignment;
    std::string top, mid, bottom;
    std::int64_t i = a.query_begin, j = a.target_begin;
    for (const auto& run : a.cigar)
      for (std::int64_t k = 0; k < run.length; ++k) {
        const bool q = run.op != pairwise::Op::deletion, t = run.op != pairwise::Op::insertion;
        top += q ? r.query->residues[i] : '-';
        bottom += t ? r.target->residues[j] : '-';
        char mark = ' ';
        if (q && t) {
          const int sc = run_.scheme->score(r.query_ranks[i], r.target_ranks[j]);
          mark = r.query_ranks[i] == r.target_ranks[j] ? '|' : sc > 0 ? ':' : '.';
        }
        mid += mark;
        i += q, j += t;
      }
    const std::size_t name_w = std::clamp<std::size_t>(std::max(r.query->id.size(), r.target->id.size()), 6, 20);
    std::int64_t qi = a.query_begin, tj = a.target_begin;
    for (std::size_t c = 0; c < top.size(); c += width) {
      const std::string qs = top.substr(c, width), ms = mid.substr(c, width), ts = bottom.substr(c, width);
      const std::int64_t qn = std::count_if(qs.begin(), qs.end(), [](char x) { return x != '-'; });
      const std::int64_t tn = std::count_if(ts.begin(), ts.end(), [](char x) { return x != '-'; });
      line(r.query->id.substr(0, name_w), name_w, qi + 1, qs, qi + qn);
      out_ << std::string(name_w + 1 + 10 + 1, ' ') << ms << '\n';
      line(r.target->id.substr(0, name_w), name_w, tj + 1, ts, tj + tn);
      out_ << '\n';
      qi += qn, tj += tn;
    }
  }

  void line(const std::string& name, std::size_t name_w, std::int64_t from, const std::string& s, std::int64_t to) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%10lld", static_cast<long long>(from));
    out_ << name << std::string(name_w - name.size() + 1, ' ') << buf << ' ' << s;
    std::snprintf(buf, sizeof buf, " %10lld", static_cast<long long>(to));
    out_ << buf << '\n';
  }

  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_emboss_pair_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<EmbossPairWriter>(out, run);
}

}  // namespace gdp::io
