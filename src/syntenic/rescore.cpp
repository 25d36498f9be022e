// An alignment's score from its regions, checking that they cover both
// sequences exactly once.
#include <stdexcept>
#include <string>

#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {
namespace {

[[noreturn]] void fail(std::size_t r, const std::string& what) {
  throw std::logic_error("region " + std::to_string(r) + ": " + what);
}

// A matching region's score from its CIGAR, which must consume its ranges.
int region_score(const Region& region, std::size_t r, Residues a, Residues b, const ScoringScheme& scheme,
                 const Costs& c) {
  std::int64_t i = region.query_begin, j = region.target_begin;
  int score = 0;
  for (const CigarRun& run : region.cigar) {
    if (run.length <= 0) fail(r, "an empty CIGAR run");
    switch (run.op) {
      case Op::match:
      case Op::mismatch:
        for (std::int64_t k = 0; k < run.length; ++k, ++i, ++j) {
          if (i >= region.query_end || j >= region.target_end) fail(r, "the CIGAR runs past the region");
          const std::uint8_t x = a[static_cast<std::size_t>(i)], y = b[static_cast<std::size_t>(j)];
          if ((x == y) != (run.op == Op::match)) fail(r, "CIGAR =/X disagrees with the letters");
          score += scheme.score(x, y);
        }
        break;
      case Op::insertion:
        score -= c.open_extend + static_cast<int>(run.length - 1) * c.extend;
        i += run.length;
        break;
      case Op::deletion:
        score -= c.open_extend + static_cast<int>(run.length - 1) * c.extend;
        j += run.length;
        break;
    }
  }
  if (i != region.query_end || j != region.target_end) fail(r, "the CIGAR does not cover the region");
  return score;
}

}  // namespace

int rescore(const Alignment& al, Residues a, Residues b, const ScoringScheme& scheme, const Options& o) {
  const Costs c = costs_of(scheme, o);
  std::int64_t i = 0, j = 0;
  int total = 0;
  for (std::size_t r = 0; r < al.regions.size(); ++r) {
    const Region& region = al.regions[r];
    if (region.query_begin != i || region.target_begin != j) fail(r, "does not start where the last one ended");
    if (region.query_end < i || region.target_end < j) fail(r, "ends before it starts");
    if (region.query_end == i && region.target_end == j) fail(r, "is empty");
    const int score = region.block ? -c.block : region_score(region, r, a, b, scheme, c);
    if (score != region.score) fail(r, "its score is " + std::to_string(region.score) + ", its columns " + std::to_string(score));
    for (std::size_t k = 0; k + 1 < region.cigar.size(); ++k)
      if (region.cigar[k].op == region.cigar[k + 1].op) fail(r, "two CIGAR runs of one op in a row");
    total += score;
    i = region.query_end;
    j = region.target_end;
  }
  if (i != static_cast<std::int64_t>(a.size()) || j != static_cast<std::int64_t>(b.size()))
    throw std::logic_error("the regions do not cover both sequences");
  return total + end_charges(al, o.ends, o.block_penalty);
}

int end_charges(const Alignment& a, Ends ends, int block_penalty) {
  if (ends != Ends::charged) return 0;
  const bool starts_in_block = !a.regions.empty() && a.regions.front().block;
  const bool ends_in_block = !a.regions.empty() && a.regions.back().block;
  return -block_penalty * ((starts_in_block ? 0 : 1) + (ends_in_block ? 0 : 1));
}

}  // namespace gdp::syntenic
