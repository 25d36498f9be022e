#pragma once
// The CPU engines' passes and the alignment builders on top of them.
// Internal to the engine (and its tests).
#include <cstdint>
#include <vector>

#include "core/scoring.hpp"
#include "syntenic/borders.hpp"
#include "syntenic/recurrence.hpp"
#include "syntenic/regions.hpp"
#include "syntenic/syntenic.hpp"

namespace gdp {
class Progress;
}

namespace gdp::syntenic {

inline Costs costs_of(const ScoringScheme& s, const Options& o) {
  return {s.gap_open + s.gap_extend, s.gap_extend, o.block_penalty, o.ends == Ends::charged};
}

// S and H of the last cell, (m, n): the score is final_score(costs, s, h).
struct LastCell {
  int s = 0, h = 0;
};

// The oracle: row by row, one cell at a time, in linear memory.
LastCell score_scalar(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                      Progress* progress = nullptr);

// Blocked anti-diagonals of tiles, in parallel with OpenMP; the oracle's
// result. side 0 chooses the tile from the matrix and leaves small matrices
// to the scalar pass; tests force other sides.
LastCell score_tiled(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int threads,
                     Progress* progress = nullptr, std::int64_t side = 0);

// Row m (S, D, H at j = 0..n) of a part with these borders, in parallel
// with OpenMP (side 0: tiles chosen by the part's shape).
std::vector<Down> last_row_tiled(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                                 const Borders& borders, int threads, Progress* progress = nullptr,
                                 std::int64_t side = 0);

// Full matrix of direction bits and a traceback: (m+1)(n+1) bytes.
Alignment align_full_matrix(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs);

// The same optimum in linear memory (Myers-Miller over the four states,
// cpu/linear_space.cpp); parts of at most base_cells cells go through a
// full matrix (tests force small ones).
// Its passes run where `options` say (backend, threads, device,
// min_gpu_cells); options.progress gets the cells.
Alignment align_linear(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, const Options& options,
                       std::int64_t base_cells = std::int64_t{1} << 16);

}  // namespace gdp::syntenic
