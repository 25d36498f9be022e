#pragma once
// The CPU engines' passes. Internal to the engine (and its tests).
#include <functional>
#include <vector>

#include "align3/align3.hpp"

namespace gdp::align3 {

// H(|a|, j, k) for every j, k (at [j * (|c| + 1) + k]): the cube by
// anti-diagonal planes, each plane's cells on `threads` OpenMP threads.
std::vector<int> last_layer(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int threads);

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

}  // namespace gdp::align3
