#pragma once
// How strips hand their right edge to the strip on their right, for any
// cell's Edge. A group of p.group neighbouring strips is swept by the warps
// of one block; inside it the edge goes through a Link in shared memory,
// between groups through the ring in device memory (slot u % slots for
// group u), in batches of kBatch rows signalled by mbarriers or a flag. The
// links and the ticket of a block's group live in shared memory. Blocks
// take groups in order from a ticket, so a warp only ever waits for a strip
// whose warp is already running (the deadlock rule of Xiao, Aji and Feng).
#include <cuda/atomic>
#include <cuda/ptx>

#include <cstdint>

#include "pairwise/cuda/strip_params.cuh"
#include "pairwise/gotoh_cell.hpp"

namespace gdp::pairwise::striped {

__device__ __forceinline__ unsigned long long flag_value(long long strip, int rows) {
  return (static_cast<unsigned long long>(strip) << 32) | static_cast<unsigned>(rows);
}
// A waiting warp pauses between polls, so that it takes few issue slots
// from the warps that compute on its SM (bench/RESULTS.md, "the strip
// engine generic over the cell").
constexpr unsigned kPollPauseNs = 32;

// Waits until the flag reaches `at_least`. With an abort flag (the 16-bit
// kernels' overflow), gives up once that is set and returns false.
__device__ __forceinline__ bool wait_flag(unsigned long long* flag, unsigned long long at_least,
                                          const int* abort = nullptr) {
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> f(*flag);
  while (f.load(::cuda::memory_order_acquire) < at_least) {
    __nanosleep(kPollPauseNs);
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
template <class Types>
__device__ __forceinline__ void publish_strip_best(const Params<Types>& p, long long s, int lane, int best, int best_i,
                                                   int best_j) {
  for (int d = kLanes / 2; d > 0; d /= 2) {
    const int s2 = __shfl_xor_sync(kFull, best, d), i2 = __shfl_xor_sync(kFull, best_i, d),
              j2 = __shfl_xor_sync(kFull, best_j, d);
    if (better(s2, i2, j2, best, best_i, best_j)) best = s2, best_i = i2, best_j = j2;
  }
  if (lane == 0) p.strip_best[s] = make_int4(best, best_i, best_j, 0);
}

constexpr int kLinkRows = 64;  // rows a link holds: more than a strip's lag behind its left neighbour
constexpr int kLinkSlots = kLinkRows / kBatch;
// A link's batch slot k holds rows 8q + 1 + 8k .. 8q + 8 + 8k for q = 0, 1, ...
// Its two mbarriers, on each of which both warps' 64 lanes arrive once a
// batch: written[k] completes when the left warp has written the slot (the
// right warp arrives, then waits), read[k] when the right warp has read it
// (the left warp arrives, then waits, before it writes the slot again; the
// right warp arrives as it starts its next batch, not straight after the
// read: arriving there made ptxas schedule the 16-bit diagonal kernel's
// step with less overlap, bench/RESULTS.md "The links' read arrival").
// racecheck sees these orderings; block-scope atomic counters it does not
// (scripts/bench/handover_race_probe.cu).
template <class Edge>
struct Link {
  Edge rows[kLinkRows];  // row r at (r - 1) % kLinkRows
  std::uint64_t written[kLinkSlots];
  std::uint64_t read[kLinkSlots];
};
template <class Edge>
struct BlockShared {
  Link<Edge> links[kWarpsPerBlock - 1];  // links[w]: from warp w to warp w + 1
  long long group;
};

// Before a block's first strip: the links' mbarriers, each for both warps' lanes.
template <class Edge>
__device__ __forceinline__ void start_links(BlockShared<Edge>& shared) {
  if (threadIdx.x == 0)
    for (Link<Edge>& l : shared.links)
      for (int k = 0; k < kLinkSlots; ++k)
        ::cuda::ptx::mbarrier_init(&l.written[k], 2 * kLanes), ::cuda::ptx::mbarrier_init(&l.read[k], 2 * kLanes);
  __syncthreads();
}

// This lane's arrival on a link's mbarrier, then its wait for the phase to
// complete. False if `abort` was set first.
__device__ __forceinline__ bool arrive_and_wait(std::uint64_t* barrier, const int* abort) {
  const std::uint64_t token = ::cuda::ptx::mbarrier_arrive(barrier);
  while (!::cuda::ptx::mbarrier_try_wait(barrier, token))
    if (abort && *reinterpret_cast<const volatile int*>(abort)) return false;
  return true;
}

// A strip's two neighbours: the matrix's column 0 (or the piece's left
// edge), a link, or a ring slot (or, on the right of the last strip,
// nothing or the piece's right edge).
template <class Edge>
struct Neighbours {
  long long strip = 0;
  bool first = false;
  bool out_edge = false;
  Link<Edge>* in_link = nullptr;
  Link<Edge>* out_link = nullptr;
  long long in_slot = -1, out_slot = -1, in_group = 0, out_group = 0;
  mutable int chain_seen = 0;  // a chained pass's first strip: rows of its left edge known to have arrived
  __device__ bool produces() const { return out_link || out_slot >= 0 || out_edge; }
};

template <class Types, class Edge = typename Types::Edge>
__device__ __forceinline__ Neighbours<Edge> neighbours(const Params<Types>& p, long long s, BlockShared<Edge>& shared) {
  Neighbours<Edge> nb;
  const long long g = s / p.group;
  const int w = static_cast<int>(s % p.group);
  nb.strip = s;
  nb.first = s == 0;
  nb.out_edge = s + 1 == p.strips && p.right_edge;
  if (s > 0 && w > 0) nb.in_link = &shared.links[w - 1];
  if (s > 0 && w == 0) nb.in_slot = (g - 1) % p.slots, nb.in_group = g - 1;
  if (s + 1 < p.strips && w + 1 < p.group) nb.out_link = &shared.links[w];
  if (s + 1 < p.strips && w + 1 == p.group) nb.out_slot = g % p.slots, nb.out_group = g;
  return nb;
}

// The next strip for this warp, or -1 when there is none left (or the pass
// was aborted). With groups, the block takes a group from the ticket and
// warp w sweeps its strip w; a warp whose strip lies past the end gets -2
// and sits the round out.
template <class Types, class Edge = typename Types::Edge>
__device__ __forceinline__ long long next_strip(const Params<Types>& p, BlockShared<Edge>& shared, int lane) {
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
  }
  __syncthreads();
  if (shared.group * p.group >= p.strips) return -1;
  const long long s = shared.group * p.group + warp;
  return s < p.strips ? s : -2;
}

// Before a strip writes its ring slot: the group that read the slot's last
// contents must be done with them. False if `abort` was set.
template <class Types, class Edge = typename Types::Edge>
__device__ __forceinline__ bool wait_free_slot(const Params<Types>& p, const Neighbours<Edge>& nb, int lane,
                                               const int* abort = nullptr) {
  int ok = 1;
  const long long g = nb.out_group;
  if (nb.out_slot >= 0 && g >= p.slots && lane == 0)
    ok = wait_flag(&p.flags[(g - p.slots + 1) % p.slots], flag_value(g - p.slots + 1, p.m), abort);
  return __shfl_sync(kFull, ok, 0);
}

// Row `row`'s place in a ring slot: rows lap over a windowed slot.
template <class Types>
__device__ __forceinline__ long long ring_at(const Params<Types>& p, long long slot, int row) {
  return slot * p.ring_rows + ((row - 1) & p.ring_mask);
}

// A windowed ring's reader, at the start of its batch of rows upto - kBatch
// + 1 .. upto: the rows before the batch are read (their values used), and
// where they end a quarter of the window, it says so for the writer
// (wait_ring_room), under the writer's group number as the slot's flag.
// The warp's lanes read; lane 0 publishes.
template <class Types, class Edge>
__device__ __forceinline__ void note_ring_read(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int upto) {
  const int used = upto - kBatch, quarter = (p.ring_mask + 1) / 4;
  if (!p.read || used <= 0 || (used & (quarter - 1)) != 0) return;
  __syncwarp();
  if (lane == 0) {
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> flag(p.read[nb.in_slot]);
    flag.store(flag_value(nb.in_group, used), ::cuda::memory_order_release);
  }
}

// A windowed ring's writer, before its rows base + 1 .. base + kBatch:
// where they start a quarter of the window, it waits until the reader has
// read the rows that the quarter writes over (those a window before it).
// Its reader, the next group, runs beside it (a piece is one wave), and
// reads rows written before. False, for the whole warp, if `abort` was set.
template <class Types, class Edge>
__device__ __forceinline__ bool wait_ring_room(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int base,
                                               const int* abort) {
  const int window = p.ring_mask + 1, quarter = window / 4;
  if (!p.read || (base & (quarter - 1)) != 0 || base + quarter <= window) return true;
  int ok = 1;
  if (lane == 0)
    ok = wait_flag(&p.read[nb.out_slot], flag_value(nb.out_group, base + quarter - window), abort);
  ok = __shfl_sync(kFull, ok, 0);
  __syncwarp();  // orders the other lanes' writes after lane 0's acquire
  return ok;
}

// A chained pass's rows between flags: the last strip fences its writes
// to the next GPU and raises the flag every kChainRows rows (and at row m),
// not every batch, as a system-wide fence takes a while.
constexpr int kChainRows = 64;

// A chained pass's first strip (Params::left_flag), before it reads rows up
// to `upto` of its left edge: waits until the piece before, on another GPU,
// has written them (nb.chain_seen keeps the rows seen so far, so that a
// warp behind its producer reads the flag once for many batches). A flag
// of a later piece says that the piece before is done (no later piece
// writes rows this one has not read). Stops waiting once the host sets
// p.chain_abort: the pass is then given up.
template <class Types, class Edge>
__device__ __forceinline__ void wait_chained_edge(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int upto) {
  if (upto <= nb.chain_seen) return;
  int seen = p.m;
  if (lane == 0) {
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_system> flag(*p.left_flag);
    const unsigned long long want = flag_value(p.piece - 1, upto);
    unsigned long long now = flag.load(::cuda::memory_order_acquire);
    for (unsigned polls = 1; now < want; ++polls) {
      __nanosleep(kPollPauseNs);
      if (polls % 256 == 0 && *reinterpret_cast<const volatile int*>(p.chain_abort)) break;
      now = flag.load(::cuda::memory_order_acquire);
    }
    if (now >> 32 == static_cast<unsigned long long>(p.piece - 1)) seen = static_cast<int>(now & 0xffffffffu);
  }
  nb.chain_seen = __shfl_sync(kFull, seen, 0);
  __syncwarp();  // orders the other lanes' reads after lane 0's acquire
}

// Lane 0's left edge for rows step+1 .. step+kBatch, one row a lane: the
// matrix's column 0 (the cell's boundary) for the first strip, or the
// piece's left edge (a chained pass's waited for), else the right edge of
// the strip on the left (waiting for it). False, for the whole warp, if
// `abort` was set.
template <class Cell, class Types = typename Cell::Types, class Edge = typename Cell::Edge>
__device__ __forceinline__ bool load_left_batch(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int step,
                                                Edge& in, const int* abort = nullptr) {
  const int row = step + 1 + lane;
  if (nb.first) {
    if (!p.left_edge) {
      in = Cell::left(p.costs, row);
      return true;
    }
    if (p.left_flag) wait_chained_edge(p, nb, lane, min(step + kBatch, p.m));
    if (lane < kBatch && row <= p.m) in = load_cg(&p.left_edge[row - 1]);
    return true;
  }
  const int upto = min(step + kBatch, p.m);
  if (nb.in_link) {
    const int batch = step / kBatch, slot = batch % kLinkSlots;
    if (batch > 0 && batch - 1 + kLinkSlots < (p.m + kBatch - 1) / kBatch)  // the left warp writes the last batch's slot again
      (void)::cuda::ptx::mbarrier_arrive(&nb.in_link->read[(batch - 1) % kLinkSlots]);
    if (!__all_sync(kFull, arrive_and_wait(&nb.in_link->written[slot], abort))) return false;
    if (lane < kBatch && row <= p.m) in = nb.in_link->rows[(row - 1) % kLinkRows];
    return true;
  }
  note_ring_read(p, nb, lane, upto);  // the batch before this one is used: `in` holds this one's
  int ready = 1;
  if (lane == 0) ready = wait_flag(&p.flags[nb.in_slot], flag_value(nb.in_group, upto), abort);
  if (!__shfl_sync(kFull, ready, 0)) return false;
  __syncwarp();  // orders the other lanes' reads after lane 0's acquire
  if (lane < kBatch && row <= p.m) in = load_cg(&p.ring[ring_at(p, nb.in_slot, row)]);
  return true;
}

// The 16-bit kernels' ring (Gotoh's local cell) holds tagged rows: H and es
// of row r, 16 bits each, under the number of the group that wrote them,
// in one 8-byte word that one store writes and one load reads whole. A
// reader knows that row r has arrived when it finds its left group's
// number there, so the ring needs no flag and no fence a batch, and the
// next batch can be loaded while this one's rows are computed, its latency
// hidden behind them. (The host fills the ring with 0xff before each
// launch: no group's number.)
__device__ __forceinline__ unsigned long long* tagged_ring(const Params<GotohTypes>& p) {
  return reinterpret_cast<unsigned long long*>(p.ring);
}
// In a windowed slot the same place holds the group's row of every lap:
// the tag then also counts the lap (groups < slots there).
__device__ __forceinline__ unsigned ring_tag(const Params<GotohTypes>& p, long long group, int row) {
  return static_cast<unsigned>(group + static_cast<long long>((row - 1) >> p.ring_shift) * p.slots);
}
__device__ __forceinline__ void store_tagged(const Params<GotohTypes>& p, const Neighbours<GotohEdge>& nb, int row,
                                             GotohEdge x) {
  const unsigned long long word = static_cast<unsigned long long>(ring_tag(p, nb.out_group, row)) << 32 |
                                  (static_cast<unsigned>(x.e) & 0xffffu) << 16 | (static_cast<unsigned>(x.h) & 0xffffu);
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> at(tagged_ring(p)[ring_at(p, nb.out_slot, row)]);
  at.store(word, ::cuda::memory_order_relaxed);
}
__device__ __forceinline__ unsigned long long load_tagged(const Params<GotohTypes>& p, const Neighbours<GotohEdge>& nb,
                                                          int row) {
  ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> at(tagged_ring(p)[ring_at(p, nb.in_slot, row)]);
  return at.load(::cuda::memory_order_relaxed);
}
// Starts loading lane k's row step + 1 + k (k < kBatch) of the left slot
// into `ahead`; take_tagged_batch uses it a batch later.
__device__ __forceinline__ void load_tagged_ahead(const Params<GotohTypes>& p, const Neighbours<GotohEdge>& nb, int lane,
                                                  int step, unsigned long long& ahead) {
  const int row = step + 1 + lane;
  if (lane < kBatch && row <= p.m) ahead = load_tagged(p, nb, row);
}
// Lane 0's left edge for rows step+1 .. step+kBatch from `ahead`, loading
// again the rows that had not arrived when it was loaded. False, for the
// whole warp, if `abort` was set.
__device__ __forceinline__ bool take_tagged_batch(const Params<GotohTypes>& p, const Neighbours<GotohEdge>& nb, int lane,
                                                  int step, unsigned long long& ahead, GotohEdge& in,
                                                  const int* abort) {
  const int row = step + 1 + lane;
  const bool mine = lane < kBatch && row <= p.m;
  const unsigned tag = ring_tag(p, nb.in_group, step + 1);  // a batch lies within one lap
  note_ring_read(p, nb, lane, min(step + kBatch, p.m));
  for (unsigned polls = 1; !__all_sync(kFull, !mine || static_cast<unsigned>(ahead >> 32) == tag); ++polls) {
    if (mine && static_cast<unsigned>(ahead >> 32) != tag) ahead = load_tagged(p, nb, row);
    if (polls % 64 == 0) {
      int stop = 0;
      if (lane == 0) stop = *reinterpret_cast<const volatile int*>(abort);
      if (__shfl_sync(kFull, stop, 0)) return false;
    }
  }
  in.h = static_cast<short>(ahead & 0xffffu);
  in.e = static_cast<short>((ahead >> 16) & 0xffffu);
  return true;
}

// Rows base + 1 .. r of the strip's right edge, row base + 1 + k held by
// lane k (base: r - 1 rounded down to kBatch), to the link or the ring
// slot; then the counter or flag says r rows are done. Tagged: the 16-bit
// kernels' ring. Keep: a kept pass's, whose strips also leave the rows in
// p.kept_edges for the traceback. False, for the whole warp, if `abort`
// was set.
template <bool Tagged = false, bool Keep = false, class Types, class Edge = typename Types::Edge>
__device__ __forceinline__ bool publish_edge(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int r,
                                             const Edge& out, const int* abort = nullptr) {
  const int base = (r - 1) & ~(kBatch - 1);
  if constexpr (Keep)
    if (lane < kBatch && base + lane < r) p.kept_edges[nb.strip * p.m + base + lane] = out;
  if (nb.out_edge) {  // read by the next launch (no flag), or chained by the next GPU's piece as it goes
    if (lane < kBatch && base + lane < r) store_cg(&p.right_edge[base + lane], out);
    if (p.right_flag && ((r & (kChainRows - 1)) == 0 || r == p.m)) {
      __threadfence_system();
      __syncwarp();
      if (lane == 0) {
        ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_system> flag(*p.right_flag);
        flag.store(flag_value(p.piece, r), ::cuda::memory_order_release);
      }
    }
    return true;
  }
  if (nb.out_link) {
    const int batch = base / kBatch, slot = batch % kLinkSlots;
    if (batch >= kLinkSlots && !__all_sync(kFull, arrive_and_wait(&nb.out_link->read[slot], abort))) return false;
    if (lane < kBatch && base + lane < r) nb.out_link->rows[(base + lane) % kLinkRows] = out;
    (void)::cuda::ptx::mbarrier_arrive(&nb.out_link->written[slot]);
    return true;
  }
  if (!wait_ring_room(p, nb, lane, base, abort)) return false;
  if constexpr (Tagged) {
    if (lane < kBatch && base + lane < r) store_tagged(p, nb, base + lane + 1, out);
    if (r < p.m) return true;
    // The last row: the slot's flag now only says that the group is done,
    // and with it done reading its own left slot (wait_free_slot).
  } else {
    if (lane < kBatch && base + lane < r) store_cg(&p.ring[ring_at(p, nb.out_slot, base + lane + 1)], out);
  }
  __threadfence();
  __syncwarp();
  if (lane == 0) {
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device> flag(p.flags[nb.out_slot]);
    flag.store(flag_value(nb.out_group, r), ::cuda::memory_order_release);
  }
  return true;
}

// Row r of the strip's right edge (`o`, from the last lane) is kept by
// lane (r - 1) % kBatch in `out`; every kBatch rows (and at row m) they
// are published. False, for the whole warp, if `abort` was set.
template <bool Tagged = false, bool Keep = false, class Types, class Edge = typename Types::Edge>
__device__ __forceinline__ bool gather_and_publish(const Params<Types>& p, const Neighbours<Edge>& nb, int lane, int r,
                                                   const Edge& o, Edge& out, const int* abort = nullptr) {
  if (r < 1 || r > p.m) return true;
  if (((r - 1) & (kBatch - 1)) == lane) out = o;
  if ((r & (kBatch - 1)) != 0 && r != p.m) return true;
  return publish_edge<Tagged, Keep>(p, nb, lane, r, out, abort);
}

}  // namespace gdp::pairwise::striped
