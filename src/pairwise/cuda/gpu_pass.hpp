#pragma once
// The GPU passes: the same contract as the CPU passes (cpu/passes.hpp),
// computed by the striped kernels (striped_score.cu, striped_score16.cu),
// and the chunked traceback. Plain C++: no CUDA types, so the engine's other
// files need no nvcc.
#include <optional>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// Which 16-bit score kernel runs: the diagonal one (striped_score16.cu, a
// warp on 64 rows at once) or the row one (striped_rows16.cu, a warp on one
// row, its E carried across by a scan).
enum class Kernel16 { choose, diagonal, rows };

struct GpuTuning {
  // > 0 caps the ring of boundary columns between strips, so that tests can
  // make strips wait for free slots on small inputs.
  long long max_slots = 0;
  // Columns a lane keeps in registers, 8 or 16 (16 only with scores within
  // +-127), or 32 or 64 (the 16-bit kernel; 16 in the 32-bit one); 0
  // chooses by the target's length (or the environment's
  // GPUDP_SW_LANE_COLUMNS, for benchmarks).
  int lane_columns = 0;
  // 0: local score passes run with two 16-bit cells a register where the
  // scores fit (8-bit substitution scores), again in 32 bits if a score
  // reaches the 16-bit range; 32: always 32 bits.
  int bits = 0;
  // Warps of a block that sweep neighbouring strips and hand their edges
  // over in shared memory: 0 chooses (4 for score passes, 1 for the
  // traceback's kept pass); 1: every strip hands over through device memory.
  int group = 0;
  // > 0: score passes take the target in pieces of about this many columns
  // (whole strips), one launch each, as targets of 2^31 letters or more, or
  // too long for the device's memory, always are (tests).
  long long piece_columns = 0;
  // choose: the row kernel where the diagonal one's wavefront would take
  // much of the run to fill (striped_score.cu: use_rows16), else the
  // diagonal one; or the environment's GPUDP_SW_KERNEL16=diagonal|rows,
  // for benchmarks.
  Kernel16 kernel16 = Kernel16::choose;
};

// Same score, end cell (ties included) and last row as score_pass_scalar.
// Throws RunError on a CUDA failure or when the pair does not fit in the
// device's memory, and when this build has no CUDA (gpu_pass_stub.cpp).
PassResult score_pass_gpu(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                          LastRow last_row = {}, GpuTuning tuning = {});

// A full alignment by the chunked traceback (chunked_traceback.cu): the
// score pass keeps its strip edges and checkpoint rows, then the chunks on
// the path are recomputed and traced. Same score and end cell as the
// oracle; an optimal path whose CIGAR re-scores to it (ties may differ, and
// with them the start of a local alignment). nullopt when the kept edges
// would take more than half the free device memory.
std::optional<Alignment> align_gpu_chunked(Residues q, Residues t, const ScoringScheme& scheme, Mode mode,
                                           int device);

}  // namespace gdp::pairwise
