#pragma once
// The GPU score pass: the same contract as the CPU passes (cpu/passes.hpp),
// computed by the strip engine's kernel with the syntenic cell
// (syntenic_score.cu). Plain C++: no CUDA types.
#include <optional>

#include "pairwise/gpu_tuning.hpp"
#include "syntenic/cpu/passes.hpp"

namespace gdp::pairwise::striped {
template <class Types>
struct Kept;
}

namespace gdp::syntenic {

// S and H of (m, n), as score_scalar. Throws RunError on a CUDA failure,
// when the pair does not fit the device, and when this build has no CUDA
// (gpu_pass.cpp). `tuning`: lane_columns, group, blocks_per_sm, max_slots
// and piece_columns as for gpu-sw's 32-bit kernel. Its m n cells are added
// to `progress`, if set, as the kernel goes.
LastCell score_pass_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                        const pairwise::GpuTuning& tuning = {}, Progress* progress = nullptr);

// The same, the pass chained over `devices` (a device may be listed more
// than once) where chained_score_takes it, its pieces dealt to them in
// turn, each handing its right edge to the next (as gpu-sw's chained pass,
// pairwise/cuda/gpu_pass.hpp); else on the first device. `cuts`, if set:
// the chained pass's pieces' cuts (chained_cuts), or none.
LastCell score_pass_gpus(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                         const std::vector<int>& devices, const pairwise::GpuTuning& tuning = {},
                         Progress* progress = nullptr, std::vector<long long>* cuts = nullptr);
// Whether a pass of m x n chains over this many places: two or more, and
// at least pairwise::kChainColumns target columns a place.
bool chained_score_takes(std::int64_t m, std::int64_t n, std::size_t places);

// Row m (S, D, H at j = 0..n) of a part with these borders (borders.hpp),
// as the CPU's last_row_tiled.
std::vector<Down> last_row_gpu(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                               const Borders& borders, int device, const pairwise::GpuTuning& tuning = {},
                               Progress* progress = nullptr);

// An alignment by the chunked traceback (syntenic_traceback.cu): a kept
// score pass, then the walk back from (m, n) through the chunks on the
// path, recomputed with the direction bits (dissertation section 6.3,
// CHUNKED2D). The same alignment as align_full_matrix. nullopt when the
// kept edges would take more than half the free device memory, or without
// CUDA. The score pass's cells are added to `score`, the walk's progress
// to `traceback` (its total set here), either if set.
std::optional<Alignment> align_gpu_chunked(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                                           int device, Progress* score = nullptr, Progress* traceback = nullptr);

// The .cu files' side (CUDA builds only): the pass, with recurrence.hpp's
// boundaries or with `borders`, and row m wanted whole in `row`, or only
// its last cell; `kept` not null: a kept pass (strip edges and checkpoint
// rows left on the device for the traceback).
struct CellTypes;
LastCell striped_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs, int device,
                       pairwise::GpuTuning tuning, const Borders* borders, std::vector<Down>* row,
                       pairwise::striped::Kept<CellTypes>* kept = nullptr, Progress* progress = nullptr);
// score_pass_gpus's chained pass; `cuts`: its pieces' (chained_cuts).
LastCell chained_score(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                       const std::vector<int>& devices, const pairwise::GpuTuning& tuning, Progress* progress,
                       std::vector<long long>* cuts);
std::optional<Alignment> chunked_alignment(Residues a, Residues b, const ScoringScheme& scheme, const Costs& costs,
                                           int device, Progress* score, Progress* traceback);
// Device memory a kept pass of m x n needs beyond an ordinary one.
long long kept_bytes(long long m, long long n);
// Adds to gpu_stats(): passes and kernel seconds summed, the memory the
// largest. Safe from several threads (one a device under Options::devices).
void add_gpu_stats(int passes, double kernel_seconds, std::size_t memory_bytes);

}  // namespace gdp::syntenic
