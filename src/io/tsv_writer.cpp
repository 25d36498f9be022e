// TSV: a '#' header, then a line a pair; the query's coordinates are on the
// strand aligned (the reverse complement's for strand '-').
#include <cstdio>

#include "io/writers.hpp"

namespace gdp::io {
namespace {

class TsvWriter : public PairWriter {
 public:
  TsvWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}
  void begin() override {
    out_ << "#query\ttarget\tscore\tquery_start\tquery_end\ttarget_start\ttarget_end\tidentity\tcigar\tstrand\n";
  }
  void write(const PairResult& r) override {
    out_ << r.query->id << '\t' << r.target->id << '\t' << r.alignment.score << '\t';
    write_alignment(r);
    out_ << '\t' << (r.reverse_strand ? '-' : '+') << '\n';
  }

 private:
  // The columns from query_start to cigar.
  void write_alignment(const PairResult& r) {
    const auto& a = r.alignment;
    if (a.empty()) {
      out_ << "*\t*\t*\t*\t*\t*";
      return;
    }
    out_ << (a.has_begin ? std::to_string(a.query_begin + 1) : "*") << '\t' << a.query_end << '\t'
         << (a.has_begin ? std::to_string(a.target_begin + 1) : "*") << '\t' << a.target_end << '\t';
    if (a.cigar.empty()) {
      out_ << "*\t*";
      return;
    }
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.2f", alignment_stats(r, *run_.scheme).identity_percent());
    out_ << pct << '\t' << pairwise::cigar_string(a.cigar);
  }

  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_tsv_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<TsvWriter>(out, run);
}

}  // namespace gdp::io
