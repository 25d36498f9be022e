#pragma once
// How the database-search kernels (cuda/inter_pair.cuh) find the targets
// in device memory, worked out on the host: the targets by length, longest
// first, and each pair's letters at a column offset, one byte a column, or
// two for the 16-bit kernel (one target in each half of a register: the
// first's letter, then the second's). Plain C++, so that the letters are
// written on OpenMP's threads.
#include <cstdint>
#include <vector>

#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise::batch {

// Targets longer than this stay with the long-pair engine.
inline constexpr std::size_t kMaxTarget = std::size_t{1} << 16;

struct Layout {
  bool pairs16 = false;
  std::vector<long long> offset;  // a pair's first column
  std::vector<int> length;        // its columns (its first target's letters)
  std::vector<std::int64_t> first, second;  // target indices a pair (second -1: none; only pairs16)
  std::int64_t residues = 0;
  long long columns = 0;
  std::size_t bytes() const { return static_cast<std::size_t>(columns) * (pairs16 ? 2 : 1); }
};

// The host threads the letters are written and the results filed on: the
// cores, at most 16.
int layout_threads();

// The indices of the targets of 1 to kMaxTarget letters, longest first
// (ties in input order), and their letters in `residues` where given.
std::vector<std::int64_t> by_length(const std::vector<Residues>& targets, std::uint64_t* residues = nullptr);

// sorted[begin, end) as pairs, two targets each for pairs16.
Layout lay_out(const std::vector<std::int64_t>& sorted, std::size_t begin, std::size_t end,
               const std::vector<Residues>& targets, bool pairs16);

// The letters of pairs [k0, k1) at `out` (pair k0's first column at
// out[0]), a shorter second target padded with the letter `pad`; written on
// `threads` threads.
void write_letters(const Layout& l, std::size_t k0, std::size_t k1, const std::vector<Residues>& targets, int pad,
                   std::uint8_t* out, int threads);

// Where a chunk's first query starts while its letters go up: the pairs
// that end pieces of about 1/64, 1/64, 1/32, ..., 1/4 of its columns and
// then the rest, on whole warps' bundles of pairs (the last is the pairs).
std::vector<std::size_t> piece_ends(const Layout& l);

// The kernels' results filed under their targets, on `threads` threads:
// score16's two scores a pair (the first target's, then the second's) as
// score-only passes, the targets whose scores reached `overflow_at` added
// to `overflowed` in pair order; score32's (score, end_i, end_j, unused)
// a pair.
void file_scores16(const Layout& l, const int* scores, int overflow_at, std::vector<PassResult>& results,
                   std::vector<std::int64_t>& overflowed, int threads);
void file_ends(const Layout& l, const int* ends, std::vector<PassResult>& results, int threads);

}  // namespace gdp::pairwise::batch
