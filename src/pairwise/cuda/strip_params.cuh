#pragma once
// The strip engine's kernel parameters, for any cell policy's Types
// (gotoh_cell.hpp says what a cell supplies), and the warp primitives
// that move a cell's values between lanes.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise::striped {

constexpr unsigned kFull = 0xffffffffu;

// f(std::integral_constant<int, 0>{}) .. f(std::integral_constant<int, N - 1>{}):
// a loop unrolled with its index known at compile time.
template <int N, class F>
__device__ __forceinline__ void for_each_index(F&& f) {
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (f(std::integral_constant<int, K>{}), ...);
  }(std::make_integer_sequence<int, N>{});
}

// A cell's checkpoint spacing in kept passes (strip_plan.hpp's kept_rows).
template <class Cell>
constexpr int kKeptRowsOf = kept_rows(sizeof(typename Cell::DirWord));

template <class Types>
struct Params {
  using Edge = typename Types::Edge;
  using Down = typename Types::Down;
  const std::uint8_t* q;
  const std::uint8_t* t;
  int m, n;
  const int* sub;  // rows x dim: row a scores the query's letter a against each target letter
  int dim;
  int rows;        // the query's letters: the profile's rows (dim, or fewer in score passes)
  typename Types::Costs costs;
  long long strips, slots;
  int group;                     // strips a block sweeps together (1 or kWarpsPerBlock), handing over in shared memory
  Edge* ring;                    // slots x ring_rows edge cells, between groups of strips
  unsigned long long* flags;     // per slot: group << 32 | rows published
  unsigned long long* ticket;
  // Rows a ring slot holds (strip_plan.hpp: GridPlan::ring_rows): m, or a
  // window of a power of two rows, row r at (r - 1) & ring_mask, which its
  // reader frees as it reads: then `read` holds, per slot, the reading
  // group << 32 | rows it has read, published every ring_rows / 4 rows.
  long long ring_rows;
  int ring_mask;                 // ring_rows - 1 where windowed, else -1 (every bit)
  int ring_shift;                // log2(ring_rows) where windowed, else 31: a row's lap is (r - 1) >> ring_shift
  unsigned long long* read;      // windowed: per slot, as above; else null
  // A target too long for one pass goes through in pieces, one launch each
  // (striped_score.cu). The first strip of a later piece takes its left
  // edge from the piece before, whose last strip writes its right edge.
  long long j_base;              // the target's columns before this piece
  const Edge* left_edge;         // not null: rows 1..m at [0..m-1] of the column left of the piece
  Edge* right_edge;              // not null: the piece's last strip writes its right edge here
  // A pass chained over several GPUs (chained_pass.cu) deals its pieces to
  // them in turn: a piece's left edge then arrives from the GPU before as
  // that GPU's piece computes it. Not null: left_flag (this GPU's memory)
  // says how far the edge has come, as (piece - 1) << 32 | rows; the last
  // strip writes right_edge and right_flag (the next GPU's memory) so.
  // Waits stop once the host sets *chain_abort (a place failed).
  unsigned long long* left_flag;
  unsigned long long* right_flag;
  const int* chain_abort;
  long long piece;               // this launch's piece of the target, counted from 0
  typename Types::LastRow last;  // row m's values (the cell's keep_last), columns 1..n at [1..n]
  int4* strip_best;              // End::anywhere: per strip {score, i, j}
  Down* checkpoints;             // kept passes: the Down of every column after rows R, 2R, ... (R = kKeptRowsOf<Cell>)
  Edge* kept_edges;              // kept passes: strip s's right edge, row i at [s * m + i - 1]
  // The rebased 16-bit kernel's kept passes, as the two above in packed
  // cells (kept_cell.hpp), kept strips of kKeptWidth columns; and the
  // anchors: H after row b * R of kept strip s's last column at
  // [(b - 1) * (padded_n / kKeptWidth) + s].
  unsigned* kept_packed_checkpoints;
  unsigned* kept_packed_edges;
  int* kept_anchors;
  // The rebased 16-bit kernel's passes that save rows (shape.hpp:
  // SavedRows): row k * save_every's H and F at [(k - 1) * save_stride +
  // j_base + j] (save_stride: the whole target's n + 1).
  int* saved_h;
  int* saved_f;
  int save_every;  // a power of two
  long long save_stride;
  long long padded_n;            // strips x strip width: a checkpoint row's length
  int* overflow;                 // 16-bit kernels: set to 1 when a score reached overflow_at; all warps then stop
  int overflow_at;
  // The diagonal 16-bit kernel: a rebase after every steady step s with
  // s & rebase_mask == rebase_mask, and the reach (strip_plan.hpp: Rebase16).
  int rebase_mask, reach;
};

// The ring's shape in `p`, as planned; `flags` holds 2 x slots + 2 words
// (the slots' flags, the ticket, the overflow flag, then the readers').
template <class Types>
void set_ring(Params<Types>& p, const GridPlan& g, typename Types::Edge* ring, unsigned long long* flags) {
  p.slots = g.slots;
  p.ring = ring;
  p.flags = flags;
  p.ticket = flags + g.slots;
  p.ring_rows = g.ring_rows;
  p.ring_mask = g.windowed ? static_cast<int>(g.ring_rows - 1) : -1;
  p.ring_shift = 31;
  if (g.windowed)
    for (p.ring_shift = 0; (1LL << p.ring_shift) < g.ring_rows;) ++p.ring_shift;
  p.read = g.windowed ? flags + g.slots + 2 : nullptr;
}

// A value of a few 32-bit words, word by word: what the warp shuffles and
// the ring's cache-global loads and stores move a cell's values with.
template <class T>
constexpr int kWords = static_cast<int>(sizeof(T) / sizeof(int));

template <class T, class F>
__device__ __forceinline__ T map_words(const T& x, F&& f) {
  static_assert(sizeof(T) % sizeof(int) == 0 && std::is_trivially_copyable_v<T>);
  int w[kWords<T>];
  std::memcpy(w, &x, sizeof x);
#pragma unroll
  for (int k = 0; k < kWords<T>; ++k) w[k] = f(w[k]);
  T out;
  std::memcpy(&out, w, sizeof out);
  return out;
}
// x of the lane `delta` below (lane 0 keeps its own).
template <class T>
__device__ __forceinline__ T shfl_up(const T& x, unsigned delta = 1) {
  return map_words(x, [&](int w) { return __shfl_up_sync(kFull, w, delta); });
}
// x of lane `from`.
template <class T>
__device__ __forceinline__ T shfl(const T& x, int from) {
  return map_words(x, [&](int w) { return __shfl_sync(kFull, w, from); });
}

// Loads and stores through L2 only (a cell of 8 or 16 bytes at once): the
// ring and the pieces' edges, which other SMs write and read.
template <class T>
__device__ __forceinline__ void store_cg(T* at, const T& x) {
  static_assert(sizeof(T) == 8 || sizeof(T) == 16);
  if constexpr (sizeof(T) == 8) {
    int2 v;
    std::memcpy(&v, &x, sizeof v);
    __stcg(reinterpret_cast<int2*>(at), v);
  } else {
    int4 v;
    std::memcpy(&v, &x, sizeof v);
    __stcg(reinterpret_cast<int4*>(at), v);
  }
}
template <class T>
__device__ __forceinline__ T load_cg(const T* at) {
  static_assert(sizeof(T) == 8 || sizeof(T) == 16);
  T x;
  if constexpr (sizeof(T) == 8) {
    const int2 v = __ldcg(reinterpret_cast<const int2*>(at));
    std::memcpy(&x, &v, sizeof x);
  } else {
    const int4 v = __ldcg(reinterpret_cast<const int4*>(at));
    std::memcpy(&x, &v, sizeof x);
  }
  return x;
}

}  // namespace gdp::pairwise::striped
