// gpu-syntenic's formats by name, what they share, and the two line formats
// of one line a region: PAF and TSV.
#include <cstdio>

#include "io/syntenic_formats.hpp"

namespace gdp::io {

SyntenicFormat parse_syntenic_format(std::string_view name) { return parse_enum(syntenic_format_names, name, "format"); }

bool needs_alignment(SyntenicFormat format) { return format == SyntenicFormat::paf; }

RegionStats region_stats(const syntenic::Region& region) {
  RegionStats s;
  for (const auto& run : region.cigar) {
    s.columns += run.length;
    if (run.op == syntenic::Op::match) s.identical += run.length;
  }
  return s;
}

namespace {

// minimap2's PAF: one line a matching region, the 12 standard columns, then
// tp:A:P, AS:i (the region's score) and cg:Z (its CIGAR; I and D as PAF's:
// a query letter against a gap, a target letter against a gap).
class PafWriter : public SyntenicWriter {
 public:
  explicit PafWriter(std::ostream& out) : out_(out) {}
  void write(const SyntenicResult& r) override {
    for (const auto& g : r.alignment.regions) {
      if (g.block) continue;
      const RegionStats s = region_stats(g);
      out_ << r.query.id << '\t' << r.query.residues.size() << '\t' << g.query_begin << '\t' << g.query_end << "\t+\t"
           << r.target.id << '\t' << r.target.residues.size() << '\t' << g.target_begin << '\t' << g.target_end << '\t'
           << s.identical << '\t' << s.columns << "\t255\ttp:A:P\tAS:i:" << g.score
           << "\tcg:Z:" << pairwise::cigar_string(g.cigar) << '\n';
    }
  }

 private:
  std::ostream& out_;
};

// A '#' header, then one line a region (kind match or block; a block's
// identity and CIGAR are '-'), or with --score-only one line a pair.
class TsvWriter : public SyntenicWriter {
 public:
  TsvWriter(std::ostream& out, const SyntenicRun& run) : out_(out), run_(run) {}
  void begin() override {
    out_ << (run_.score_only
                 ? "#query\ttarget\tscore\tquery_end\ttarget_end\n"
                 : "#query\ttarget\tkind\tquery_start\tquery_end\ttarget_start\ttarget_end\tscore\tidentity\tcigar\n");
  }
  void write(const SyntenicResult& r) override {
    const auto& a = r.alignment;
    if (run_.score_only) {
      out_ << r.query.id << '\t' << r.target.id << '\t' << a.score << '\t' << a.query_end << '\t' << a.target_end
           << '\n';
      return;
    }
    for (const auto& g : a.regions) {
      out_ << r.query.id << '\t' << r.target.id << '\t' << (g.block ? "block" : "match") << '\t'
           << g.query_begin + 1 << '\t' << g.query_end << '\t' << g.target_begin + 1 << '\t'
           << g.target_end << '\t' << g.score << '\t';
      if (g.block) {
        out_ << "-\t-\n";
        continue;
      }
      char pct[16];
      std::snprintf(pct, sizeof pct, "%.2f", region_stats(g).identity_percent());
      out_ << pct << '\t' << pairwise::cigar_string(g.cigar) << '\n';
    }
  }

 private:
  std::ostream& out_;
  const SyntenicRun run_;
};

}  // namespace

std::unique_ptr<SyntenicWriter> make_syntenic_paf_writer(std::ostream& out, const SyntenicRun&) {
  return std::make_unique<PafWriter>(out);
}

std::unique_ptr<SyntenicWriter> make_syntenic_tsv_writer(std::ostream& out, const SyntenicRun& run) {
  return std::make_unique<TsvWriter>(out, run);
}

std::unique_ptr<SyntenicWriter> make_syntenic_writer(SyntenicFormat format, std::ostream& out, const SyntenicRun& run) {
  switch (format) {
    case SyntenicFormat::listing: return make_syntenic_listing_writer(out, run);
    case SyntenicFormat::paf: return make_syntenic_paf_writer(out, run);
    case SyntenicFormat::tsv: return make_syntenic_tsv_writer(out, run);
    case SyntenicFormat::json: break;
  }
  return make_syntenic_json_writer(out, run);
}

}  // namespace gdp::io
