#pragma once
// gpu-align3's engine: the optimal alignment of three sequences under the
// sum-of-pairs score with linear gaps (recurrence.hpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/scoring.hpp"

namespace gdp {
class Progress;
}

namespace gdp::align3 {

using Residues = std::span<const std::uint8_t>;

struct Alignment {
  int score = 0;
  // The columns in order, each a move (recurrence.hpp: bit 1 a, 2 b, 4 c
  // advance); empty for score-only results.
  std::vector<std::uint8_t> moves;
};

// The gap cost when none is given: a letter against a gap costs more than
// half a mismatch pair costs, so that two sequences equal but for a letter
// align that letter as a mismatch, not as two gaps (DNA: mismatch -3,
// gap 4; BLOSUM62: gap 8, as MSA programs' linear-gap defaults).
inline constexpr int default_gap_nucleotide = 4;
inline constexpr int default_gap_protein = 8;
inline constexpr int max_gap = 1000;

enum class Backend { cpu_scalar, cpu_openmp, gpu };
std::string_view to_string(Backend b);

struct Options {
  int gap = default_gap_nucleotide;
  bool score_only = false;
  Backend backend = Backend::cpu_scalar;
  int threads = 1;   // for cpu_openmp, and gpu's passes on the CPU
  int device = 0;    // for gpu: the CUDA device
  // For gpu, two or more: the score's pass, and the linear-space division's
  // split passes, run as two half passes side by side on the first two of
  // these (gpu_split_pass_on_two); the three-phase traceback on the first.
  // The result is the one a single device gives. `device` is not read.
  std::vector<int> devices{};
  // For gpu: cubes of fewer cells run on the CPU threads, where they take
  // less than the device's start. A larger one aligns in linear space, its
  // passes on the GPU, its smallest parts on the CPU threads. Tests set 0
  // to put every cube on the GPU.
  long long min_gpu_cells = 1LL << 24;
  // For gpu: the most device memory the three-phase traceback's chunk faces
  // may take (0: what the device has free); a cube whose faces take more is
  // divided first. Tests set a little to divide.
  std::size_t gpu_face_bytes = 0;
  // The cube's cells are added here as its passes go, if set: once for the
  // score, about twice for an alignment (the linear-space division's
  // passes, or the GPU's three-phase traceback), its share made exact at
  // the end.
  Progress* progress = nullptr;
};

// The score, or an optimal alignment: on the CPU through the full cube
// where it takes at most 2^26 bytes, else in O(|b| |c|) memory
// (cpu/passes.hpp); on the GPU by the three-phase traceback where its
// chunk faces fit the device (about 0.4 bytes a cell), the cube divided in
// O(|b| |c|) memory until they do.
Alignment align(Residues a, Residues b, Residues c, const ScoringScheme& scheme, const Options& options);

// Throws InputError when these lengths and scores could leave int32.
void check_score_range(std::int64_t a, std::int64_t b, std::int64_t c, const ScoringScheme& scheme, int gap);

// The oracle's score: plane by plane, O(|b| |c|) memory.
int score_scalar(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, Progress* progress = nullptr);

// The full cube of moves and a traceback: (|a|+1)(|b|+1)(|c|+1) bytes.
Alignment align_full_cube(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap);

// The score of an alignment from its columns. Throws std::logic_error when
// the moves do not use every letter of the three sequences exactly once.
int rescore(const Alignment& alignment, Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap);

// One sequence's row of the alignment: its letters (as `letters`, indexed
// by rank) with '-' where the column does not advance it.
std::string row_of(const Alignment& alignment, int which, Residues s, const std::string& letters);

}  // namespace gdp::align3
