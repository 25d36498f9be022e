#pragma once
// Local score passes of one query against many targets at once on the CPU:
// each target a 16-bit lane of a vector (SWIPE's inter-sequence layout),
// rows outer, so that the first best cell in row-major order is kept, as
// the oracle keeps it. A lane whose score reaches the 16-bit bound
// (modes.hpp's overflow_bound16) is reported, for a rescore in 32 bits.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

inline constexpr int kScoreLanes = 32;  // one AVX-512 vector, two AVX2 ones
// A lane group's profile (letters x columns vectors) takes at most this;
// longer targets stay with the one-pair paths.
inline constexpr std::size_t kScoreLanesProfileBytes = std::size_t{32} << 20;
// The longest target the lanes take with this scoring: what the profile's
// bytes allow, at most 65,536 (a lane's end column in 16 bits).
std::size_t score_lanes_max_target(const ScoringScheme& scheme);

// Whether the lanes take passes of this shape and scoring: local, every
// value of a pass far inside 16 bits until the score nears the bound.
bool score_lanes_can_run(const ScoringScheme& scheme, const Shape& shape);

// The variants this CPU runs, widest first: "avx512" (AVX-512BW), "avx2",
// "baseline" (the compiler's default, SSE2 on x86-64).
std::vector<std::string> score_lanes_variants();

// The local score pass of `q` against each of `targets` (at most
// kScoreLanes, each of 1 to score_lanes_max_target letters) into out[k], as
// score_pass_scalar's, or overflowed[k] set (and out[k] meaningless); on
// `variant`, or the widest this CPU runs.
void score_lanes(Residues q, std::span<const Residues> targets, const ScoringScheme& scheme, PassResult* out,
                 bool* overflowed, const std::string& variant = {});

}  // namespace gdp::pairwise
