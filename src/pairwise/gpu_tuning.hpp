#pragma once
// The GPU engine's tuning and its kernels, in plain C++: the defaults
// choose by the shape; tests and benchmarks (gpu-sw --tune key=value, the
// keys of gpu_tune_keys) force a choice. Nothing is read from the
// environment.
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "core/tune.hpp"

namespace gdp::pairwise {

// Which 16-bit score kernel runs: the diagonal one (striped_score16.cu, a
// warp on 64 rows at once), the row one (striped_rows16.cu, a warp on one
// row, its E carried across by a scan), or the diagonal one with rebased
// cells, which holds any score.
enum class Kernel16 { choose, diagonal, rows, rebased };

struct GpuTuning {
  // > 0 caps the ring of boundary columns between strips, so that tests can
  // make strips wait for free slots on small inputs.
  long long max_slots = 0;
  // Columns a lane keeps in registers: 8 or 16 (16 only with scores within
  // +-127), or 32 or 64 (the 16-bit kernels; 16 in the 32-bit one); 0
  // chooses by the target's length.
  int lane_columns = 0;
  // 0: local score passes run with two 16-bit cells a register where the
  // scores fit (8-bit substitution scores), again in the rebased diagonal
  // kernel, which holds any score, if a score reaches the 16-bit range (in
  // 32 bits where that kernel cannot rebase often enough); 32: always 32
  // bits.
  int bits = 0;
  // Warps of a block that sweep neighbouring strips and hand their edges
  // over in shared memory: 0 chooses (4 for score passes, 1 for the
  // traceback's kept pass); 1: every strip hands over through device memory.
  int group = 0;
  // > 0: score passes take the target in pieces of about this many columns
  // (whole strips), one launch each, as targets of 2^31 letters or more, or
  // too long for the device's memory, always are.
  long long piece_columns = 0;
  // choose: the row kernel where the diagonal one's wavefront would take
  // much of the run to fill (strip_plan.cpp: use_rows16), else the
  // diagonal one; rebased: the diagonal one with rebased cells, where it
  // can rebase often enough (the choice after an overflow).
  Kernel16 kernel16 = Kernel16::choose;
  // > 0: blocks an SM, at most what fits; 0: as many as the wavefront keeps busy.
  int blocks_per_sm = 0;
  // > 0: the database search holds at most this many target residues a
  // chunk on the device, so that a database that would fit is streamed.
  long long db_chunk_residues = 0;
  // > 0: the database search's 16-bit kernel holds this many query rows a
  // lane (one of batch_rows16()); 0: chosen by the query's length.
  int db_rows16 = 0;
  // false: local passes compute every cell, none skipped by block pruning
  // (pruning.hpp; so far the CPU's tiled pass prunes).
  bool prune = true;
  // > 0: a score pass that keeps nothing runs as one whose ring of whole
  // columns would not fit (strip_plan.hpp: GridPlan::ring_rows): slots of
  // this many rows (a power of two, at least kMinRingRows), pieces of one
  // wave of groups; tests make the slots wrap on small inputs.
  long long ring_rows = 0;
  // > 0: the device memory a full alignment's chunked traceback may keep
  // for a pair, or for one of the parts it splits into when the pair's
  // would not fit (0: half the free memory), so that small pairs split.
  long long traceback_bytes = 0;
  // How a local or global pair too large for the chunked traceback splits:
  // at rows its score pass saves (true), or by Myers-Miller's passes, as
  // semi-global pairs and pairs whose rows would not fit always do.
  bool split_at_saved_rows = true;
  // Host threads that align the parts between saved rows side by side on
  // the device (1: one after another), while the bands above go on.
  int split_threads = 4;
};

// The score kernels, each by a systematic name: sw_striped_s32_c8 (the
// 32-bit kernel, 8 columns a lane), sw_striped_s16_diag_c64, ... The [gpu]
// tests run every row against the oracle, so a kernel added here is tested.
enum class KernelKind { s32, s16_diagonal, s16_rows, s16_rebased };
struct KernelVariant {
  std::string_view name;
  KernelKind kind;
  int lane_columns;
};
// This build's kernels: empty without CUDA.
std::span<const KernelVariant> kernel_variants();
// A tuning that makes every pass the variant can run use it.
GpuTuning tuning_for(const KernelVariant& v, GpuTuning base = {});

// The keys of gpu-sw's --tune.
extern const std::array<TuneKey<GpuTuning>, 15> gpu_tune_keys;

}  // namespace gdp::pairwise
