#pragma once
// The CPU engines' passes. Internal to the engine (and its tests).
#include <functional>
#include <optional>
#include <vector>

#include "align3/align3.hpp"

namespace gdp::align3 {

// H(|a|, j, k) for every j, k (at [j * (|c| + 1) + k]): the cube by
// anti-diagonal planes, each plane's cells on `threads` OpenMP threads.
// Each plane's cells are added to `progress`, if set.
std::vector<int> last_layer(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int threads,
                            Progress* progress = nullptr);

// The score by last_layer: the oracle's, in parallel.
int score_wavefront(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int threads);

// An optimal alignment in O(|b| |c|) memory (Hirschberg's division in three
// dimensions, Huang 1993): the path's point on the middle layer of a from
// a forward and a backward pass; parts of at most base_cells cells through
// the full cube.
Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int threads,
                       long long base_cells = 1 << 18);

// The same with each forward and backward pass run by `layer` (the GPU's,
// or the CPU's), which returns what last_layer returns, and the parts
// through the full cube on leaf_threads threads.
using LayerPass = std::function<std::vector<int>(Residues a, Residues b, Residues c)>;
Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const LayerPass& layer, long long base_cells = 1 << 18, int leaf_threads = 1);

// Where an optimal path from (0, 0, 0) to (|top| + |bottom|, |b|, |c|)
// crosses the layer i = |top|: the (j, k) of the best sum of H(|top|, j, k)
// (a pass over top, b, c) and H(|bottom|, |b| - j, |c| - k) over the
// reversed bottom, b and c; the first in (j, k) order of equal sums.
struct SplitPoint {
  std::size_t j = 0, k = 0;
  // The best path's score through (|top|, j, k): the cube's score.
  long long sum = 0;
};
using SplitPass = std::function<SplitPoint(Residues top, Residues bottom, Residues b, Residues c)>;

// A sequence backwards: what the backward pass of a split reads.
std::vector<std::uint8_t> reversed(Residues r);

// The split point from two of `layer`'s passes, scanned here.
SplitPass split_by_layers(const LayerPass& layer);

// align_linear with each middle layer's split point found by `split`.
Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const SplitPass& split, long long base_cells, int leaf_threads);

// A cell of the cube: i letters of a, j of b and k of c before it.
struct CubePoint {
  std::size_t i = 0, j = 0, k = 0;
  bool operator==(const CubePoint&) const = default;
};

// Cells that an optimal path from (0, 0, 0) to (|a|, |b|, |c|) goes
// through, in its order, those two first and last; or nothing, where the
// finder declines the cube (the three-phase traceback's first two phases,
// gpu_pass.hpp, when its faces do not fit the device).
using ChainPass = std::function<std::optional<std::vector<CubePoint>>(Residues a, Residues b, Residues c)>;

// align_linear where `chain` (if set) cuts a part at its cells before the
// division does: the pieces between them are aligned on their own (each
// through the full cube, or divided again without `chain`).
Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const SplitPass& split, const ChainPass& chain, long long base_cells, int leaf_threads);

}  // namespace gdp::align3
