// gpu-syntenic's listing, for people: a header of parameters, then per pair
// its score and, in order along the alignment, each matching region (its
// ranges, score, identity and columns in blocks of 60 as gpu-sw's pair
// format writes them) and each difference block (its ranges).
#include <string>

#include "io/alignment_blocks.hpp"
#include "io/syntenic_formats.hpp"

namespace gdp::io {
namespace {

// "151-230 (80 letters)"; a range of 0 letters: "- (0 letters, after 150)".
std::string range_text(std::int64_t begin, std::int64_t end) {
  const std::int64_t n = end - begin;
  if (n == 0) return "- (0 letters, " + (begin == 0 ? std::string("before 1") : "after " + std::to_string(begin)) + ")";
  return std::to_string(begin + 1) + "-" + std::to_string(end) + " (" + std::to_string(n) +
         (n == 1 ? " letter)" : " letters)");
}

std::string plural(std::size_t n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

class ListingWriter : public SyntenicWriter {
 public:
  ListingWriter(std::ostream& out, const SyntenicRun& run) : out_(out), run_(run) {}

  void begin() override {
    const auto& s = *run_.scheme;
    out_ << "########################################\n"
         << "# Program:  " << run_.tool << "\n"
         << "# Command:  " << run_.command_line << "\n"
         << "# Scoring:  " << s.name << "\n"
         << "# Gaps:     open " << s.gap_open << ", extend " << s.gap_extend
         << " (a gap of length k costs open + k*extend)\n"
         << "# Blocks:   penalty " << run_.block_penalty << " each\n"
         << "# Ends:     " << syntenic::to_string(run_.ends)
         << (run_.ends == syntenic::Ends::charged ? " (the penalty again at each end that is not a block)\n"
                                                 : " (no charge at the ends)\n")
         << "########################################\n";
  }

  void write(const SyntenicResult& r) override {
    const auto& a = r.alignment;
    out_ << "\n#=======================================\n"
         << "# 1: " << r.query.id << " (" << r.query.residues.size() << ")\n"
         << "# 2: " << r.target.id << " (" << r.target.residues.size() << ")\n"
         << "# Score:       " << a.score << "\n";
    if (a.regions.empty()) {  // a score-only result
      out_ << "# End:         query " << a.query_end << ", target " << a.target_end << "\n"
           << "#=======================================\n";
      return;
    }
    std::size_t matches = 0, blocks = 0;
    int match_score = 0, block_score = 0;
    for (const auto& g : a.regions) {
      if (g.block)
        ++blocks, block_score += g.score;
      else
        ++matches, match_score += g.score;
    }
    out_ << "# Regions:     " << plural(matches, "matching region") << " (" << match_score << "), "
         << plural(blocks, "block") << " (" << block_score << ")\n";
    if (run_.ends == syntenic::Ends::charged)
      out_ << "# End charges: " << syntenic::end_charges(a, run_.ends, run_.block_penalty) << "\n";
    out_ << "#=======================================\n\n";
    std::size_t match_no = 0, block_no = 0;
    for (const auto& g : a.regions) {
      out_ << "# " << (g.block ? "Block " + std::to_string(++block_no) : "Match " + std::to_string(++match_no))
           << ": query " << range_text(g.query_begin, g.query_end) << ", target "
           << range_text(g.target_begin, g.target_end) << "\n";
      if (g.block) {
        out_ << "#   score " << g.score << "\n\n";
        continue;
      }
      const RegionStats st = region_stats(g);
      out_ << "#   score " << g.score << ", identity " << fraction_text(st.identical, st.columns) << "\n\n";
      write_alignment_blocks(out_, {r.query, r.target, r.query_ranks, r.target_ranks, g.query_begin, g.target_begin, g.cigar},
                             *run_.scheme);
    }
  }

 private:
  std::ostream& out_;
  const SyntenicRun run_;
};

}  // namespace

std::unique_ptr<SyntenicWriter> make_syntenic_listing_writer(std::ostream& out, const SyntenicRun& run) {
  return std::make_unique<ListingWriter>(out, run);
}

}  // namespace gdp::io
