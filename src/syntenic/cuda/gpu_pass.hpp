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

// The .cu file's side (CUDA builds only).
LastCell striped_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                       pairwise::GpuTuning tuning);
GpuStats& gpu_stats_counters();

}  // namespace gdp::syntenic
