// The "pair" format, EMBOSS's (srspair, as needle and water write it, and
// as Biopython's AlignIO "emboss" reader takes it): a header of parameters,
// then for each pair its statistics and the alignment in blocks of 60
// columns with a markup line ('|' identical, ':' similar (positive score),
// '.' other, ' ' gap).
#include "io/alignment_blocks.hpp"
#include "io/writers.hpp"

namespace gdp::io {
namespace {

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
         << " (a gap of length k costs open + k*extend)\n";
    if (run_.strand != pairwise::Strand::plus) out_ << "# Strands:  " << pairwise::to_string(run_.strand) << "\n";
    out_ << "########################################\n";
  }

  void write(const PairResult& r) override {
    const auto& a = r.alignment;
    // As EMBOSS writes it (Biopython's "emboss" reader needs Aligned_sequences, 1:, 2: and Length).
    out_ << "\n#=======================================\n"
         << "#\n"
         << "# Aligned_sequences: 2\n"
         << "# 1: " << r.query->id << "\n"
         << "# 2: " << r.target->id << "\n"
         << "# Lengths:    " << r.query->residues.size() << ", " << r.target->residues.size() << "\n";
    // '-': the query's reverse complement is aligned, its letters and positions shown.
    if (run_.strand != pairwise::Strand::plus) out_ << "# Strand:     " << (r.reverse_strand ? '-' : '+') << "\n";
    if (a.cigar.empty()) {
      if (a.empty()) out_ << "# Length:     0\n";  // an empty alignment, as water reports one
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
         << "# Identity:   " << fraction_text(st.identical, st.length) << "\n"
         << "# Similarity: " << fraction_text(st.similar, st.length) << "\n"
         << "# Gaps:       " << fraction_text(st.gaps, st.length) << "\n"
         << "# Score:      " << a.score << "\n"
         << "#\n"
         << "#=======================================\n\n";
    write_blocks(r);
    out_ << "\n#---------------------------------------\n";
  }

 private:
  void write_blocks(const PairResult& r) {
    const auto& a = r.alignment;
    write_alignment_blocks(out_, {*r.query, *r.target, r.query_ranks, r.target_ranks, a.query_begin, a.target_begin, a.cigar},
                           *run_.scheme);
  }

  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_emboss_pair_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<EmbossPairWriter>(out, run);
}

}  // namespace gdp::io
