#include "syntenic/regions.hpp"

#include "pairwise/cpu/passes.hpp"

namespace gdp::syntenic {

std::vector<Region> regions_of(const std::vector<Step>& steps, Residues a, Residues b, const ScoringScheme& scheme,
                               const Costs& c) {
  std::vector<Region> regions;
  std::int64_t i = 0, j = 0;
  Op last_gap = Op::match;  // the op of the previous column, when a gap
  for (const Step& step : steps) {
    const bool in_block = step.kind == Step::block_query || step.kind == Step::block_target;
    const bool opens = regions.empty() || regions.back().block != in_block || (in_block && step.starts);
    if (opens) {
      regions.push_back({in_block, i, i, j, j, in_block ? -c.block : 0, {}});
      last_gap = Op::match;
    }
    Region& r = regions.back();
    switch (step.kind) {
      case Step::pair: {
        const std::uint8_t x = a[static_cast<std::size_t>(i)], y = b[static_cast<std::size_t>(j)];
        r.score += scheme.score(x, y);
        pairwise::push_run(r.cigar, x == y ? Op::match : Op::mismatch, 1);
        ++i, ++j;
        last_gap = Op::match;
        break;
      }
      case Step::query_gap:
      case Step::target_gap: {
        const Op op = step.kind == Step::query_gap ? Op::insertion : Op::deletion;
        r.score -= last_gap == op ? c.extend : c.open_extend;
        pairwise::push_run(r.cigar, op, 1);
        (step.kind == Step::query_gap ? i : j) += 1;
        last_gap = op;
        break;
      }
      case Step::block_query: ++i; break;
      case Step::block_target: ++j; break;
    }
    r.query_end = i;
    r.target_end = j;
  }
  return regions;
}

}  // namespace gdp::syntenic
