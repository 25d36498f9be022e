#pragma once
// An alignment as steps from (0, 0) to (m, n), and its regions.
#include <cstdint>
#include <vector>

#include "core/scoring.hpp"
#include "syntenic/recurrence.hpp"
#include "syntenic/syntenic.hpp"

namespace gdp::syntenic {

// One step: a column (a pair; a query letter against a gap; a target
// letter against a gap), or a letter inside a difference block, `starts`
// on each block's first letter.
struct Step {
  enum Kind : std::uint8_t { pair, query_gap, target_gap, block_query, block_target } kind;
  bool starts = false;
};

// The matching regions and difference blocks the steps make, in order, with
// their ranges, scores and CIGARs.
std::vector<Region> regions_of(const std::vector<Step>& steps, Residues a, Residues b, const ScoringScheme& scheme,
                               const Costs& costs);

}  // namespace gdp::syntenic
