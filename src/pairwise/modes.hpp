#pragma once
// The shape of each user-visible mode, and the 16-bit passes' bound.
#include <algorithm>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

inline Shape shape_of(Mode mode, const ScoringScheme& s) {
  switch (mode) {
    case Mode::local: return {true, true, 0, End::anywhere};
    case Mode::global: return {false, false, s.gap_open, End::corner};
    case Mode::semiglobal: return {false, true, s.gap_open, End::last_row};
  }
  return {};
}

// The rule of every 16-bit pass (striped, database search, CPU lanes): a
// score at or above this may have wrapped, and is computed again in 32 bits.
inline int overflow_bound16(const ScoringScheme& s) { return 32767 - std::max(s.max_abs_score(), 1); }

}  // namespace gdp::pairwise
