#pragma once
// One pair's local score pass over several GPUs (Options::devices). The
// target is cut into one range of columns a device, computed side by side.
// Every range but the first starts fresh, as if the matrix began at its
// left edge (H = 0 down it), in two parts: [begin, probe) and [probe, end).
// Once the range on its left is exact, that range's device computes the
// first part again from the true edge: where its edge at `probe` equals the
// fresh run's, the two runs are the same from there on (a column's cells
// read nothing from the left but that edge), so the fresh second part's
// best cell and right edge stand; where not, the second part is computed
// again too. Exact either way. Where the pair is unrelated across the cuts
// (a random or divergent pair: a local alignment forgets its left edge
// within a few hundred columns) it takes about one GPU's time over their
// number; where a long alignment crosses a cut, about one GPU's.
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/gpu_tuning.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// Range d of a target of n columns over `devices` devices: columns
// [begin, end), and for d > 0 its first part's end, begin < probe < end,
// each but n a multiple of striped::kMaxStripWidth (a pass's right edge is
// its last strip's). The first part is about 1/32 of a device's share;
// every device's columns, with the first part of the next range it
// computes again, come to about the same. n must be at least
// spread_min_columns(devices).
struct SpreadRange {
  std::int64_t begin = 0, probe = 0, end = 0;
};
std::vector<SpreadRange> spread_ranges(std::int64_t n, std::size_t devices);
std::int64_t spread_min_columns(std::size_t devices);

// Whether a pass of this shape, of n columns, may be spread over
// `devices`: a local pass ending anywhere, no row handed back, at least
// kSpreadColumns a device.
inline constexpr std::int64_t kSpreadColumns = std::int64_t{1} << 20;
bool spread_pass_takes(const Shape& shape, LastRow last_row, std::int64_t n, std::size_t devices);

// The pass, as score_pass_scalar's: the same score and end cell (ties
// included). Its cells are added to `progress` once (the parts computed
// again are not counted); the ranges whose fresh second part stood, to
// `fresh_stood`, if set. Throws RunError on a CUDA failure or without CUDA.
PassResult spread_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                       const std::vector<int>& devices, const GpuTuning& tuning, Progress* progress,
                       std::atomic<int>* fresh_stood = nullptr);

}  // namespace gdp::pairwise
