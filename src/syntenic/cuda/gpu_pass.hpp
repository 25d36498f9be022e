#pragma once
// The GPU score pass: the same contract as the CPU passes (cpu/passes.hpp),
// computed by the strip engine's kernel with the syntenic cell
// (syntenic_score.cu). Plain C++: no CUDA types.
#include "pairwise/gpu_tuning.hpp"
#include "syntenic/cpu/passes.hpp"

namespace gdp::syntenic {

// S and H of (m, n), as score_scalar. Throws RunError on a CUDA failure,
// when the pair does not fit the device, and when this build has no CUDA
// (gpu_pass.cpp). `tuning`: lane_columns, group, blocks_per_sm, max_slots
// and piece_columns as for gpu-sw's 32-bit kernel.
LastCell score_pass_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                        const pairwise::GpuTuning& tuning = {});

// Row m (S, D, H at j = 0..n) of a part with these borders (borders.hpp),
// as the CPU's last_row_tiled.
std::vector<Down> last_row_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                               const Borders& borders, int device, const pairwise::GpuTuning& tuning = {});

// The .cu file's side (CUDA builds only): the pass, with recurrence.hpp's
// boundaries or with `borders`, and row m wanted whole in `row`, or only
// its last cell.
LastCell striped_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                       pairwise::GpuTuning tuning, const Borders* borders, std::vector<Down>* row);
GpuStats& gpu_stats_counters();

}  // namespace gdp::syntenic
