#pragma once
// Database search's kernels: many short-to-medium pairs at once, one query
// against a database of targets (inter-sequence parallelism).
//
// A group of G lanes (4, 8, 16 or 32) computes one pair, or two in 16 bits.
// Lane k holds R consecutive query rows (a multiple of 4: score16 has 12 and
// 16, which pad fewer rows for some queries) in registers and sweeps the target's
// columns, lane k one column behind lane k - 1, which hands it the H and F
// of its last row by a shuffle. A query taller than G * R rows goes in
// passes: the last lane keeps its row's H and F per column in `bottom`, the
// next pass's first lane reads them back. Targets come sorted by length,
// longest first; a warp takes a bundle of 32 / G consecutive pairs (nearly
// equal lengths) from a work counter, so its groups finish together.
//
//   score16: local alignment, score only, two targets a group: each 32-bit
//            register holds a cell of target A (low half) and of target B
//            (high half); recurrence.hpp's 16-bit pair form, F's chain one
//            instruction a row (update_cell_s16x2_from_diag). A score that
//            reaches the overflow bound is marked for a 32-bit rescore.
//   score32: every mode, one target a group, the score and its end cell
//            (the first in row-major order among ties, as the oracle's);
//            recurrence.hpp's update_cell_from_a.
//
// The query profile, int8 scores of each letter (and of the padding letter
// `dim`) against each query row, sits in shared memory; rows past the
// query's end score as the padding letter. Padding scores are negative, so
// a padded cell never reaches a real cell's score (every path through one
// loses on the way); 16-bit pairs pad the shorter target with that letter,
// and score16 computes the columns before and after a lane's pair as that
// letter too, rather than branch around them.
#include <cstdint>

#include "pairwise/gotoh_cell.hpp"
#include "pairwise/recurrence.hpp"

namespace gdp::pairwise::inter {

inline constexpr unsigned kFull = 0xffffffffu;
inline constexpr int kWarp = 32;
inline constexpr int kBlockThreads = 256;
inline constexpr std::int8_t kPadScore = -128;

struct Params {
  const std::int8_t* profile;  // (dim + 1) x rows_padded, letter-major
  int dim, rows_padded;        // letters dim: the padding letter
  int m;                       // query length
  int group;                   // G: lanes a pair
  int passes;                  // rows_padded = passes * G * R
  // Targets: pair p's columns start at column offset[p] of `letters`, one
  // byte a column (score32) or two, A's then B's (score16); length[p] is
  // its columns (A's, the longer, for score16). Bundles of 32 / G pairs.
  const std::uint8_t* letters;
  const long long* offset;
  const int* length;
  int pairs;
  unsigned* bottom;  // two words a column (at 2 * offset[p]) when passes > 1
  int* next_bundle;  // the work counter, 0 at launch
  GotohCosts costs;
  int overflow_at;   // score16: scores at or above it are rerun in 32 bits
  int* score;        // score16: A's at [2p], B's at [2p + 1]
  int4* end;         // score32: (score, end_i, end_j) a pair
};

// The profile's rows [row, row + R) for `letter`, R/4 words, in the widest
// loads that `row` (a multiple of R) and the row stride (of 16) align.
template <int R>
__device__ __forceinline__ void load_profile(const std::int8_t* prof, int rows_padded, int letter, int row,
                                             unsigned (&w)[R / 4]) {
  static_assert(R % 4 == 0, "rows a lane: a multiple of 4");
  if constexpr (R % 16 == 0) {
    const uint4* src = reinterpret_cast<const uint4*>(prof + letter * rows_padded + row);
#pragma unroll
    for (int k = 0; k < R / 16; ++k) {
      const uint4 v = src[k];
      w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
    }
  } else if constexpr (R % 8 == 0) {
    const uint2* src = reinterpret_cast<const uint2*>(prof + letter * rows_padded + row);
#pragma unroll
    for (int k = 0; k < R / 8; ++k) {
      const uint2 v = src[k];
      w[2 * k] = v.x, w[2 * k + 1] = v.y;
    }
  } else {
    const unsigned* src = reinterpret_cast<const unsigned*>(prof + letter * rows_padded + row);
#pragma unroll
    for (int k = 0; k < R / 4; ++k) w[k] = src[k];
  }
}

// PRMT in its generic mode: a selector nibble's bit 3 replicates the sign
// of the byte it selects, which makes two sign-extended 16-bit halves of two
// int8 scores in one instruction.
__device__ __forceinline__ unsigned prmt(unsigned x, unsigned y, unsigned s) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s));
  return r;
}
// Byte b of x in the low half, byte b of y in the high half, sign-extended.
template <int B>
__device__ __forceinline__ unsigned interleave_s8(unsigned x, unsigned y) {
  constexpr unsigned s = B | ((B | 8) << 4) | ((4 + B) << 8) | (((4 + B) | 8) << 12);
  return prmt(x, y, s);
}
__device__ __forceinline__ int s8(unsigned w, int b) { return static_cast<int>(static_cast<signed char>(w >> (8 * b))); }

// A warp's next bundle of pairs, the same in every lane; -1 when none is left.
__device__ __forceinline__ int take_bundle(const Params& p, int lane, int groups) {
  int b = 0;
  if (lane == 0) b = atomicAdd(p.next_bundle, 1);
  b = __shfl_sync(kFull, b, 0);
  return static_cast<long long>(b) * groups < p.pairs ? b : -1;
}

// A group's pair of its warp's bundle: its columns (0 for a group past the
// last pair), where they start, and the steps the whole warp takes (the
// bundle's first pair is its longest).
struct GroupPair {
  int pair, n, steps;
  bool has_pair;
  long long offset;
};
__device__ __forceinline__ GroupPair group_pair(const Params& p, int bundle, int lane, int groups) {
  GroupPair g;
  g.pair = bundle * groups + lane / p.group;
  g.has_pair = g.pair < p.pairs;
  g.n = g.has_pair ? p.length[g.pair] : 0;
  g.steps = p.length[bundle * groups] + p.group - 1;
  g.offset = g.has_pair ? p.offset[g.pair] : 0;
  return g;
}

__device__ __forceinline__ void load_profile_to_shared(const Params& p, std::int8_t* prof) {
  const int words = (p.dim + 1) * p.rows_padded / 16;
  const uint4* src = reinterpret_cast<const uint4*>(p.profile);
  uint4* dst = reinterpret_cast<uint4*>(prof);
  for (int k = static_cast<int>(threadIdx.x); k < words; k += blockDim.x) dst[k] = src[k];
  __syncthreads();
}

// Three blocks an SM rather than four at 16 rows a lane: the registers the
// rows' diagonal parts need.
template <int R>
__global__ void __launch_bounds__(kBlockThreads, R <= 12 ? 4 : 3) score16(Params p) {
  extern __shared__ uint4 shared_words[];
  std::int8_t* prof = reinterpret_cast<std::int8_t*>(shared_words);
  load_profile_to_shared(p, prof);
  const int lane = static_cast<int>(threadIdx.x) % kWarp, G = p.group, k = lane % G, groups = kWarp / G;
  const unsigned minus_oe = pair(-p.costs.open_extend, -p.costs.open_extend);
  const unsigned minus_extend = pair(-p.costs.extend, -p.costs.extend);
  const unsigned padding = static_cast<unsigned>(p.dim) * 0x101u;  // the padding letter in both halves
  for (int bundle; (bundle = take_bundle(p, lane, groups)) >= 0;) {
    const GroupPair gp = group_pair(p, bundle, lane, groups);
    const int pr = gp.pair, n = gp.n, steps = gp.steps;
    const bool has_pair = gp.has_pair;
    const long long off = gp.offset;
    const unsigned short* cols = reinterpret_cast<const unsigned short*>(p.letters) + off;
    unsigned* bottom = p.bottom + 2 * off;
    unsigned best = 0;
    for (int pass = 0; pass < p.passes; ++pass) {
      const int row0 = (pass * G + k) * R;
      const bool from_bottom = pass > 0, to_bottom = pass + 1 < p.passes && k == G - 1;
      // Local boundaries: H(i, 0) = 0 and E(i, 1) from it: es = 0. The row
      // above hands H and fs (F + open + extend); row 0's are 0. A column
      // outside the pair keeps them: its padding scores leave every cell 0.
      unsigned h[R], es[R];
#pragma unroll
      for (int r = 0; r < R; ++r) h[r] = es[r] = 0;
      unsigned up_h = 0, up_fs = 0, up_diag = 0;
      for (int s = 0; s < steps; ++s) {
        const int j = s - k;
        const bool active = j >= 0 && j < n;
        if (k == 0) {
          up_diag = up_h;
          up_h = up_fs = 0;
          if (from_bottom && active) up_h = bottom[2 * j], up_fs = bottom[2 * j + 1];
        }
        const unsigned c = active ? cols[j] : padding;
        unsigned wa[R / 4], wb[R / 4];
        load_profile<R>(prof, p.rows_padded, static_cast<int>(c & 0xffu), row0, wa);
        load_profile<R>(prof, p.rows_padded, static_cast<int>(c >> 8), row0, wb);
        // Every row's diagonal part first, from the H it replaces.
        unsigned from_diag[R];
#pragma unroll
        for (int r = 0; r < R; r += 4) {
          from_diag[r] = diag_s16x2(r == 0 ? up_diag : h[r - 1], interleave_s8<0>(wa[r / 4], wb[r / 4]));
          from_diag[r + 1] = diag_s16x2(h[r], interleave_s8<1>(wa[r / 4], wb[r / 4]));
          from_diag[r + 2] = diag_s16x2(h[r + 1], interleave_s8<2>(wa[r / 4], wb[r / 4]));
          from_diag[r + 3] = diag_s16x2(h[r + 2], interleave_s8<3>(wa[r / 4], wb[r / 4]));
        }
        unsigned fs = up_fs;
#pragma unroll
        for (int r = 0; r < R; ++r) h[r] = update_cell_s16x2_from_diag(from_diag[r], es[r], fs, minus_oe, minus_extend);
#pragma unroll
        for (int r = 0; r < R; r += 4) best = __vimax3_s16x2(best, __vimax3_s16x2(h[r], h[r + 1], h[r + 2]), h[r + 3]);
        const unsigned out_h = h[R - 1], out_fs = fs;
        if (to_bottom && active) bottom[2 * j] = out_h, bottom[2 * j + 1] = out_fs;
        // What lane k - 1 made of column j + 1, once it has begun.
        const unsigned in_h = __shfl_up_sync(kFull, out_h, 1, G), in_fs = __shfl_up_sync(kFull, out_fs, 1, G);
        if (k > 0 && j + 1 >= 0) up_diag = up_h, up_h = in_h, up_fs = in_fs;
      }
    }
    for (int x = 1; x < G; x <<= 1) best = __vimax_s16x2_relu(best, __shfl_xor_sync(kFull, best, x));
    if (k == 0 && has_pair) {
      p.score[2 * pr] = low(best), p.score[2 * pr + 1] = high(best);
    }
  }
}

// A cell that a lane keeps: its score, then the first in row-major order.
struct Kept {
  int score, i, j;  // 1-based; (0, 0) for the boundary
};
__device__ __forceinline__ bool before(const Kept& a, const Kept& b) {
  return a.score > b.score || (a.score == b.score && (a.i < b.i || (a.i == b.i && a.j < b.j)));
}

template <int R, bool Local>
__global__ void __launch_bounds__(kBlockThreads) score32(Params p, End end) {
  extern __shared__ uint4 shared_words[];
  std::int8_t* prof = reinterpret_cast<std::int8_t*>(shared_words);
  load_profile_to_shared(p, prof);
  using Cell = GotohCell<Local>;
  const GotohCosts& kc = p.costs;
  const GapCosts g{kc.open_extend, kc.extend};
  const int lane = static_cast<int>(threadIdx.x) % kWarp, G = p.group, k = lane % G, groups = kWarp / G;
  for (int bundle; (bundle = take_bundle(p, lane, groups)) >= 0;) {
    const GroupPair gp = group_pair(p, bundle, lane, groups);
    const int pr = gp.pair, n = gp.n, steps = gp.steps;
    const bool has_pair = gp.has_pair;
    const long long off = gp.offset;
    const std::uint8_t* cols = p.letters + off;
    unsigned* bottom = p.bottom + 2 * off;
    // Local: the best cell anywhere. Otherwise row m's: its column 0 first.
    Kept best = Local ? Kept{0, 0, 0} : Kept{Cell::left(kc, p.m).h, p.m, 0};
    for (int pass = 0; pass < p.passes; ++pass) {
      const int row0 = (pass * G + k) * R;  // the rows above this lane's
      const bool from_bottom = pass > 0, to_bottom = pass + 1 < p.passes && k == G - 1;
      // Row m in this lane's registers, at `last` (else -1).
      const int last = p.m - 1 - row0 >= 0 && p.m - 1 - row0 < R ? p.m - 1 - row0 : -1;
      int h[R], e[R], e_open[R];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const GotohEdge left = Cell::left(kc, row0 + r + 1);
        h[r] = left.h, e[r] = left.e, e_open[r] = left.h - kc.open_extend;
      }
      int up_h = Cell::left(kc, row0).h, up_f = 0, up_diag = 0;
      if (row0 == 0) up_h = 0;
      for (int s = 0; s < steps; ++s) {
        const int j = s - k;
        const bool active = j >= 0 && j < n;
        if (k == 0) {
          up_diag = up_h;
          if (active) {
            if (from_bottom) {
              up_h = static_cast<int>(bottom[2 * j]), up_f = static_cast<int>(bottom[2 * j + 1]);
            } else {
              const GotohDown top = Cell::top(kc, j + 1);
              up_h = top.h, up_f = top.f;
            }
          }
        }
        int out_h = 0, out_f = 0;
        if (active) {
          unsigned w[R / 4];
          load_profile<R>(prof, p.rows_padded, cols[j], row0, w);
          int f = up_f, diag = up_diag;
#pragma unroll
          for (int r = 0; r < R; ++r) {
            const int hn = update_cell_from_a<Local>(diag, s8(w[r / 4], r % 4), e[r], e_open[r], f, g);
            diag = h[r];
            h[r] = hn;
          }
          out_h = h[R - 1], out_f = f;
          if (to_bottom) bottom[2 * j] = static_cast<unsigned>(out_h), bottom[2 * j + 1] = static_cast<unsigned>(out_f);
          if (Local) {
            int top = h[0];
#pragma unroll
            for (int r = 1; r < R; ++r) top = max2(top, h[r]);
            if (top >= best.score) {
              int first = R - 1;
#pragma unroll
              for (int r = R - 1; r >= 0; --r)
                if (h[r] == top) first = r;
              const Kept here{top, row0 + first + 1, j + 1};
              if (before(here, best)) best = here;
            }
          } else if (last >= 0 && pass + 1 == p.passes && (end == End::last_row || j + 1 == n)) {
            int v = h[0];
#pragma unroll
            for (int r = 1; r < R; ++r)
              if (r == last) v = h[r];
            if (end == End::corner || v > best.score) best = {v, p.m, j + 1};
          }
        }
        const int in_h = __shfl_up_sync(kFull, out_h, 1, G), in_f = __shfl_up_sync(kFull, out_f, 1, G);
        if (k > 0 && j + 1 >= 0) up_diag = up_h, up_h = in_h, up_f = in_f;
      }
    }
    if (Local) {
      for (int x = 1; x < G; x <<= 1) {
        const Kept other{__shfl_xor_sync(kFull, best.score, x), __shfl_xor_sync(kFull, best.i, x),
                         __shfl_xor_sync(kFull, best.j, x)};
        if (before(other, best)) best = other;
      }
    } else {  // row m's lane has it
      const int holder = (lane / G) * G + (p.m - 1) / R - (p.passes - 1) * G;
      best = {__shfl_sync(kFull, best.score, holder), p.m, __shfl_sync(kFull, best.j, holder)};
    }
    if (k == 0 && has_pair) {
      p.end[pr] = make_int4(best.score, best.i, best.j, 0);
    }
  }
}

}  // namespace gdp::pairwise::inter
