#pragma once
// A long score pass on the GPU saved as it goes, so that a run stopped (by
// its own --stop-after, a batch system's time limit, a crash) goes on from
// where it was. The pass takes the target in pieces, the right edge of one
// the left edge of the next (cuda/striped_score.cu); after each piece it
// writes the edge (H and E of every query row), the best cell so far and
// the first column not yet done to the checkpoint file, and a pass that
// finds a file of the same pair, scores and shape starts from it.
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

using Residues = std::span<const std::uint8_t>;

// What a pass is asked to do about checkpoints.
struct PassCheckpoint {
  std::string path;  // empty: none
  // Set: stop, with the checkpoint saved, before a piece that would end
  // after this time (judged by the last piece's time); the first piece of a
  // run always runs. The pass then throws Stopped (core/error.hpp).
  std::optional<std::chrono::steady_clock::time_point> stop_at;
  bool wanted() const { return !path.empty(); }
};

// A saved pass.
struct CheckpointState {
  std::int64_t next_column = 0;  // columns [0, next_column) are done
  int escalation = 0;            // 0: the planned kernel; 1: the rebased 16-bit one; 2: 32 bits
  PassResult best;               // under End::anywhere: the best cell of the columns done
  std::vector<std::int32_t> edge;  // H and E of rows 1..m at column next_column, interleaved
};

// The pair, the scores and the shape, in 64 bits: a checkpoint is only
// taken up by the pass it was made by.
std::uint64_t pass_fingerprint(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape);

// Where a checkpoint at `path` stands, without its edge: {0, 0} where there
// is no file. Throws InputError where the file is not a checkpoint of this
// pass (`fingerprint`, `m` query rows).
struct SavedAt {
  std::int64_t next_column = 0;
  int escalation = 0;
};
SavedAt saved_at(const std::string& path, std::uint64_t fingerprint, std::int64_t m);
// The whole checkpoint; nullopt where there is no file. Throws as above.
std::optional<CheckpointState> load_checkpoint(const std::string& path, std::uint64_t fingerprint, std::int64_t m);
// Writes it beside `path` and renames it into place, so that a run killed
// while writing leaves the last checkpoint whole. Throws RunError.
void save_checkpoint(const std::string& path, std::uint64_t fingerprint, const CheckpointState& state);

}  // namespace gdp::pairwise
