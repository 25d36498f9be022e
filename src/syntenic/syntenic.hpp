#pragma once
// gpu-syntenic's engine: the only header an app includes.
//
// A syntenic alignment (Huang and Chao) of a (the query) and b (the target)
// is a sequence of columns (two letters; a letter against a gap) and
// difference blocks (one or more letters of either sequence or both, left
// unaligned). Each maximal gap run of k letters costs open + k * extend, as
// in gpu-sw; each block costs the block penalty d. Under Ends::charged an
// alignment that does not begin with a block pays d at its start, and one
// that does not end with one pays d at its end.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp {
class Progress;
}

namespace gdp::syntenic {

using Residues = std::span<const std::uint8_t>;
using pairwise::Cigar;
using pairwise::CigarRun;
using pairwise::Op;

enum class Ends { charged, plain };
Ends parse_ends(std::string_view name);  // throws InputError
std::string_view to_string(Ends e);

// Which implementation computes the matrix. The scalar CPU path is the oracle.
enum class Backend { cpu_scalar, cpu_openmp, gpu };
std::string_view to_string(Backend b);

// The block penalty when none is given: about the score of 20 identical
// bases under gpu-sw's DNA default (+2), or of 10 identical residues under
// BLOSUM62 (about +5 each), so that a matching region between two blocks
// is kept only when it scores more than that (README, gpu-syntenic).
inline constexpr int default_block_penalty_nucleotide = 40;
inline constexpr int default_block_penalty_protein = 50;
inline constexpr int max_block_penalty = 1 << 20;

// A matching region (block false) or a difference block, in order along the
// alignment. Ranges are 0-based and half-open; a block may be empty in one
// sequence (never in both).
struct Region {
  bool block = false;
  std::int64_t query_begin = 0, query_end = 0, target_begin = 0, target_end = 0;
  int score = 0;  // a region: its columns and gap runs; a block: -d
  Cigar cigar;    // a region's columns (=, X, I: query letter against a gap, D: target letter against a gap)
};

struct Alignment {
  int score = 0;
  // The end cell: always (|a|, |b|), every letter of both is covered.
  std::int64_t query_end = 0, target_end = 0;
  std::vector<Region> regions;  // empty for score-only results
};

struct Options {
  Ends ends = Ends::charged;
  int block_penalty = default_block_penalty_nucleotide;
  bool score_only = false;
  Backend backend = Backend::cpu_scalar;
  int threads = 1;                // for cpu_openmp
  Progress* progress = nullptr;   // cells done are added here, if set
  int device = 0;                 // for gpu: the CUDA device
  // For gpu, two or more: align_all's pairs for the GPU spread over these
  // devices, each to the next one free; one pair, its score pass chained
  // over them, or its linear-space alignment's passes on the first two
  // side by side, its chunked traceback on the first (`device` is not read).
  std::vector<int> devices{};
  // For gpu: pairs of fewer cells run on the CPU threads, where they are
  // faster than a kernel launch. Tests set 0 to put every pair on the GPU.
  std::int64_t min_gpu_cells = std::int64_t{1} << 24;
  pairwise::GpuTuning tuning{};   // for gpu: the score kernel's knobs (gpu-sw's --tune keys)
};

// What the GPU passes of this process did so far.
struct GpuStats {
  int passes = 0;
  double kernel_seconds = 0;
  std::size_t peak_memory_bytes = 0;  // the engine's device memory at its largest
};
GpuStats gpu_stats();

// Throws InputError when these lengths and scores could leave the range the
// int32 engines handle exactly, or the block penalty is out of range.
void check_score_range(std::int64_t query_length, std::int64_t target_length, const ScoringScheme& scheme,
                       const Options& options);

// Aligns one pair (ranks of `scheme`).
Alignment align(Residues query, Residues target, const ScoringScheme& scheme, const Options& options);

struct Hit {
  std::size_t query = 0, target = 0;  // indices into the inputs
  Alignment alignment;
};

// Every query against every target, grouped by query, in target order.
// Under Options::devices the pairs for the GPU are aligned one a device at
// a time, side by side; each pair's result is the one a single device gives.
std::vector<Hit> align_all(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                           const ScoringScheme& scheme, const Options& options);

// What the ends rule charges an alignment: under Ends::charged, d for an
// end that is not a block (both ends of the empty alignment); else 0.
int end_charges(const Alignment& a, Ends ends, int block_penalty);

// The score of an alignment from its regions: each region's columns and gap
// runs, each block's penalty, the end charges. Throws std::logic_error when
// the regions do not cover both sequences exactly once, in order, or a
// region's own score or CIGAR does not match its ranges. Tests call it on
// every alignment; it must equal the alignment's score.
int rescore(const Alignment& a, Residues query, Residues target, const ScoringScheme& scheme,
            const Options& options);

}  // namespace gdp::syntenic
