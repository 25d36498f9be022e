// SAM 1.6: the query is the read, the target the reference. Local alignments
// soft-clip the query's unaligned ends. A minus-strand hit (flag 16) has the
// reverse complement's record: SEQ reverse complemented, QUAL reversed, and
// its clips at the ends of the reverse complement, as SAM wants. Score-only
// runs cannot write SAM (the app refuses the combination).
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"
#include "core/version.hpp"
#include "io/writers.hpp"

namespace gdp::io {
namespace {

class SamWriter : public PairWriter {
 public:
  SamWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}
  void begin() override {
    out_ << "@HD\tVN:1.6\tSO:unsorted\n";
    for (const SequenceRecord* t : run_.targets) out_ << "@SQ\tSN:" << t->id << "\tLN:" << t->residues.size() << '\n';
    out_ << "@PG\tID:" << run_.tool << "\tPN:" << run_.tool << "\tVN:" << version << "\tCL:" << run_.command_line << '\n';
  }
  void write(const PairResult& r) override {
    const auto& a = r.alignment;
    const std::string& seq = r.query->residues;
    const std::string_view qual = r.query->quality.empty() ? std::string_view("*") : std::string_view(r.query->quality);
    if (a.empty()) {  // unmapped: written once, for a query that maps nowhere
      if (r.secondary) return;
      out_ << r.query->id << '\t' << (r.reverse_strand ? 4 + 16 : 4) << "\t*\t0\t0\t*\t*\t0\t0\t" << seq << '\t' << qual << "\tAS:i:" << a.score << '\n';
      return;
    }
    const std::int64_t m = static_cast<std::int64_t>(seq.size());
    std::string cigar;
    if (a.query_begin > 0) cigar += std::to_string(a.query_begin) + 'S';
    cigar += pairwise::cigar_string(a.cigar);
    if (a.query_end < m) cigar += std::to_string(m - a.query_end) + 'S';
    const AlignmentStats s = alignment_stats(r, *run_.scheme);
    out_ << r.query->id << '\t' << (r.secondary ? 256 : 0) + (r.reverse_strand ? 16 : 0) << '\t' << r.target->id << '\t' << a.target_begin + 1
         << "\t255\t" << cigar << "\t*\t0\t0\t" << seq << '\t' << qual << "\tAS:i:" << a.score << "\tNM:i:" << s.edits << '\n';
  }

 private:
  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

void check_sam_target_names(const SequenceFile& targets) {
  std::unordered_map<std::string_view, const SequenceRecord*> seen;
  for (const SequenceRecord& t : targets.records) {
    const auto [it, fresh] = seen.emplace(t.id, &t);
    if (!fresh)
      throw InputError(targets.display_name(), t.line,
                       "target '" + t.id + "' has the name of the target at line " + std::to_string(it->second->line) +
                           ": SAM's @SQ names must be unique (rename one, or use another --format)");
  }
}

std::unique_ptr<PairWriter> make_sam_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<SamWriter>(out, run);
}

std::unique_ptr<PairWriter> make_pair_writer(PairFormat format, std::ostream& out, const PairRun& run) {
  switch (format) {
    case PairFormat::pair: return make_emboss_pair_writer(out, run);
    case PairFormat::sam: return make_sam_writer(out, run);
    case PairFormat::tsv: return make_tsv_writer(out, run);
    case PairFormat::json: return make_json_writer(out, run);
    case PairFormat::paf: return make_paf_writer(out, run);
    case PairFormat::blast6: return make_blast_tabular_writer(out, run);
  }
  return nullptr;
}

}  // namespace gdp::io
