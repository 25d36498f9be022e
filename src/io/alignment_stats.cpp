#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "io/pairwise_writer.hpp"

namespace gdp::io {

namespace {
constexpr EnumNames<PairFormat, 6> pair_format_names{{{PairFormat::pair, "pair"},
                                                      {PairFormat::sam, "sam"},
                                                      {PairFormat::tsv, "tsv"},
                                                      {PairFormat::json, "json"},
                                                      {PairFormat::paf, "paf"},
                                                      {PairFormat::blast6, "blast6"}}};
}  // namespace

PairFormat parse_pair_format(std::string_view name) { return parse_enum(pair_format_names, name, "format"); }
bool needs_alignment(PairFormat format) { return format == PairFormat::sam || format == PairFormat::paf; }

AlignmentStats alignment_stats(const PairResult& r, const ScoringScheme& scheme) {
  AlignmentStats s;
  const auto& a = r.alignment;
  std::int64_t i = a.query_begin, j = a.target_begin;
  for (const auto& run : a.cigar) {
    s.length += run.length;
    switch (run.op) {
      case pairwise::Op::match:
      case pairwise::Op::mismatch:
        for (std::int64_t k = 0; k < run.length; ++k, ++i, ++j) {
          const bool same = r.query_ranks[i] == r.target_ranks[j];
          s.identical += same;
          s.similar += same || scheme.score(r.query_ranks[i], r.target_ranks[j]) > 0;
        }
        if (run.op == pairwise::Op::mismatch) s.edits += run.length;
        break;
      case pairwise::Op::insertion:
        s.gaps += run.length, s.edits += run.length, i += run.length;
        break;
      case pairwise::Op::deletion:
        s.gaps += run.length, s.edits += run.length, j += run.length;
        break;
    }
  }
  return s;
}

}  // namespace gdp::io
