#pragma once
// The chunked traceback's walk (dissertation chapter 4, ChunkedAlignment;
// chapter 6's CHUNKED2D for the syntenic cell), for any cell policy.
//
// After a kept pass (strip_kernel.cuh, Kept), one block starts at the end
// cell. Its warps recompute, at once, the chunk that holds it and the
// chunks the path can enter next (chunk_recompute.cuh: the same row update
// as the score pass, so the same values), each storing the cell's direction
// bits in shared memory: four chunks (the walk's, and the ones left, above
// and above-left of it; a chunk's rows are as many as keep its bits to 32
// KiB, strip_plan.hpp's kept_rows). One
// thread then walks back through them until the path leaves them; the
// state it leaves in says where to go on. The walk writes one character a
// move (the cell's trace_op) and stops at the matrix's border, or where the
// cell says the path starts (a local alignment's zero).
#include "pairwise/cuda/chunk_recompute.cuh"

namespace gdp::pairwise::striped {

template <class Types>
struct WalkParams {
  Params<Types> p;  // q, t, sub, sizes, costs and boundaries of the kept pass
  Kept<Types> kept;
  int end_i, end_j;
  int start_state;  // the cell's state at the end cell
  char* ops;        // the path's moves, from the end back to the start
  int* result;      // {move count, i, j, stopped (the cell's start), state} where the walk ended
  // If set, (end_i + end_j) - (i + j) after each round: how far back the
  // walk has come, for progress.
  unsigned long long* walked = nullptr;
};

// Warps, and chunks recomputed at once: the chunk of the walk and the
// ones left, above and above-left of it.
constexpr int kWalkChunks = 4;

// Shared memory the walk needs for a matrix of `dim` letters.
template <class Cell>
constexpr std::size_t walk_shared_bytes(int dim) {
  return kWalkChunks * sizeof(typename Cell::DirWord) * kKeptRowsOf<Cell> * kLanes +
         2 * sizeof(short) * static_cast<std::size_t>(dim) * kKeptWidth;
}

template <class Cell>
__global__ void __launch_bounds__(kWalkChunks* kLanes) chunked_walk(WalkParams<typename Cell::Types> tp) {
  using DirWord = typename Cell::DirWord;
  using Move = typename Cell::Move;
  constexpr int kRows = kKeptRowsOf<Cell>, kWidth = kKeptWidth, kChunks = kWalkChunks;
  constexpr int kBits = Cell::kDirBits;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  using Dirs = DirWord[kRows][kLanes];
  Dirs* dirs = reinterpret_cast<Dirs*>(shared_bytes);  // one chunk a warp
  short* profiles = reinterpret_cast<short*>(shared_bytes + sizeof(Dirs) * kChunks);  // strips k and k - 1
  __shared__ int walk[5];  // i, j, state, stopped, count: thread 0's walk, for all
  const auto& p = tp.p;
  const int warp = static_cast<int>(threadIdx.x) / kLanes, lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  const int up = warp >> 1, left = warp & 1;  // this warp's chunk: (b - up, k - left)
  int i = tp.end_i, j = tp.end_j, state = tp.start_state, count = 0;
  long long profile_strip = -1;
  bool stopped = false;

  while (!stopped && i > 0 && j > 0) {
    const long long k = (j - 1) / kWidth;
    const int b = (i - 1) / kRows;
    if (k != profile_strip) {
      __syncthreads();
      if (warp < 2 && k - warp >= 0) build_profile(p, k - warp, profiles + warp * p.dim * kWidth, lane);
      profile_strip = k;
    }
    __syncthreads();
    if (b - up >= 0 && k - left >= 0) {
      const int r0 = (b - up) * kRows;
      recompute_chunk<Cell>(p, tp.kept, k - left, r0, min(r0 + kRows, p.m), profiles + left * p.dim * kWidth,
                            dirs[warp]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      const int low_i = max(b - (kChunks == 4 ? 1 : 0), 0) * kRows;
      const long long low_j = max(k - 1, 0LL) * kWidth;
      while (i > low_i && j > low_j) {
        const long long kj = (j - 1) / kWidth;
        const int bi = (i - 1) / kRows, col = static_cast<int>(j - 1 - kj * kWidth);
        const DirWord word = dirs[(b - bi) * 2 + (k - kj)][i - bi * kRows - 1][col / kKeptCols];
        const unsigned bits = static_cast<unsigned>(word >> (kBits * (col % kKeptCols))) & ((1u << kBits) - 1);
        const Move move = Cell::step_back(state, bits);
        if (Cell::stops(move)) {
          stopped = true;
          break;
        }
        const char op = Cell::trace_op(move, p.q, p.t, i, j);
        if (op) tp.ops[count++] = op;
        Cell::move_back(move, i, j);
      }
      walk[0] = i, walk[1] = j, walk[2] = state, walk[3] = stopped, walk[4] = count;
      if (tp.walked) *reinterpret_cast<volatile unsigned long long*>(tp.walked) = tp.end_i + tp.end_j - (i + j);
    }
    __syncthreads();
    i = walk[0], j = walk[1], state = walk[2], stopped = walk[3], count = walk[4];
  }
  if (threadIdx.x == 0) {
    tp.result[0] = count;
    tp.result[1] = i;
    tp.result[2] = j;
    tp.result[3] = stopped;
    tp.result[4] = state;
  }
}

}  // namespace gdp::pairwise::striped
