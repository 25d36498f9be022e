// The striped score kernel with two 16-bit cells a register (Hopper's DPX
// s16x2 instructions), for local alignment's score and end cell; the
// rebased one for every other pass too (global and semi-global shapes,
// row m's H and F for Myers-Miller, the chunked traceback's kept pass).
//
// A warp sweeps a strip of 64 * Cols columns (Cols = 8, 16, 32 or 64) as 64
// virtual lanes: the low halves of lane L's registers hold its Cols columns
// of the strip's first half, the high halves its Cols columns of the second
// half, 32 rows behind. Lane 0's high half continues where lane 31's low
// half left off one step before, so the wavefront is simply 64 lanes deep,
// and each instruction updates two cells.
//
// Two instantiations. The plain kernel's cells are scores: local scores
// are never negative, and E and F are carried plus open + extend (es, fs,
// as in recurrence.hpp), which keeps them non-negative too, so only growth
// can overflow. A score of overflow_at (32767 minus the largest
// substitution score) or more sets p.overflow; every warp stops when it
// next waits for the strip on its left or within 256 steps, and the pass
// runs again in the rebased kernel (striped_score.cu). A saturated or
// wrapped score is never returned.
//
// The rebased kernel holds any score: its cells are 16-bit offsets from two
// 32-bit bases, one for the low halves of all lanes and one for the high
// halves, which the warp moves up to lane 0's first column every few
// hundred or thousand steps (p.rebase_mask), only in steady steps, where
// every lane's rows lie inside the query. rebased16.hpp says why the
// offsets then stay exact within 16 bits, and strip_plan.hpp (Rebase16)
// what a base serves. Lanes hand each other offsets from the same base;
// only lane 0 converts its inputs: the left strip's scores and, for its
// high half, lane 31's low offsets. What crosses between strips, and the
// best cells, are 32-bit scores. In the plain kernel the bases stay 0.
//
// Global shapes (Local false, the rebased kernel only): the bounds of
// rebased16.hpp hold for any Gotoh matrix whose row 0 and column 0 are
// gap costs, so the same offsets serve; the bases start at row 0's H of
// the column before each half's first, and the floor is the reach below
// them, which no cell reaches. Row m's H and F go to p.last (Last: the
// instantiations that may be asked for it), from the steps that compute
// row m, all of them general steps; a global pass's result comes from
// that row (striped_score.cu), or for End::anywhere from the strips' best
// cells, as a local pass's. The shape and the last row are template
// parameters, so that the local score pass's kernels hold no register for
// them.
//
// Kept (the rebased kernel at 8, 16 or 32 columns a lane): the pass keeps
// what the chunked traceback needs (chunk_recompute.cuh) in packed cells
// (kept_cell.hpp), in kept strips of kKeptWidth columns, Cols / 8 of them a
// half: the lane of each one's last column writes its right edge every row
// (H, and the next column's E: es - open - extend), with an anchor on
// every kKeptRowsOf-th row, the rows of which every lane writes its cells
// of (H, and F below).
//
// Between strips (the ring and the links) the edge is H of the strip's last
// column and es of the next strip's first column, not E. The ring's rows
// are tagged (strip_handover.cuh: take_tagged_batch), so a strip reading
// one loads its next batch of rows during the batch before and waits for
// no flag.
#include "pairwise/cuda/striped16_common.cuh"
#include "pairwise/kept_cell.hpp"
#include "pairwise/rebased16.hpp"

namespace gdp::pairwise::striped {
namespace {

// Byte k of a (first half's score) and of b (second half's), each
// sign-extended into its 16-bit half: one prmt.
template <unsigned Selector>
__device__ __forceinline__ unsigned pack_scores(unsigned a, unsigned b) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "n"(Selector));
  return r;
}

// The profile holds a warp's scores of each query letter against its
// strip's columns, one byte each, four columns a 4-byte word. Word w of
// lane L's columns of half h, for letter a, is at word
// ((a * 2 + h) * Cols / 4 + w) * 32 + L: the lanes' words lie side by side,
// so that the warp reads 32 banks at once (with each lane's words together,
// 16 or 32 columns a lane read 4 or 8 lanes a bank).
template <int Cols>
__device__ __forceinline__ int profile_word(int letter, int half, int w, int lane) {
  return ((letter * 2 + half) * (Cols / 4) + w) * kLanes + lane;
}

// A lane's Cols packed scores: four from each word of the two halves'
// profile rows (a: the low half's, b: the high half's, at word 0).
template <int Cols>
__device__ __forceinline__ void load_pairs(const unsigned* a, const unsigned* b, unsigned (&sc)[Cols]) {
#pragma unroll
  for (int w = 0; w < Cols / 4; ++w) {
    const unsigned x = a[w * kLanes], y = b[w * kLanes];
    sc[4 * w] = pack_scores<0xC480>(x, y);
    sc[4 * w + 1] = pack_scores<0xD591>(x, y);
    sc[4 * w + 2] = pack_scores<0xE6A2>(x, y);
    sc[4 * w + 3] = pack_scores<0xF7B3>(x, y);
  }
}

// The warp's two bases, one for the low halves of all lanes and one for
// the high halves, and what follows from them.
struct Bases {
  int lo = 0, hi = 0;
  unsigned floor = 0;  // rebased16::floor_of; global shapes: the reach below the bases
};

// H(0, base + x) - H(0, base) of a global shape (gotoh_cell.hpp: top);
// from base > 0, -x times the extension (0 where row 0 is free).
__device__ __forceinline__ int top_offset(const GotohParams& p, long long base, long long x) {
  return GotohCell<false>::top(p.costs, base + x).h - GotohCell<false>::top(p.costs, base).h;
}
__device__ __forceinline__ int top_extend(const GotohParams& p) { return p.costs.free_top ? 0 : p.costs.extend; }

// Row m's cells of one half of a lane, as scores at p.last's columns
// 1..n (0-based column j + c at [j + c + 1]): H after the row's step, or
// F (fs less open + extend) before it.
template <int Cols>
__device__ __forceinline__ void keep_last16(int* out, const unsigned (&x)[Cols], bool high_half, long long j, int base,
                                            int n) {
#pragma unroll
  for (int c = 0; c < Cols; ++c)
    if (j + c < n) out[j + c + 1] = (high_half ? high(x[c]) : low(x[c])) + base;
}

// Save: row i's place in p.saved_h or p.saved_f (i a multiple of
// p.save_every), as this piece's last row's.
__device__ __forceinline__ int* saved_row(int* rows, const GotohParams& p, int i) {
  return rows + static_cast<long long>(i / p.save_every - 1) * p.save_stride + p.j_base;
}

// Moves the bases up to lane 0's first column's H (every lane at the same
// step, all of their rows inside the query), and every offset the warp
// holds with them: the rows, the diagonals, what each lane hands the next,
// and the best cells.
template <int Cols, bool Local>
__device__ __forceinline__ void rebase_warp(unsigned (&hp)[Cols], unsigned (&fs)[Cols], unsigned& diag, unsigned& hr,
                                            unsigned& er, Best16& best, Bases& b, int reach) {
  const int lo = __shfl_sync(kFull, low(hp[0]), 0), hi = __shfl_sync(kFull, high(hp[0]), 0);
  b.lo += lo, b.hi += hi;
  if constexpr (Local) b.floor = rebased16::floor_of(b.lo, b.hi, reach);
  rebased16::rebase<Cols>(hp, fs, lo, hi, b.floor);
  diag = rebased16::lowered(diag, lo, hi, b.floor);
  hr = rebased16::lowered(hr, lo, hi, b.floor);
  er = rebased16::lowered(er, lo, hi, b.floor);
  best.a -= lo, best.b -= hi;
}

// Kept: one half's cells of row i (the low half's at columns ja + 1 ..,
// offsets from `base`) as a checkpoint row, where i is one; and, in the
// lane of a kept strip's last column, that column as the strip's right
// edge, and there its anchor. `first_strip`: the half's first kept strip.
template <int Cols>
__device__ __forceinline__ void keep_for_traceback16(const GotohParams& p, const unsigned (&hp)[Cols],
                                                     const unsigned (&fs)[Cols], unsigned hr, unsigned er, bool high_half,
                                                     int i, long long ja, long long first_strip, int base, int lane) {
  static_assert(kKeptWidth % Cols == 0 && Cols % 4 == 0, "kept strips of whole lanes");
  constexpr int kRows = kKeptRowsOf<GotohCell<true>>, kStripLanes = kKeptWidth / Cols;
  const int oe = p.costs.open_extend, extend = p.costs.extend;
  auto score = [&](unsigned x) { return (high_half ? high(x) : low(x)) + base; };
  const bool checkpoint = i % kRows == 0 && i < p.m;
  if (checkpoint) {
    uint4* row = reinterpret_cast<uint4*>(p.kept_packed_checkpoints + (static_cast<long long>(i / kRows) - 1) * p.padded_n + ja);
#pragma unroll
    for (int c = 0; c < Cols; c += 4)
      row[c / 4] = make_uint4(kept_cell::pack(score(hp[c]), score(fs[c]) - oe, extend),
                              kept_cell::pack(score(hp[c + 1]), score(fs[c + 1]) - oe, extend),
                              kept_cell::pack(score(hp[c + 2]), score(fs[c + 2]) - oe, extend),
                              kept_cell::pack(score(hp[c + 3]), score(fs[c + 3]) - oe, extend));
  }
  if (lane % kStripLanes == kStripLanes - 1) {
    const long long strip = first_strip + lane / kStripLanes;
    const int h = score(hr);
    p.kept_packed_edges[strip * p.m + i - 1] = kept_cell::pack(h, score(er) - oe, extend);
    if (checkpoint) p.kept_anchors[(static_cast<long long>(i / kRows) - 1) * (p.padded_n / kKeptWidth) + strip] = h;
  }
}

// Save: whether the run of steps from `step` up to the next rebase (or row
// m - 1) meets a saved row (a multiple of p.save_every). At step s, lane L's
// low half is on row s - L + 1 and its high half 32 rows behind: the run
// covers rows step - 62 to its last step + 1.
__device__ inline bool run_meets_saved_row(const GotohParams& p, int step) {
  const long long last = min(static_cast<long long>(step | p.rebase_mask), static_cast<long long>(p.m) - 2);
  const long long first_row = max(static_cast<long long>(step) - (2 * kLanes - 2), 1LL);
  const long long saved = (first_row + p.save_every - 1) & ~static_cast<long long>(p.save_every - 1);
  return saved <= last + 1;
}

template <int Cols, bool Rebased, bool Local, bool Last, bool Kept, bool Save = false>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) striped_score16(GotohParams p) {
  static_assert(Local || (Rebased && Last), "global shapes need the rebased cells, and give their result in row m");
  static_assert(!Kept || Rebased, "kept passes run in the rebased cells");
  constexpr int kHalf = kLanes * Cols;  // columns a half
  constexpr int kWidth = 2 * kHalf;
  extern __shared__ __align__(16) unsigned profiles16[];
  __shared__ BlockShared<GotohEdge> shared;
  start_links(shared);
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  unsigned* profile = profiles16 + (threadIdx.x / kLanes) * p.rows * (kWidth / 4);
  // After the block's profiles, the rows that hold this lane's best cells
  // (note_better_kept16): the low halves', then the high halves'.
  unsigned* const kept_a = profiles16 + kWarpsPerBlock * p.rows * (kWidth / 4) + (threadIdx.x / kLanes) * 2 * kHalf + lane * 4;
  unsigned* const kept_b = kept_a + kHalf;
  const int m = p.m;
  const unsigned minus_oe = pair(-p.costs.open_extend, -p.costs.open_extend), minus_ext = pair(-p.costs.extend, -p.costs.extend);

  for (;;) {
    // Once any warp has found a score too large, the others stop where they
    // wait for a neighbour, within 256 steps, or at their next strip.
    const long long s = next_strip(p, shared, lane);
    if (s == -1) return;
    if (s < 0) continue;
    // My first columns, 0-based: ja, and jb = ja + kHalf (not kept: the
    // 64-column kernel has no register to spare).
    const long long ja = s * kWidth + lane * Cols;

    __syncwarp();
    for (int a = 0; a < p.rows; ++a)
      for (int half = 0; half < 2; ++half) {
        const long long j = half ? ja + kHalf : ja;
#pragma unroll
        for (int w = 0; w < Cols / 4; ++w) {
          unsigned word = 0;
#pragma unroll
          for (int b = 0; b < 4; ++b) {
            const long long x = j + 4 * w + b;
            const int score = x < p.n ? __ldg(p.sub + a * p.dim + p.t[x]) : kPadScore<16>;
            word |= (static_cast<unsigned>(score) & 0xffu) << (8 * b);
          }
          profile[profile_word<Cols>(a, half, w, lane)] = word;
        }
      }
    __syncwarp();

    const Neighbours<GotohEdge> nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    if (!wait_free_slot(p, nb, lane, p.overflow)) continue;

    unsigned hp[Cols], fs[Cols];
    unsigned diag = 0;
    Bases bases;  // every cell below is an offset from them
    // Row 0 of a high half that has not started yet (x: the column from the
    // one before the half's first, where its base starts).
    auto row0_high = [&](int x) { return Local ? 0 : -x * top_extend(p); };
    if constexpr (Local) {
#pragma unroll
      for (int c = 0; c < Cols; ++c) {
        hp[c] = 0;  // row 0 of local alignment
        fs[c] = 0;  // F(1, c) + open + extend = H(0, c)
      }
    } else {
      const long long j_lo = p.j_base + s * kWidth;  // the column before the low halves' first
      bases.lo = GotohCell<false>::top(p.costs, j_lo).h, bases.hi = GotohCell<false>::top(p.costs, j_lo + kHalf).h;
      bases.floor = pair(-p.reach, -p.reach);
#pragma unroll
      for (int c = 0; c < Cols; ++c) {
        hp[c] = pair(top_offset(p, j_lo, lane * Cols + c + 1), row0_high(lane * Cols + c + 1));
        fs[c] = hp[c];  // F(1, c) + open + extend = H(0, c)
      }
      diag = pair(top_offset(p, j_lo, lane * Cols), row0_high(lane * Cols));
    }
    // hr: H of my last column; er: es of the next lane's first column, its E plus open + extend.
    // The left edge from a ring slot arrives tagged, loaded ahead.
    const bool from_ring = nb.in_slot >= 0, left_is_column0 = nb.first && !p.left_edge;
    unsigned long long ahead = 0;
    if (from_ring) load_tagged_ahead(p, nb, lane, 0, ahead);
    unsigned hr = 0, er = 0, letter = 0;
    GotohEdge in{0, neg_inf}, out{0, 0};
    // The best cell so far (End::anywhere: local passes, and global ones
    // given p.strip_best), from a score of 0 at (0, 0), as the 32-bit kernel's.
    const bool track = Local || p.strip_best != nullptr;
    Best16 best;
    best.a = -bases.lo, best.b = -bases.hi;
    int q_now = 0, q_next = lane < m ? __ldg(p.q + lane) : 0;

    // One step of the wavefront: lane L's low half on row step - L + 1,
    // its high half 32 rows behind. A steady step (every row inside
    // 1..m-1) leaves out the per-step tests of the rows' range. Sets
    // `aborted` once any warp has found a score too large: when this one
    // waits for a neighbour, and every 256 steps.
    bool aborted = false;
    auto advance = [&](const int step, auto steady, auto saving) {
      constexpr bool kSteady = decltype(steady)::value, kSaving = decltype(saving)::value;
      const int k = step & (kBatch - 1);
      if ((step & (kLanes - 1)) == 0) {
        q_now = q_next;
        q_next = step + kLanes + lane < m ? __ldg(p.q + step + kLanes + lane) : 0;
      }
      step_left_inputs<Local>(p, nb, lane, step, k, k == 0 && (kSteady || step < m), from_ring, ahead, in, aborted);
      // Inputs from the left: lane 0's low half from the strip on the left,
      // its high half from lane 31's low half one step ago.
      const unsigned h31 = __shfl_sync(kFull, hr, kLanes - 1), e31 = __shfl_sync(kFull, er, kLanes - 1);
      const unsigned letter31 = __shfl_sync(kFull, letter, kLanes - 1);
      unsigned hl = __shfl_up_sync(kFull, hr, 1), el = __shfl_up_sync(kFull, er, 1);
      letter = __shfl_up_sync(kFull, letter, 1);
      const GotohEdge batch_row = shfl(in, k);
      const int bh = batch_row.h, be = batch_row.e;
      const int bl = __shfl_sync(kFull, q_now, step & (kLanes - 1));
      if (lane == 0) {  // the left strip's scores, and lane 31's low offsets, as offsets from this half's base
        const int lo_minus_hi = bases.lo - bases.hi;
        hl = pair(bh - bases.lo, low(h31) + lo_minus_hi);
        // Column 0: E(i, 0) is minus infinity, so es = H(i, 0). Elsewhere
        // es >= H already. The rebased kernel may take no max: the ring
        // carries both in 16 bits, which it reads modulo 65,536 (pair keeps
        // an offset's low half), and there the two can lie on either side
        // of a wrap. The plain kernel's scores never wrap, and its max keeps
        // this block free of a branch (bench/RESULTS.md).
        const int es_left = !Rebased ? max(be, bh) : left_is_column0 ? bh : be;
        el = pair(es_left - bases.lo, low(e31) + lo_minus_hi);
        letter = pair(bl, static_cast<int>(letter31 & 0xffffu));
      }

      const int ia = step - lane + 1, ib = ia - kLanes;
      const bool active_a = kSteady || (ia >= 1 && ia <= m), active_b = kSteady || (ib >= 1 && ib <= m);
      if (active_a || active_b) {
        unsigned sc[Cols];
        load_pairs<Cols>(profile + profile_word<Cols>(static_cast<int>(letter & 0xffffu), 0, 0, lane),
                         profile + profile_word<Cols>(static_cast<int>(letter >> 16), 1, 0, lane), sc);
        const bool last_a = Last && !kSteady && ia == m, last_b = Last && !kSteady && ib == m;  // general steps only
        if (p.last.f && last_a) keep_last16<Cols>(p.last.f, fs, false, ja, bases.lo - p.costs.open_extend, p.n);
        if (p.last.f && last_b) keep_last16<Cols>(p.last.f, fs, true, ja + kHalf, bases.hi - p.costs.open_extend, p.n);
        // Save: every save_every-th row's F before the step, as a last row's.
        const bool save_a = kSaving && active_a && (ia & (p.save_every - 1)) == 0,
                   save_b = kSaving && active_b && (ib & (p.save_every - 1)) == 0;
        if (save_a) keep_last16<Cols>(saved_row(p.saved_f, p, ia), fs, false, ja, bases.lo - p.costs.open_extend, p.n);
        if (save_b) keep_last16<Cols>(saved_row(p.saved_f, p, ib), fs, true, ja + kHalf, bases.hi - p.costs.open_extend, p.n);
        unsigned es = el;
        rebased16::lane_row<Cols>(hp, fs, sc, es, diag, bases.floor, minus_oe, minus_ext);
        diag = hl;
        if (!active_b) {  // the high half has not started: it stays at row 0
#pragma unroll
          for (int c = 0; c < Cols; ++c) {
            hp[c] = (hp[c] & 0xffffu) | static_cast<unsigned>(row0_high(lane * Cols + c + 1)) << 16;
            fs[c] = (fs[c] & 0xffffu) | static_cast<unsigned>(row0_high(lane * Cols + c + 1)) << 16;
          }
          diag = (diag & 0xffffu) | static_cast<unsigned>(row0_high(lane * Cols)) << 16;
        }
        if (p.last.h && last_a) keep_last16<Cols>(p.last.h, hp, false, ja, bases.lo, p.n);
        if (p.last.h && last_b) keep_last16<Cols>(p.last.h, hp, true, ja + kHalf, bases.hi, p.n);
        if (save_a) keep_last16<Cols>(saved_row(p.saved_h, p, ia), hp, false, ja, bases.lo, p.n);
        if (save_b) keep_last16<Cols>(saved_row(p.saved_h, p, ib), hp, true, ja + kHalf, bases.hi, p.n);
        hr = hp[Cols - 1];
        er = es;
        if constexpr (Kept) {
          constexpr int kHalfStrips = kHalf / kKeptWidth;
          if (active_a) keep_for_traceback16<Cols>(p, hp, fs, hr, er, false, ia, ja, 2 * s * kHalfStrips, bases.lo, lane);
          if (active_b)
            keep_for_traceback16<Cols>(p, hp, fs, hr, er, true, ib, ja + kHalf, (2 * s + 1) * kHalfStrips, bases.hi, lane);
        }
        if (track) {
          const unsigned row_max = row_max16<Cols, false>(hp);
          if (!kSteady || any_better16(row_max, best))
            note_better_kept16(p, hp, row_max, active_a, ia, active_b, ib, best, kept_a, kept_b);
        }
      }

      if (produces) {  // the strip's right edge: lane 31's high half, 63 rows behind lane 0's low half
        const int oh = __shfl_sync(kFull, high(hr) + bases.hi, kLanes - 1);
        const int oe = __shfl_sync(kFull, high(er) + bases.hi, kLanes - 1);
        const int r = step - (2 * kLanes - 2);
        if constexpr (kSteady) {  // r is inside 1..m-1, and r % kBatch == (K + 2) % kBatch
          if (lane == ((k + 1) & (kBatch - 1))) out = {oh, oe};
          if (k == kBatch - 2 && !publish_edge<true>(p, nb, lane, r, out, p.overflow)) aborted = true;
        } else if (!gather_and_publish<true>(p, nb, lane, r, GotohEdge{oh, oe}, out, p.overflow)) {
          aborted = true;
        }
      }
    };
    using General = std::false_type;
    using Steady = std::true_type;
    using Saving = std::bool_constant<Save>;  // a step that may save a row
    using NotSaving = std::false_type;
    const int steps = m + 2 * kLanes - 1;
    int step = 0;
    // Unlike the 32-bit kernel's, the steady steps are not unrolled by
    // kBatch: this kernel's larger row measured a third slower unrolled
    // (bench/RESULTS.md).
    for (; step < min(2 * kLanes, steps) && !aborted; ++step) advance(step, General{}, Saving{});
    if constexpr (Rebased) {
      // The rebases come between runs of steady steps, out of the loop,
      // which the plain kernel keeps as it was (a rebase in the loop, or
      // these nested loops, measured slower: bench/RESULTS.md).
      while (step < m - 1 && !aborted) {
        const auto run = [&](auto saving) {
          do advance(step++, Steady{}, saving);
          while (step < m - 1 && (step & p.rebase_mask) != 0 && !aborted);
        };
        // Save: only the runs that meet a saved row test for one, so that
        // the others' steps are the plain score pass's.
        if (Save && run_meets_saved_row(p, step)) run(Saving{});
        else run(NotSaving{});
        if ((step & p.rebase_mask) == 0) rebase_warp<Cols, Local>(hp, fs, diag, hr, er, best, bases, p.reach);
      }
    } else {
      for (; step + 1 <= m - 1 && !aborted; ++step) advance(step, Steady{}, NotSaving{});
    }
    for (; step < steps && !aborted; ++step) advance(step, General{}, Saving{});
    if (aborted) continue;  // the pass runs again in the rebased kernel
    if (!track) continue;  // the result is row m's (p.last)

    best.a += bases.lo, best.b += bases.hi;
    if (best.ai > 0) best.aj = static_cast<int>(ja + first_max_column<Cols>(kept_a, false) + 1);
    if (best.bi > 0) best.bj = static_cast<int>(ja + kHalf + first_max_column<Cols>(kept_b, true) + 1);
    publish_strip_best16(p, s, lane, best);
  }
}

template <bool Rebased, bool Local, bool Last>
Kernel striped16_kernel_of(int cols) {
  return cols == 64   ? striped_score16<64, Rebased, Local, Last, false>
         : cols == 32 ? striped_score16<32, Rebased, Local, Last, false>
         : cols == 16 ? striped_score16<16, Rebased, Local, Last, false>
                      : striped_score16<8, Rebased, Local, Last, false>;
}

template <bool Local, bool Last>
Kernel striped16_saving_of(int cols) {
  return cols == 64   ? striped_score16<64, true, Local, Last, false, true>
         : cols == 32 ? striped_score16<32, true, Local, Last, false, true>
         : cols == 16 ? striped_score16<16, true, Local, Last, false, true>
                      : striped_score16<8, true, Local, Last, false, true>;
}

template <bool Local, bool Last>
Kernel striped16_kept_of(int cols) {
  return cols == 32   ? striped_score16<32, true, Local, Last, true>
         : cols == 16 ? striped_score16<16, true, Local, Last, true>
                      : striped_score16<8, true, Local, Last, true>;
}

}  // namespace

Kernel striped16_kernel(int cols, bool rebased, bool local, bool last_row, bool kept, bool save_rows) {
  if (save_rows) {
    if (kept || !rebased) return nullptr;
    if (!local) return striped16_saving_of<false, true>(cols);
    return last_row ? nullptr : striped16_saving_of<true, false>(cols);
  }
  if (kept) {
    if (cols > kMaxKeptCols16 || !rebased) return nullptr;
    if (!local) return striped16_kept_of<false, true>(cols);
    return last_row ? striped16_kept_of<true, true>(cols) : striped16_kept_of<true, false>(cols);
  }
  if (!local) return striped16_kernel_of<true, false, true>(cols);
  if (last_row) return striped16_kernel_of<true, true, true>(cols);
  return rebased ? striped16_kernel_of<true, true, false>(cols) : striped16_kernel_of<false, true, false>(cols);
}

}  // namespace gdp::pairwise::striped
