#pragma once
// What the striped score kernel (striped_score.cu) and the chunked traceback
// (chunked_traceback.cu) share: the kernel parameters, the boundaries, the
// strip-to-strip flags, the target profile and the one row update.
#include <cuda/atomic>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/recurrence.hpp"
#include "pairwise/shape.hpp"
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

struct Params {
  const std::uint8_t* q;
  const std::uint8_t* t;
  int m, n;
  const int* sub;  // rows x dim: row a scores the query's letter a against each target letter
  int dim;
  int rows;        // the query's letters: the profile's rows (dim, or fewer in score passes)
  int open, open_extend, extend;
  int free_top, left_open;
  long long strips, slots;
  int group;                     // strips a block sweeps together (1 or kWarpsPerBlock), handing over in shared memory
  int2* ring;                    // slots x m boundary cells (H, E), between groups of strips
  unsigned long long* flags;     // per slot: group << 32 | rows published
  unsigned long long* ticket;
  // A target too long for one pass goes through in pieces, one launch each
  // (striped_score.cu). The first strip of a later piece takes its left
  // edge from the piece before, whose last strip writes its right edge.
  long long j_base;              // the target's columns before this piece
  const int2* left_edge;         // not null: rows 1..m at [0..m-1] of the column left of the piece
  int2* right_edge;              // not null: the piece's last strip writes its right edge here
  int* last_h;                   // row m, columns 1..n at [1..n]; may be null
  int* last_f;
  int4* strip_best;              // End::anywhere: per strip {score, i, j}
  int2* checkpoints;             // kept passes: H and F(i+1) of every column after rows R, 2R, ... (R = kKeptRows)
  long long padded_n;            // strips x strip width: a checkpoint row's length
  int* overflow;                 // 16-bit kernel: set to 1 when a score reached overflow_at; all warps then stop
  int overflow_at;
};

using Kernel = void (*)(Params);

// The 16-bit kernel (striped_score16.cu): local, End::anywhere, scores
// within +-127; two cells a register, a strip of 64 * cols columns.
Kernel striped16_kernel(int cols);
// The same with a warp on one row at a time (striped_rows16.cu).
Kernel striped_rows16_kernel(int cols);

// Row 0 at the piece's column j (column j_base + j of the target).
__device__ __forceinline__ int top_h(const Params& p, bool local, long long j) {
  j += p.j_base;
  if (j == 0 || local || p.free_top) return 0;
  return -(p.open + static_cast<int>(j) * p.extend);
}
__device__ __forceinline__ int left_h(const Params& p, bool local, int i) {
  if (local) return 0;
  return -(p.left_open + i * p.extend);
}

__device__ __forceinline__ unsigned long long flag_value(long long strip, int rows) {
  return (static_cast<unsigned long long>(strip) << 32) | static_cast<unsigned>(rows);
}
// Waits until the flag reaches `at_least`. With an abort flag (the 16-bit
// kernel's overflow), gives up once that is set and returns false.
__device__ __forceinline__ bool wait_flag(unsigned long long* flag, unsigned long long at_least,
                                          const int* abort = nullptr) {
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> f(*flag);
  while (f.load(::cuda::memory_order_acquire) < at_least) {
    if (abort && *reinterpret_cast<const volatile int*>(abort)) return false;
  }
  return true;
}

// Best of two candidates: higher score, then the earlier cell in row-major
// order (the oracle's tie rule).
__device__ __forceinline__ bool better(int s1, int i1, int j1, int s2, int i2, int j2) {
  if (s1 != s2) return s1 > s2;
  if (i1 != i2) return i1 < i2;
  return j1 < j2;
}

// The warp's best cell of strip s, for End::anywhere.
__device__ __forceinline__ void publish_strip_best(const Params& p, long long s, int lane, int best, int best_i,
                                                   int best_j) {
  for (int d = kLanes / 2; d > 0; d /= 2) {
    const int s2 = __shfl_xor_sync(kFull, best, d), i2 = __shfl_xor_sync(kFull, best_i, d),
              j2 = __shfl_xor_sync(kFull, best_j, d);
    if (better(s2, i2, j2, best, best_i, best_j)) best = s2, best_i = i2, best_j = j2;
  }
  if (lane == 0) p.strip_best[s] = make_int4(best, best_i, best_j, 0);
}

// How strips hand their right edge to the strip on their right. A group of
// p.group neighbouring strips is swept by the warps of one block; inside it
// the edge goes through a Link in shared memory, between groups through
// the ring in device memory (slot u % slots for group u), in batches of
// rows signalled by a counter or a flag. The links and the ticket of a
// block's group live in shared memory.
constexpr int kLinkRows = 64;  // rows a link holds: more than a strip's lag behind its left neighbour
struct Link {
  int2 rows[kLinkRows];  // row r at (r - 1) % kLinkRows
  int published;         // rows written by the left warp
  int consumed;          // rows read by the right warp
};
struct BlockShared {
  Link links[kWarpsPerBlock - 1];  // links[w]: from warp w to warp w + 1
  long long group;
};

// A strip's two neighbours: the matrix's column 0 (or the piece's left
// edge), a link, or a ring slot (or, on the right of the last strip,
// nothing or the piece's right edge).
struct Neighbours {
  bool first = false;
  bool out_edge = false;
  Link* in_link = nullptr;
  Link* out_link = nullptr;
  long long in_slot = -1, out_slot = -1, in_group = 0, out_group = 0;
  __device__ bool produces() const { return out_link || out_slot >= 0 || out_edge; }
};

__device__ __forceinline__ Neighbours neighbours(const Params& p, long long s, BlockShared& shared) {
  Neighbours nb;
  const long long g = s / p.group;
  const int w = static_cast<int>(s % p.group);
  nb.first = s == 0;
  nb.out_edge = s + 1 == p.strips && p.right_edge;
  if (s > 0 && w > 0) nb.in_link = &shared.links[w - 1];
  if (s > 0 && w == 0) nb.in_slot = (g - 1) % p.slots, nb.in_group = g - 1;
  if (s + 1 < p.strips && w + 1 < p.group) nb.out_link = &shared.links[w];
  if (s + 1 < p.strips && w + 1 == p.group) nb.out_slot = g % p.slots, nb.out_group = g;
  return nb;
}

// Waits until the counter reaches `at_least` (block scope, acquire).
__device__ __forceinline__ bool wait_count(int* count, int at_least, const int* abort) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_block> c(*count);
  while (c.load(::cuda::memory_order_acquire) < at_least) {
    if (abort && *reinterpret_cast<const volatile int*>(abort)) return false;
  }
  return true;
}

// An acquire load of a link's counter whose value lane 0 has already
// waited for: the lanes that then read or write the link's rows each
// synchronise with the other warp's release themselves, so every access to
// the rows is ordered by the memory model, not by the warp's lock-step.
__device__ __forceinline__ void acquire_count(int& count) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_block> c(count);
  (void)c.load(::cuda::memory_order_acquire);
}

// The next strip for this warp, or -1 when there is none left (or the pass
// was aborted). With groups, the block takes a group from the ticket and
// warp w sweeps its strip w; a warp whose strip lies past the end gets -2
// and sits the round out.
__device__ __forceinline__ long long next_strip(const Params& p, BlockShared& shared, int lane) {
  const int warp = static_cast<int>(threadIdx.x) / kLanes;
  if (p.group == 1) {
    unsigned long long ticket = 0;
    if (lane == 0) ticket = p.overflow && *reinterpret_cast<const volatile int*>(p.overflow) ? p.strips : atomicAdd(p.ticket, 1ull);
    const long long s = static_cast<long long>(__shfl_sync(kFull, ticket, 0));
    return s < p.strips ? s : -1;
  }
  __syncthreads();  // every warp is done with the last group: the links are free
  if (threadIdx.x == 0) {
    const bool aborted = p.overflow && *reinterpret_cast<const volatile int*>(p.overflow);
    shared.group = aborted ? p.strips : static_cast<long long>(atomicAdd(p.ticket, 1ull));
    for (Link& l : shared.links) l.published = 0, l.consumed = 0;
  }
  __syncthreads();
  if (shared.group * p.group >= p.strips) return -1;
  const long long s = shared.group * p.group + warp;
  return s < p.strips ? s : -2;
}

// Before a strip writes its ring slot: the group that read the slot's last
// contents must be done with them. False if `abort` was set.
__device__ __forceinline__ bool wait_free_slot(const Params& p, const Neighbours& nb, int lane, const int* abort = nullptr) {
  int ok = 1;
  const long long g = nb.out_group;
  if (nb.out_slot >= 0 && g >= p.slots && lane == 0)
    ok = wait_flag(&p.flags[(g - p.slots + 1) % p.slots], flag_value(g - p.slots + 1, p.m), abort);
  return __shfl_sync(kFull, ok, 0);
}

// Lane 0's left edge for rows step+1 .. step+kBatch, one row a lane: the
// matrix's column 0 for the first strip, else the right edge of the strip
// on the left (waiting for it). False, for the whole warp, if `abort` was set.
__device__ __forceinline__ bool load_left_batch(const Params& p, bool local, const Neighbours& nb, int lane, int step,
                                                int& in_h, int& in_e, const int* abort = nullptr) {
  const int row = step + 1 + lane;
  if (nb.first) {
    if (!p.left_edge) {
      in_h = left_h(p, local, row);
      in_e = neg_inf;
    } else if (lane < kBatch && row <= p.m) {
      const int2 v = p.left_edge[row - 1];
      in_h = v.x;
      in_e = v.y;
    }
    return true;
  }
  const int upto = min(step + kBatch, p.m);
  int ready = 1;
  if (nb.in_link) {
    if (lane == 0) ready = wait_count(&nb.in_link->published, upto, abort);
    if (!__shfl_sync(kFull, ready, 0)) return false;
    if (lane < kBatch && row <= p.m) {
      acquire_count(nb.in_link->published);  // each reading lane's own acquire of the rows lane 0 saw published
      const int2 v = nb.in_link->rows[(row - 1) % kLinkRows];
      in_h = v.x;
      in_e = v.y;
    }
    __syncwarp();
    if (lane == 0) {
      ::cuda::atomic_ref<int, ::cuda::thread_scope_block> c(nb.in_link->consumed);
      c.store(upto, ::cuda::memory_order_release);
    }
    return true;
  }
  if (lane == 0) ready = wait_flag(&p.flags[nb.in_slot], flag_value(nb.in_group, upto), abort);
  if (!__shfl_sync(kFull, ready, 0)) return false;
  __syncwarp();  // orders the other lanes' reads after lane 0's acquire
  if (lane < kBatch && row <= p.m) {
    const int2 v = __ldcg(&p.ring[nb.in_slot * p.m + row - 1]);
    in_h = v.x;
    in_e = v.y;
  }
  return true;
}

// The 16-bit kernel's ring holds tagged rows: H and es of row r, 16 bits
// each, under the number of the group that wrote them, in one 8-byte word
// that one store writes and one load reads whole. A reader knows that row
// r has arrived when it finds its left group's number there, so the ring
// needs no flag and no fence a batch, and the next batch can be loaded
// while this one's rows are computed, its latency hidden behind them. (The
// host fills the ring with 0xff before each launch: no group's number.)
__device__ __forceinline__ unsigned long long* tagged_ring(const Params& p) {
  return reinterpret_cast<unsigned long long*>(p.ring);
}
__device__ __forceinline__ void store_tagged(const Params& p, const Neighbours& nb, int row, int h, int e) {
  const unsigned long long word = static_cast<unsigned long long>(static_cast<unsigned>(nb.out_group)) << 32 |
                                  (static_cast<unsigned>(e) & 0xffffu) << 16 | (static_cast<unsigned>(h) & 0xffffu);
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> at(tagged_ring(p)[nb.out_slot * p.m + row - 1]);
  at.store(word, ::cuda::memory_order_relaxed);
}
__device__ __forceinline__ unsigned long long load_tagged(const Params& p, const Neighbours& nb, int row) {
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> at(tagged_ring(p)[nb.in_slot * p.m + row - 1]);
  return at.load(::cuda::memory_order_relaxed);
}
// Starts loading lane k's row step + 1 + k (k < kBatch) of the left slot
// into `ahead`; take_tagged_batch uses it a batch later.
__device__ __forceinline__ void load_tagged_ahead(const Params& p, const Neighbours& nb, int lane, int step,
                                                  unsigned long long& ahead) {
  const int row = step + 1 + lane;
  if (lane < kBatch && row <= p.m) ahead = load_tagged(p, nb, row);
}
// Lane 0's left edge for rows step+1 .. step+kBatch from `ahead`, loading
// again the rows that had not arrived when it was loaded. False, for the
// whole warp, if `abort` was set.
__device__ __forceinline__ bool take_tagged_batch(const Params& p, const Neighbours& nb, int lane, int step,
                                                  unsigned long long& ahead, int& in_h, int& in_e,
                                                  const int* abort) {
  const int row = step + 1 + lane;
  const bool mine = lane < kBatch && row <= p.m;
  const unsigned tag = static_cast<unsigned>(nb.in_group);
  for (unsigned polls = 1; !__all_sync(kFull, !mine || static_cast<unsigned>(ahead >> 32) == tag); ++polls) {
    if (mine && static_cast<unsigned>(ahead >> 32) != tag) ahead = load_tagged(p, nb, row);
    if (polls % 64 == 0) {
      int stop = 0;
      if (lane == 0) stop = *reinterpret_cast<const volatile int*>(abort);
      if (__shfl_sync(kFull, stop, 0)) return false;
    }
  }
  in_h = static_cast<short>(ahead & 0xffffu);
  in_e = static_cast<short>((ahead >> 16) & 0xffffu);
  return true;
}

// Rows base + 1 .. r of the strip's right edge, row base + 1 + k held by
// lane k (base: r - 1 rounded down to kBatch), to the link or the ring
// slot; then the counter or flag says r rows are done. False, for the
// whole warp, if `abort` was set.
template <bool Tagged = false>
__device__ __forceinline__ bool publish_edge(const Params& p, const Neighbours& nb, int lane, int r, int out_h,
                                             int out_e, const int* abort = nullptr) {
  const int base = (r - 1) & ~(kBatch - 1);
  if (nb.out_edge) {  // read by the next launch: no flag
    if (lane < kBatch && base + lane < r) p.right_edge[base + lane] = make_int2(out_h, out_e);
    return true;
  }
  if (nb.out_link) {
    int ready = 1;  // the rows kLinkRows before these have been read
    if (lane == 0) ready = wait_count(&nb.out_link->consumed, r - kLinkRows, abort);
    if (!__shfl_sync(kFull, ready, 0)) return false;
    if (lane < kBatch && base + lane < r) {
      acquire_count(nb.out_link->consumed);  // each writing lane's own acquire: the reads of these slots are done
      nb.out_link->rows[(base + lane) % kLinkRows] = make_int2(out_h, out_e);
    }
    __threadfence_block();
    __syncwarp();
    if (lane == 0) {
      ::cuda::atomic_ref<int, ::cuda::thread_scope_block> c(nb.out_link->published);
      c.store(r, ::cuda::memory_order_release);
    }
    return true;
  }
  if constexpr (Tagged) {
    if (lane < kBatch && base + lane < r) store_tagged(p, nb, base + lane + 1, out_h, out_e);
    if (r < p.m) return true;
    // The last row: the slot's flag now only says that the group is done,
    // and with it done reading its own left slot (wait_free_slot).
  } else {
    if (lane < kBatch && base + lane < r) __stcg(&p.ring[nb.out_slot * p.m + base + lane], make_int2(out_h, out_e));
  }
  __threadfence();
  __syncwarp();
  if (lane == 0) {
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> flag(p.flags[nb.out_slot]);
    flag.store(flag_value(nb.out_group, r), ::cuda::memory_order_release);
  }
  return true;
}

// Row r of the strip's right edge (H oh, E oe, from the last lane) is kept
// by lane (r - 1) % kBatch; every kBatch rows (and at row m) they are
// published. False, for the whole warp, if `abort` was set.
template <bool Tagged = false>
__device__ __forceinline__ bool gather_and_publish(const Params& p, const Neighbours& nb, int lane, int r, int oh,
                                                   int oe, int& out_h, int& out_e, const int* abort = nullptr) {
  if (r < 1 || r > p.m) return true;
  if (((r - 1) & (kBatch - 1)) == lane) out_h = oh, out_e = oe;
  if ((r & (kBatch - 1)) != 0 && r != p.m) return true;
  return publish_edge<Tagged>(p, nb, lane, r, out_h, out_e, abort);
}

// One row of a lane's columns: recurrence.hpp's update_cell_from_a, the
// E-from-A form of update_cell. `f` holds F(i, c) on entry and F(i+1, c)
// on return. With LastRow, H and F of the row go to device memory. With
// Dirs (the traceback's recomputation), `dirs` gets 4 bits a cell, cell c
// at bits 4c..4c+3: where H came from (kFromDiag, kFromE, kFromF,
// kFromZero), whether E opened here (kEOpen) and whether F did (kFOpen);
// `f_open` carries each column's F-opened bit from one row to the next.
constexpr unsigned kFromDiag = 0, kFromE = 1, kFromF = 2, kFromZero = 3, kEOpen = 4, kFOpen = 8;

template <int Cols, bool Local, bool LastRow, bool Dirs = false>
__device__ __forceinline__ void lane_row(int (&hp)[Cols], int (&f)[Cols], const int (&sc)[Cols], int& e, int hl,
                                         int diag, const Params& p, long long j0, unsigned* dirs = nullptr,
                                         unsigned* f_open = nullptr) {
  int e_open = hl - p.open_extend;  // the open candidate of E(c): H(c-1) - open - extend, or A(c-1)'s
  int hoe = e_open;                 // H(c-1) - open - extend, for the traceback's bits
  unsigned word = 0, next_f_open = 0;
#pragma unroll
  for (int c = 0; c < Cols; ++c) {
    const int fc = f[c];
    const int h = update_cell_from_a<Local>(diag, sc[c], e, e_open, f[c], GapCosts{p.open_extend, p.extend});
    if constexpr (Dirs) {
      const unsigned from = Local && h == 0 ? kFromZero : h == diag + sc[c] ? kFromDiag : h == e ? kFromE : kFromF;
      const unsigned bits = from | (e == hoe ? kEOpen : 0u) | ((*f_open >> c) & 1u ? kFOpen : 0u);
      word |= bits << (4 * c);
    }
    diag = hp[c];
    hp[c] = h;
    hoe = h - p.open_extend;
    if constexpr (Dirs) next_f_open |= (hoe >= fc - p.extend ? 1u : 0u) << c;
    if constexpr (LastRow) {
      if (j0 + c < p.n) {
        p.last_h[j0 + c + 1] = h;
        if (p.last_f) p.last_f[j0 + c + 1] = fc;
      }
    }
  }
  if constexpr (Dirs) {
    *dirs = word;
    *f_open = next_f_open;
  }
}

// The profile's element: 16 bits a score with 8 columns a lane, 8 bits with
// 16 (scores within +-127 only), so that both read 16 bytes a row and the
// wider kernel's profile leaves room for more warps.
template <int Cols>
using ProfileScore = std::conditional_t<Cols == 16, signed char, short>;

// PTX prmt with sign replication (a selector nibble with its top bit set
// copies the sign of the byte it names); __byte_perm drops that bit.
template <unsigned Selector>
__device__ __forceinline__ int sign_extend(unsigned word) {
  unsigned r;
  asm("prmt.b32 %0, %1, 0, %2;" : "=r"(r) : "r"(word), "n"(Selector));
  return static_cast<int>(r);
}

// A lane's Cols scores of one row, 16 bytes, sign-extended.
template <int Cols>
__device__ __forceinline__ void load_scores(const ProfileScore<Cols>* from, int (&sc)[Cols]) {
  const uint4 w = *reinterpret_cast<const uint4*>(from);
  const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if constexpr (Cols == 16) {
      sc[4 * k] = sign_extend<0x8880>(words[k]);
      sc[4 * k + 1] = sign_extend<0x9991>(words[k]);
      sc[4 * k + 2] = sign_extend<0xAAA2>(words[k]);
      sc[4 * k + 3] = sign_extend<0xBBB3>(words[k]);
    } else {
      sc[2 * k] = sign_extend<0x9910>(words[k]);
      sc[2 * k + 1] = sign_extend<0xBB32>(words[k]);
    }
  }
}


// What a pass leaves on the device for the chunked traceback: every strip's
// right edge and checkpoint rows. Valid until the next pass.
struct Kept {
  const int2* columns = nullptr;      // strip s, row i: columns[s * m + i - 1] = (H, E) of its last column
  const int2* checkpoints = nullptr;  // after row b * rows: checkpoints[(b - 1) * padded_n + j - 1] = (H, F below)
  const std::uint8_t* q = nullptr;    // the sequences and the substitution matrix, on the device
  const std::uint8_t* t = nullptr;
  const int* sub = nullptr;
  long long padded_n = 0;
  int rows = 0;                       // checkpoint spacing
};

}  // namespace gdp::pairwise::striped

namespace gdp::pairwise {
// Adds to gpu_stats()'s kernel seconds (and traceback seconds).
void add_gpu_kernel_time(double seconds, bool traceback);
}  // namespace gdp::pairwise
