#pragma once
// Score passes over the whole matrix in linear memory, and the alignment
// builders on top of them. Internal to the engine (and its tests).
#include <cstdint>
#include <algorithm>
#include <functional>
#include <span>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp {
class Progress;
}

namespace gdp::pairwise {


inline GapCosts gap_costs(const ScoringScheme& s) { return {s.gap_open + s.gap_extend, s.gap_extend}; }

// The oracle: row by row, one cell at a time.
PassResult score_pass_scalar(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                             LastRow last_row = {}, Progress* progress = nullptr);

// Blocked anti-diagonals of tiles, in parallel with OpenMP. Same result as
// the oracle, ties included. tile_side 0 chooses the size from the matrix and
// leaves small matrices to the scalar pass; tests force other sizes.
PassResult score_pass_tiled(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
                            LastRow last_row = {}, Progress* progress = nullptr, std::int64_t tile_side = 0);

// A score pass's result as a score-only alignment in `mode`: the end, and
// the begin where the mode fixes it (global; the empty local alignment).
Alignment score_only_alignment(const PassResult& end, Mode mode);

// Full-matrix Gotoh with traceback: O(m*n) memory, for tests and tiny pairs.
Alignment align_full_matrix(Residues q, Residues t, const ScoringScheme& scheme, Mode mode);

// Runs one pass on the backend of `options` (pass_runner.cpp); the GPU hands
// passes under options.min_gpu_cells to the OpenMP pass.
PassResult run_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, const Options& options,
                    LastRow last_row = {});

// The ends of one of Myers-Miller's sub-problems, a global alignment: a
// vertical gap (query letters against none) from the top-left corner opens
// at `top_open`, one into the bottom-right corner at `bottom_open`; 0 where
// it goes on from the caller's gap. Other gaps open at the scheme's cost.
struct GapEnds {
  int top_open = 0, bottom_open = 0;
};

// Solves a sub-problem whole where it can: appends an optimal alignment's
// runs to `cigar` and returns true, or returns false and leaves it to the
// passes.
using WholeAligner = std::function<bool(Residues q, Residues t, GapEnds ends, Cigar& cigar)>;

// Myers-Miller divide and conquer: an optimal global alignment of q and t
// in linear memory (gaps at both ends cost the full open), its passes run
// by run_pass; each sub-problem, the whole first, is offered to `whole`
// first, if given. Appends to cigar and returns the alignment's score.
int align_linear_global(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                        const WholeAligner& whole = {});

// The end of every pass: `h` and `f` are row m (h[0] = H(m,0)); `anywhere`
// is the best cell seen, for End::anywhere. Applies the end rule and hands
// out the last row if asked.
inline PassResult finish_pass(const std::vector<int>& h, const std::vector<int>& f, std::int64_t m, const Shape& shape,
                              PassResult anywhere, LastRow last_row) {
  const std::int64_t n = static_cast<std::int64_t>(h.size()) - 1;
  PassResult best = anywhere;
  if (shape.end == End::corner) best = {h[n], m, n};
  if (shape.end == End::last_row) {
    best = {h[0], m, 0};
    for (std::int64_t j = 1; j <= n; ++j)
      if (h[j] > best.score) best = {h[j], m, j};
  }
  if (last_row.h) {
    std::copy(h.begin(), h.end(), last_row.h);
    std::copy(f.begin(), f.end(), last_row.f);
    last_row.f[0] = h[0];
  }
  return best;
}

// Appends a run, merging with the last one when the operation repeats.
inline void push_run(Cigar& cigar, Op op, std::int64_t length) {
  if (length <= 0) return;
  if (!cigar.empty() && cigar.back().op == op)
    cigar.back().length += length;
  else
    cigar.push_back({op, length});
}

}  // namespace gdp::pairwise
