#pragma once
// The shape of each user-visible mode.
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

}  // namespace gdp::pairwise
