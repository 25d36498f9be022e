// The full matrix of direction bits and a traceback from (m, n): the
// reference alignment, for small pairs and tests.
#include <algorithm>
#include <vector>

#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {
namespace {

enum class State { s, d, i, h };

// The steps of the traceback, last first.
class Trace {
 public:
  void add(Step::Kind kind, std::int64_t count = 1) {
    for (std::int64_t k = 0; k < count; ++k) steps_.push_back({kind, false});
  }
  void start_block() { steps_.back().starts = true; }  // the step just added opens its block
  std::vector<Step> forward() const { return {steps_.rbegin(), steps_.rend()}; }

 private:
  std::vector<Step> steps_;
};

}  // namespace

Alignment align_full_matrix(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c) {
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  const std::int64_t w = n + 1;
  std::vector<std::uint8_t> dirs(static_cast<std::size_t>((m + 1) * w));
  auto at = [w](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * w + j); };
  std::vector<Down> down(static_cast<std::size_t>(n + 1));
  down[0] = top_origin(c);
  for (std::int64_t j = 1; j <= n; ++j) down[static_cast<std::size_t>(j)] = top(c, j);
  for (std::int64_t i = 1; i <= m; ++i) {
    Edge edge = left(c, i);
    int diag = down[0].s;
    down[0] = {edge.s, left_d(c, i), edge.h};
    for (std::int64_t j = 1; j <= n; ++j) {
      Down& cell = down[static_cast<std::size_t>(j)];
      const int above = cell.s;
      dirs[at(i, j)] = static_cast<std::uint8_t>(update_cell(
          diag, scheme.score(a[static_cast<std::size_t>(i - 1)], b[static_cast<std::size_t>(j - 1)]), cell, edge, c));
      diag = above;
    }
  }
  const Down& last = down[static_cast<std::size_t>(n)];
  Alignment out;
  out.score = final_score(c, last.s, last.h);
  out.query_end = m;
  out.target_end = n;

  // Ends in a block when that scores more than ending with the end's charge.
  State state = c.charged && last.h > last.s - c.block ? State::h : State::s;
  Trace trace;
  std::int64_t i = m, j = n;
  while (i > 0 || j > 0) {
    if (j == 0 || i == 0) {  // the boundary: a leading gap run, or a leading block
      const std::int64_t k = std::max(i, j);
      const bool gap_run = state == State::d || state == State::i ||
                           (state == State::s && leading_gap(c, k) >= -c.block);
      if (gap_run) {
        trace.add(j == 0 ? Step::query_gap : Step::target_gap, k);
      } else {
        trace.add(j == 0 ? Step::block_query : Step::block_target, k);
        trace.start_block();
      }
      break;
    }
    const unsigned d = dirs[at(i, j)];
    switch (state) {
      case State::s:
        switch (d & kSMask) {
          case kSFromDiag: trace.add(Step::pair), --i, --j; break;
          case kSFromD: state = State::d; break;
          case kSFromI: state = State::i; break;
          default: state = State::h; break;
        }
        break;
      case State::d:
        trace.add(Step::query_gap);
        if (d & kDOpen) state = State::s;
        --i;
        break;
      case State::i:
        trace.add(Step::target_gap);
        if (d & kIOpen) state = State::s;
        --j;
        break;
      case State::h:
        switch (d & kHMask) {
          case kHFromHLeft: trace.add(Step::block_target), --j; break;
          case kHFromHUp: trace.add(Step::block_query), --i; break;
          case kHFromSLeft: trace.add(Step::block_target), trace.start_block(), --j, state = State::s; break;
          default: trace.add(Step::block_query), trace.start_block(), --i, state = State::s; break;
        }
        break;
    }
  }
  out.regions = regions_of(trace.forward(), a, b, scheme, c);
  return out;
}

}  // namespace gdp::syntenic
