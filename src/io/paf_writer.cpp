// PAF as minimap2 writes it: the 12 standard columns (0-based half-open
// coordinates, the query's on its forward strand, the target's forward;
// matching bases = '=' columns, block length = all columns, MAPQ 255), then
// tp:A:P (S for a query's secondary results), NM:i, AS:i and cg:Z (=/X/I/D
// in target order). No header; an empty alignment writes no line.
#include "io/writers.hpp"

namespace gdp::io {
namespace {

class PafWriter : public PairWriter {
 public:
  PafWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}
  void write(const PairResult& r) override {
    const auto& a = r.alignment;
    if (a.empty()) return;
    const std::int64_t qlen = static_cast<std::int64_t>(r.query->residues.size());
    // A minus hit's query coordinates are the reverse complement's.
    const std::int64_t qstart = r.reverse_strand ? qlen - a.query_end : a.query_begin;
    const std::int64_t qend = r.reverse_strand ? qlen - a.query_begin : a.query_end;
    const AlignmentStats s = alignment_stats(r, *run_.scheme);
    out_ << r.query->id << '\t' << qlen << '\t' << qstart << '\t' << qend << '\t' << (r.reverse_strand ? '-' : '+')
         << '\t' << r.target->id << '\t' << r.target->residues.size() << '\t' << a.target_begin << '\t' << a.target_end
         << '\t' << s.identical << '\t' << s.length << "\t255\ttp:A:" << (r.secondary ? 'S' : 'P') << "\tNM:i:" << s.edits
         << "\tAS:i:" << a.score << "\tcg:Z:" << pairwise::cigar_string(a.cigar) << '\n';
  }

 private:
  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_paf_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<PafWriter>(out, run);
}

}  // namespace gdp::io
