#pragma once
// Score passes over the whole matrix in linear memory, and the alignment
// builders on top of them. Internal to the engine (and its tests).
#include <cstdint>
#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/saved_rows.hpp"
#include "pairwise/shape.hpp"

namespace gdp {
class Progress;
}

namespace gdp::pairwise {


inline GapCosts gap_costs(const ScoringScheme& s) { return {s.gap_open + s.gap_extend, s.gap_extend}; }

// The oracle: row by row, one cell at a time; every saved->every-th row
// into `saved` too, if given.
PassResult score_pass_scalar(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                             LastRow last_row = {}, Progress* progress = nullptr, SavedRows* saved = nullptr);

// How score_pass_tiled cuts the matrix and prunes it. tile_side 0 chooses
// the size from the matrix and leaves small matrices to the scalar pass;
// tests force other sizes. Local passes for the best cell anywhere (and no
// last row) skip the tiles that cannot beat the best score found
// (pruning.hpp) unless `prune` is false; pruned_cells, where given, gets
// the cells of the tiles skipped.
struct TiledPass {
  std::int64_t tile_side = 0;
  bool prune = true;
  std::int64_t* pruned_cells = nullptr;
};

// Blocked anti-diagonals of tiles, in parallel with OpenMP. Same result as
// the oracle, ties included.
PassResult score_pass_tiled(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int threads,
                            LastRow last_row = {}, Progress* progress = nullptr, TiledPass how = {});

// A score pass's result as a score-only alignment in `mode`: the end, and
// the begin where the mode fixes it (global; the empty local alignment).
Alignment score_only_alignment(const PassResult& end, Mode mode);

// Full-matrix Gotoh with traceback: O(m*n) memory, for tests and tiny pairs.
Alignment align_full_matrix(Residues q, Residues t, const ScoringScheme& scheme, Mode mode);

// Runs one pass on the backend of `options` (pass_runner.cpp); the GPU hands
// passes under options.min_gpu_cells to the OpenMP pass.
PassResult run_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, const Options& options,
                    LastRow last_row = {});

// The ends of one of Myers-Miller's sub-problems: a vertical gap (query
// letters against none) from the top-left corner opens at `top_open`, one
// into the bottom-right corner at `bottom_open`; 0 where it goes on from
// the caller's gap. Other gaps open at the scheme's cost.
struct GapEnds {
  int top_open = 0, bottom_open = 0;
};

// A sub-problem: the best path from the top-left corner of q x t (or, with
// local_start, from anywhere, as a local alignment starts; top_open is then
// unused) to its bottom-right corner.
struct Part {
  Residues q, t;
  GapEnds ends;
  bool local_start = false;
};
// Where a part's path starts in q x t: (0, 0) unless local_start.
struct PartStart {
  std::int64_t i = 0, j = 0;
};

// Solves a part whole where it can, under the options its passes run with
// (their device): appends an optimal path's runs to `cigar` and returns
// its start, or returns nullopt and leaves it to the passes.
using WholeAligner = std::function<std::optional<PartStart>(const Part& part, const Options& options, Cigar& cigar)>;

// Myers-Miller divide and conquer: an optimal global alignment of q and t
// in linear memory (gaps at both ends cost the full open), its passes run
// by run_pass; each part, the whole first, is offered to `whole` first,
// if given. Appends to cigar and returns the alignment's score.
int align_linear_global(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                        const WholeAligner& whole = {});

// The same for a local alignment that ends at the last cell of q x t and
// may start anywhere: each part splits at its middle row into a part
// with a local start above (found by a local pass over the upper half and
// a reverse pass over the lower) and a global one below, unless the
// reverse pass finds the best start in the lower half itself. No pass
// looks for the start over the whole matrix first. Appends to cigar and
// returns the alignment's score and its start.
int align_linear_local_end(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                           PartStart& start, const WholeAligner& whole = {});

// What align_by_saved_rows' reverse passes covered: bands, cells, and the
// bands that went over all their columns after their window missed (none
// where each band's score to beat was exact).
struct SavedRowsSplit {
  std::int64_t bands = 0, cells = 0, widened = 0;
};

// An optimal alignment of q x t that ends at its last cell, global (from
// its first cell, gaps at both ends at the full open) or local (from
// anywhere), from the rows a forward pass of that shape over q and a
// longer t saved on its way (`saved`, the pass from q's first letter and
// t's; `score`, its best path's to q x t's last cell): reverse passes from
// the end, each over the band of rows up to the next saved row above, find
// where the path crosses each saved row, or, local, that it starts in the
// band; the parts between the crossings go to Myers-Miller (and `whole`).
// A band's pass covers the columns from the first through which a path
// could still reach the score to beat (about as many as the band has rows,
// on similar pairs), all of them where that window misses it. The parts
// are independent: with part_threads > 1 they are aligned on that many
// threads (`whole` too, then, must be safe to call from several), each as
// soon as its crossing is known, and where options.devices lists several
// GPUs, each part's passes (and `whole`) run on the one that runs the
// fewest parts then. Appends to cigar and returns the score, and the
// start.
int align_by_saved_rows(Residues q, Residues t, const ScoringScheme& scheme, bool local, const SavedRows& saved,
                        int score, const Options& options, Cigar& cigar, PartStart& start,
                        const WholeAligner& whole = {}, SavedRowsSplit* split = nullptr, int part_threads = 1);

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
