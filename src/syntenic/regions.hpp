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

// Appends the step a traceback's move makes (none for Move::none) to
// `back` (the steps last first), and moves (i, j) back over its letters.
inline void take_step(Move move, std::vector<Step>& back, std::int64_t& i, std::int64_t& j) {
  switch (move) {
    case Move::diagonal: back.push_back({Step::pair}), --i, --j; break;
    case Move::query_gap: back.push_back({Step::query_gap}), --i; break;
    case Move::target_gap: back.push_back({Step::target_gap}), --j; break;
    case Move::block_query: back.push_back({Step::block_query}), --i; break;
    case Move::block_target: back.push_back({Step::block_target}), --j; break;
    case Move::block_query_first: back.push_back({Step::block_query, true}), --i; break;
    case Move::block_target_first: back.push_back({Step::block_target, true}), --j; break;
    case Move::none: break;
  }
}

// The step of a character the chunked walk records (SyntenicCell::trace_op).
inline Step step_of_op(char op) {
  switch (op) {
    case 'M': return {Step::pair};
    case 'I': return {Step::query_gap};
    case 'D': return {Step::target_gap};
    case 'q': return {Step::block_query};
    case 't': return {Step::block_target};
    case 'Q': return {Step::block_query, true};
    default: return {Step::block_target, true};  // 'T'
  }
}

// The matching regions and difference blocks the steps make, in order, with
// their ranges, scores and CIGARs.
std::vector<Region> regions_of(const std::vector<Step>& steps, Residues a, Residues b, const ScoringScheme& scheme,
                               const Costs& costs);

}  // namespace gdp::syntenic
