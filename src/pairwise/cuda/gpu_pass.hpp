#pragma once
// The GPU passes: the same contract as the CPU passes (cpu/passes.hpp),
// computed by the striped kernels (striped_score.cu, striped_score16.cu,
// striped_rows16.cu), and the chunked traceback. Plain C++: no CUDA types,
// so the engine's other files need no nvcc. The entry points are defined in
// gpu_pass.cpp, which says so where the build has no CUDA; the functions
// they call are the .cu files'.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/locked.hpp"
#include "core/scoring.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/gpu_tuning.hpp"
#include "pairwise/saved_rows.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// Same score, end cell (ties included) and last row as score_pass_scalar.
// Throws RunError on a CUDA failure or when the pair does not fit in the
// device's memory, and when this build has no CUDA.
// Its cells are added to `progress`, if set, as the kernel goes. A pass of
// no last row saves itself to `checkpoint` where one is wanted, and goes on
// from it (pass_checkpoint.hpp); it throws Stopped at its stop_at.
PassResult score_pass_gpu(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                          LastRow last_row = {}, GpuTuning tuning = {}, Progress* progress = nullptr,
                          const PassCheckpoint* checkpoint = nullptr);

// The edges of a pass over part of a longer target (striped_pass_between):
// rows 1..m of a column, H then E of each (2m values).
struct PassEdges {
  const std::vector<std::int32_t>* left = nullptr;  // the column left of the part's first; null: the matrix's left boundary
  std::vector<std::int32_t>* right = nullptr;       // gets the part's last column, where not null
};

// A local score pass (End::anywhere) of q against `t`, a part of a longer
// target (spread_pass.hpp): from the edge `edges.left` (else the matrix's
// left boundary: a fresh start), its last column's edge to `edges.right`.
// The end cell's j counts from t's start; q and t not empty. An edge whose
// values the 16-bit kernels cannot hold starts the pass where an
// overflowing one goes on (the rebased kernel, or 32 bits).
PassResult score_pass_gpu_between(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                                  const GpuTuning& tuning, Progress* progress, const PassEdges& edges);

// The same pass (local End::anywhere, or global End::corner), saving every
// saved.every-th row (a power of two) into `saved` as score_pass_scalar
// does, for align_by_saved_rows. In the rebased 16-bit kernel; nullopt
// where it cannot run the pass (the scoring leaves it too few rows a base,
// or the rows would not fit in a quarter of the free memory), saves no
// row, or every is no power of two. Over `devices`, where they are
// several and chained_pass takes the pass, else on `device`.
std::optional<PassResult> score_pass_gpu_saving(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                                int device, GpuTuning tuning, Progress* progress, SavedRows& saved,
                                                const std::vector<int>& devices = {});

// Whether chained_pass takes a pass of this shape and n columns over this
// many places: a local pass ending anywhere or a global one ending at the
// corner, no row handed back, at least kChainColumns a place.
inline constexpr std::int64_t kChainColumns = std::int64_t{1} << 16;
bool chained_pass_takes(const Shape& shape, LastRow last_row, std::int64_t n, std::size_t places);

// One pair's score pass chained over `devices` (its places; a device may
// be listed more than once), as CUDAlign 4.0 chains GPUs: the target in
// pieces of one wave of strips each, dealt to the places in turn; each
// piece's left edge arrives from the place before as that place's piece
// computes it (written into this device's memory by the other, a flag
// every 64 rows; through host memory where the GPUs cannot reach each
// other). In the rebased 16-bit kernel (or 32 bits), which never stops
// early. The same score and end cell as score_pass_gpu; with `saved`, its
// rows too, as score_pass_gpu_saving saves them (nullopt where that
// declines). Its cells are added to `progress` as the places go.
std::optional<PassResult> chained_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                       const std::vector<int>& devices, GpuTuning tuning, Progress* progress,
                                       SavedRows* saved = nullptr);

// A full alignment by the chunked traceback (chunked_traceback.cu): the
// score pass keeps its strip edges and checkpoint rows, then the chunks on
// the path are recomputed and traced. Same score and end cell as the
// oracle; an optimal path whose CIGAR re-scores to it (ties may differ, and
// with them the start of a local alignment). nullopt when the kept edges
// would take more than max_bytes of device memory (0: half the free
// memory), or without CUDA. The score pass's cells are added to `score`,
// the walk's progress to `traceback` (its total set here), either if set.
// `tuning`: the kept pass's knobs, as a score pass's (bits, lane_columns).
std::optional<Alignment> align_gpu_chunked(Residues q, Residues t, const ScoringScheme& scheme, Mode mode,
                                           int device, std::int64_t max_bytes = 0, Progress* score = nullptr,
                                           Progress* traceback = nullptr, const GpuTuning& tuning = {});

// The same for a part of Myers-Miller's (cpu/passes.hpp: Part): appends an
// optimal path's runs to `cigar` (they re-score to its score with the
// part's corner opens) and returns its start; nullopt as above. Its cells
// are added to `progress` twice, once by the pass and once for the walk.
std::optional<PartStart> align_gpu_chunked_part(const Part& part, const ScoringScheme& scheme, int device,
                                                std::int64_t max_bytes, Progress* progress, Cigar& cigar,
                                                const GpuTuning& tuning = {});

// The .cu files' side (CUDA builds only).
struct GotohTypes;
struct GotohEdge;
namespace striped {
template <class Types>
struct Kept;
template <class Edge>
struct ChainLink;
}
// score_pass_gpu, keeping what the traceback needs in `kept` when not null
// (striped_score.cu).
PassResult striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                        LastRow last_row, GpuTuning tuning, striped::Kept<GotohTypes>* kept, Progress* progress,
                        const PassCheckpoint* checkpoint = nullptr, SavedRows* saved = nullptr);
// chained_pass (chained_pass.cu); `cuts`: its pieces' (chained_cuts).
std::optional<PassResult> chained_striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                               const std::vector<int>& devices, GpuTuning tuning, Progress* progress,
                                               SavedRows* saved, std::vector<long long>* cuts);
// One place of chained_pass (striped_score.cu): its pieces; nullopt where
// it declined or the chain did.
std::optional<PassResult> striped_pass_chained(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                               int device, const GpuTuning& tuning, Progress* progress, SavedRows* saved,
                                               const striped::ChainLink<GotohEdge>& chain);
// score_pass_gpu_between's pass, in the kernels `tuning` allows.
PassResult striped_pass_between(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                                const GpuTuning& tuning, Progress* progress, const PassEdges& edges);
// align_gpu_chunked (chunked_traceback.cu).
std::optional<Alignment> chunked_alignment(Residues q, Residues t, const ScoringScheme& scheme, Mode mode, int device,
                                           std::int64_t max_bytes, Progress* score, Progress* traceback,
                                           const GpuTuning& tuning);
// align_gpu_chunked_part (chunked_traceback.cu).
std::optional<PartStart> chunked_part(const Part& part, const ScoringScheme& scheme, int device, std::int64_t max_bytes,
                                      Progress* progress, Cigar& cigar, const GpuTuning& tuning);
// The counters gpu_stats() reports, for the .cu files to add to through
// count_gpu_stats: a split's parts run passes on several threads.
Locked<GpuStats>& gpu_stats_counters();
template <class Count>
void count_gpu_stats(Count&& count) {
  gpu_stats_counters().update(count);
}
// Adds to gpu_stats()'s kernel seconds (and traceback seconds).
void add_gpu_kernel_time(double seconds, bool traceback);

}  // namespace gdp::pairwise
