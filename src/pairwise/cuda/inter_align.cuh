#pragma once
// Full alignments of many small pairs at once: one warp a pair, the whole
// matrix with its direction bits in device memory, then one lane walks
// back from the end cell.
//
// The warp sweeps the target in strips of kWidth columns, lane l holding
// kCols neighbouring columns of the strip and a row one step behind lane
// l - 1, which hands it the cell left of its first column by a shuffle
// (the strip engine's layout, for a pair of a few hundred letters). Each
// row is GotohCell::row with the direction bits: the same recurrence, and
// the same bits, as the chunked traceback. A strip's last column goes to
// `edges` for the next strip's first lane. The direction words are kept by
// strip, step and lane (the warp's 32 words of a step are contiguous), 4
// bits a cell.
//
// The end cell is the oracle's: the best score under the end rule, the
// first in row-major order among ties. The walk (GotohCell::step_back) then
// gives an optimal path to it; among ties it may be another path than the
// CPU's Myers-Miller finds, and a local alignment may start elsewhere. The
// warp packs the walk's moves after the other pairs' (an atomic cursor),
// so that only they go back to the host.
#include <cstdint>

#include "pairwise/cuda/inter_pair.cuh"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise::inter {

inline constexpr int kAlignCols = 4;                   // columns a lane
inline constexpr int kAlignWidth = kAlignCols * kWarp;  // a strip's columns
inline constexpr int kAlignBlockThreads = 128;
inline constexpr int kAlignResult = 8;  // ints a pair: see AlignParams::result

// Direction words of a pair of m rows and n columns (16 bits a lane a step).
__host__ __device__ inline long long align_dir_words(int m, int n) {
  return static_cast<long long>((n + kAlignWidth - 1) / kAlignWidth) * (m + kWarp - 1) * kWarp;
}

struct AlignParams {
  const std::uint8_t* letters;  // pair p's query at q_offset[p], its target at t_offset[p]
  const long long *q_offset, *t_offset;
  const int *m, *n;               // lengths, at least 1 each
  unsigned short* dirs;           // pair p's at dir_offset[p] (align_dir_words)
  const long long* dir_offset;
  GotohEdge* edges;               // pair p's m rows at edge_offset[p]
  const long long* edge_offset;
  char* walk;                     // pair p's moves as the walk makes them, at op_offset[p] (m + n of room)
  const long long* op_offset;
  // Every pair's moves, end to start, one pair after another: pair p's at
  // moves_at[p], in the order the walks finish; `moves_used` counts them.
  char* moves;
  long long* moves_at;
  unsigned long long* moves_used;
  // Pair p's at [kAlignResult * p]: score, end i, end j, moves, the walk's
  // last i and j, whether it stopped at a local start, its state there.
  int* result;
  const int* sub;  // dim x dim
  int dim;
  GotohCosts costs;
  End end;
  int pairs;
  int* next_pair;  // the work counter, 0 at launch
};

// Lane 0's walk back from the end cell: the moves into `ops`, the result
// into p.result; returns the moves' count.
template <bool Local>
__device__ int walk_back(const AlignParams& p, int pr, const Kept& best, const std::uint8_t* q, const std::uint8_t* t,
                         const unsigned short* dirs, int steps, char* ops) {
  using Cell = GotohCell<Local>;
  int* result = p.result + static_cast<long long>(kAlignResult) * pr;
  int i = best.i, j = best.j, state = Cell::in_h, count = 0;
  bool stopped = Local && best.score == 0;  // nothing above zero: the empty alignment
  if (stopped) i = j = 0;
  while (!stopped && i > 0 && j > 0) {
    const int k = (j - 1) / kAlignWidth, col = (j - 1) % kAlignWidth, l = col / kAlignCols;
    const unsigned word = dirs[(static_cast<long long>(k) * steps + (i - 1 + l)) * kWarp + l];
    const unsigned bits = (word >> (Cell::kDirBits * (col % kAlignCols))) & ((1u << Cell::kDirBits) - 1);
    const auto move = Cell::step_back(state, bits);
    if (Cell::stops(move)) {
      stopped = true;
      break;
    }
    const char op = Cell::trace_op(move, q, t, i, j);
    if (op) ops[count++] = op;
    Cell::move_back(move, i, j);
  }
  result[0] = best.score, result[1] = best.i, result[2] = best.j, result[3] = count;
  result[4] = i, result[5] = j, result[6] = stopped, result[7] = state;
  return count;
}

template <bool Local>
__global__ void __launch_bounds__(kAlignBlockThreads) align_pairs(AlignParams p) {
  using Cell = GotohCell<Local>;
  extern __shared__ int shared_sub[];
  for (int k = static_cast<int>(threadIdx.x); k < p.dim * p.dim; k += blockDim.x) shared_sub[k] = p.sub[k];
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const GotohCosts& kc = p.costs;
  for (;;) {
    int pr = 0;
    if (lane == 0) pr = atomicAdd(p.next_pair, 1);
    pr = __shfl_sync(kFull, pr, 0);
    if (pr >= p.pairs) break;
    const int m = p.m[pr], n = p.n[pr];
    const std::uint8_t *q = p.letters + p.q_offset[pr], *t = p.letters + p.t_offset[pr];
    unsigned short* dirs = p.dirs + p.dir_offset[pr];
    GotohEdge* edges = p.edges + p.edge_offset[pr];
    const int steps = m + kWarp - 1, strips = (n + kAlignWidth - 1) / kAlignWidth;
    // Local: the best cell anywhere; last row: row m's, its column 0 first.
    Kept best = Local ? Kept{0, 0, 0} : Kept{Cell::left(kc, m).h, m, 0};
    for (int k = 0; k < strips; ++k) {
      const int j0 = k * kAlignWidth + lane * kAlignCols;  // the lane's columns: j0 + 1 ..
      int tl[kAlignCols];
      GotohDown d[kAlignCols];
#pragma unroll
      for (int c = 0; c < kAlignCols; ++c) {
        tl[c] = j0 + c < n ? t[j0 + c] : 0;
        d[c] = Cell::top(kc, j0 + c + 1);
      }
      typename Cell::TraceCarry carry = Cell::carry_of(d, kc);
      int left_h = Cell::top(kc, j0).h;  // H(i - 1, j0): the diagonal input of row i
      GotohEdge out{0, 0};
      for (int s = 0; s < steps; ++s) {
        const int i = s - lane + 1;
        GotohEdge in;
        in.h = __shfl_up_sync(kFull, out.h, 1);
        in.e = __shfl_up_sync(kFull, out.e, 1);
        if (i < 1 || i > m) continue;
        if (lane == 0) in = k == 0 ? Cell::left(kc, i) : edges[i - 1];
        const int diag = left_h;
        left_h = in.h;
        int sc[kAlignCols];
        const int* row = shared_sub + q[i - 1] * p.dim;
#pragma unroll
        for (int c = 0; c < kAlignCols; ++c) sc[c] = row[tl[c]];
        unsigned word = 0;
        Cell::template row<kAlignCols, true>(
            d, sc, in, diag, kc,
            [&](int c, const GotohDown&, const GotohDown& after) {
              const int j = j0 + c + 1;
              if (j > n) return;
              const Kept here{after.h, i, j};
              if (Local ? before(here, best)
                        : i == m && (p.end == End::corner ? j == n : after.h > best.score))
                best = here;
            },
            &word, &carry);
        dirs[(static_cast<long long>(k) * steps + s) * kWarp + lane] = static_cast<unsigned short>(word);
        out = in;
        if (lane == kWarp - 1 && k + 1 < strips) edges[i - 1] = in;
      }
      __syncwarp();  // the strip's last column is in `edges` for the next strip's lane 0
    }
    for (int x = 1; x < kWarp; x <<= 1) {
      const Kept other{__shfl_xor_sync(kFull, best.score, x), __shfl_xor_sync(kFull, best.i, x),
                       __shfl_xor_sync(kFull, best.j, x)};
      // Row m's cells all have i = m: `before` orders them by j.
      if (p.end == End::corner ? other.j == n : before(other, best)) best = other;
    }
    __syncwarp();  // every lane's direction words are written
    char* ops = p.walk + p.op_offset[pr];
    int count = 0;
    if (lane == 0) count = walk_back<Local>(p, pr, best, q, t, dirs, steps, ops);
    __syncwarp();  // the walk's moves are written
    // The moves packed after the other pairs', so that only they go back.
    count = __shfl_sync(kFull, count, 0);
    unsigned long long at = 0;
    if (lane == 0) at = atomicAdd(p.moves_used, static_cast<unsigned long long>(count));
    at = __shfl_sync(kFull, at, 0);
    for (int x = lane; x < count; x += kWarp) p.moves[at + x] = ops[x];
    if (lane == 0) p.moves_at[pr] = static_cast<long long>(at);
  }
}

}  // namespace gdp::pairwise::inter
