#pragma once
// How the database-search kernels (cuda/inter_pair.cuh) find the targets
// in device memory, worked out on the host: the targets by length, longest
// first, and each pair's letters at a column offset, one byte a column, or
// two for the 16-bit kernel (one target in each half of a register: the
// first's letter, then the second's). Plain C++, so that the letters are
// written on OpenMP's threads.
#include <cstdint>
#include <vector>

#include "core/no_fill_vector.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise::batch {

// Targets longer than this stay with the long-pair engine.
inline constexpr std::size_t kMaxTarget = std::size_t{1} << 16;

// The targets the kernels take, those of 1 to kMaxTarget letters, longest
// first (ties in input order), with their lengths in that order, so that
// laying them out reads no target; and the empty ones, which the kernels
// leave to the caller. Fewer than 2^32 targets (else std::length_error);
// the indices are 32-bit, since each page of memory first touched costs.
struct ByLength {
  std::vector<std::uint32_t> index;
  std::vector<int> length;  // index[k]'s letters
  std::vector<std::int64_t> empty;
  std::uint64_t residues = 0, all_residues = 0;  // the letters of those taken, and of every target
};
ByLength by_length(const std::vector<Residues>& targets);

// sorted's targets dealt into `parts` (at least 1) shares of about equal
// residues, one a device: each target, longest first, to the share with the
// fewest residues so far (the first of those), so that each share is longest
// first too (ties in sorted's order); the empty targets to the first share.
// Every share's all_residues is sorted's.
std::vector<ByLength> split_by_residues(const ByLength& sorted, std::size_t parts);

// Pairs of consecutive targets of a ByLength (one target a pair unless
// pairs16), which it refers to.
struct Layout {
  bool pairs16 = false;
  const ByLength* sorted = nullptr;
  std::size_t begin = 0, end = 0;  // sorted's targets it lays out
  NoFillVector<long long> offset;  // a pair's first column
  NoFillVector<int> length;        // its columns (its first target's letters)
  std::int64_t residues = 0;
  long long columns = 0;
  std::size_t bytes() const { return static_cast<std::size_t>(columns) * (pairs16 ? 2 : 1); }
  // Pair k's targets (second: -1 for none).
  std::int64_t first(std::size_t k) const;
  std::int64_t second(std::size_t k) const;
};

// The host threads the pairs are laid out, the letters written and the
// results filed on: the cores, at most 16; and for `items` items of work,
// one where they are too few to repay waking the others.
int layout_threads();
int layout_threads(std::size_t items);

// sorted's targets [begin, end) as pairs, two targets each for pairs16, on
// `threads` threads; the layout refers to `sorted`, which must outlive it.
Layout lay_out(const ByLength& sorted, std::size_t begin, std::size_t end, bool pairs16, int threads);
Layout lay_out(ByLength&&, std::size_t, std::size_t, bool, int) = delete;

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
