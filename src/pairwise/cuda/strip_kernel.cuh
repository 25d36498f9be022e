#pragma once
// The strip engine's score kernel, for any cell policy (gotoh_cell.hpp):
// the striped score pass of the dissertation's chapter 4 (StripedScore),
// rebuilt for a modern GPU.
//
// The matrix (rows: query, columns: target) is cut into vertical strips of
// kLanes * Cols target columns. A warp owns a strip and sweeps it top to
// bottom: lane L holds Cols consecutive columns in registers and works on
// row (step - L), so the warp is a 32-deep anti-diagonal wavefront. Each
// step a lane takes the Edge of its left neighbour's last column by warp
// shuffles; lane 0 takes it from the strip on the left, kBatch rows at a
// time (strip_handover.cuh). A strip can start about kLanes + kBatch steps
// after the one on its left, so a query of m rows keeps about m / 40 warps
// busy at once.
//
// Most steps are steady: every lane's row lies inside the matrix and not on
// its last row. Those run unrolled by kBatch with their tests decided at
// compile time.
//
// Kept: the pass keeps a checkpoint row every kKeptRowsOf<Cell> rows for the
// chunked traceback (chunk_recompute.cuh), and every strip's right edge.
#include "pairwise/cuda/strip_handover.cuh"
#include "pairwise/cuda/strip_profile.cuh"
#include "pairwise/recurrence.hpp"

namespace gdp::pairwise::striped {

template <class Cell, int Cols, bool Anywhere, bool Kept>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) strip_score(Params<typename Cell::Types> p) {
  using Edge = typename Cell::Edge;
  using Down = typename Cell::Down;
  constexpr int kStripWidth = kLanes * Cols;
  using Score = ProfileScore<Cols>;
  extern __shared__ __align__(16) unsigned char profile_bytes[];
  __shared__ BlockShared<Edge> shared;
  start_links(shared);
  Score* profiles = reinterpret_cast<Score*>(profile_bytes);
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1);
  Score* profile = profiles + (threadIdx.x / kLanes) * p.rows * kStripWidth;
  const int m = p.m;

  for (;;) {
    const long long s = next_strip(p, shared, lane);
    if (s == -1) return;
    if (s < 0) continue;
    const long long j0 = s * kStripWidth + lane * Cols;  // my first column, 0-based

    // The strip's target profile: profile[a][column] = score(a, t[column]).
    __syncwarp();
    for (int a = 0; a < p.rows; ++a) {
#pragma unroll
      for (int c = 0; c < Cols; ++c) {
        const long long j = j0 + c;
        profile[a * kStripWidth + lane * Cols + c] =
            j < p.n ? static_cast<Score>(__ldg(p.sub + a * p.dim + p.t[j])) : static_cast<Score>(kPadScore<Cols>);
      }
    }
    __syncwarp();

    const Neighbours<Edge> nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    wait_free_slot(p, nb, lane);

    Down d[Cols];
#pragma unroll
    for (int c = 0; c < Cols; ++c) d[c] = Cell::top(p.costs, p.j_base + j0 + c + 1);
    int diag = Cell::score(Cell::top(p.costs, p.j_base + j0));
    // Before a lane's first row these hold values that are never used.
    Edge right{};  // my last column's, for the lane on my right
    Edge in{};     // left edge rows for lane 0, one row per lane < kBatch
    Edge out{};    // right edge rows, one row per lane < kBatch
    int best = 0, best_i = 0, best_j = 0;
    // Query letters travel with the wavefront: lane 0 reads them from a batch
    // of 32 fetched 32 steps ahead; each other lane takes the letter its left
    // neighbour used one step before (the same row).
    int q_now = 0, q_next = lane < m ? __ldg(p.q + lane) : 0, letter = 0;

    // One step of the wavefront: lane L on row step - L + 1. A steady step
    // (every lane's row inside 1..m-1, no checkpoint rows) with step %
    // kBatch == K known at compile time leaves out every per-step test.
    auto advance = [&](const int step, auto steady, auto k_const) {
      constexpr bool kSteady = decltype(steady)::value;
      constexpr int K = decltype(k_const)::value;
      const int k = kSteady ? K : step & (kBatch - 1);
      if ((kSteady ? K == 0 : true) && (step & (kLanes - 1)) == 0) {
        q_now = q_next;
        q_next = step + kLanes + lane < m ? __ldg(p.q + step + kLanes + lane) : 0;
      }
      const int letter_in = __shfl_sync(kFull, q_now, step & (kLanes - 1));
      letter = __shfl_up_sync(kFull, letter, 1);
      if (lane == 0) letter = letter_in;
      if (k == 0 && (kSteady || step < m)) load_left_batch<Cell>(p, nb, lane, step, in);
      Edge left = shfl_up(right);
      const Edge b = shfl(in, k);
      if (lane == 0) left = b;

      const int i = step - lane + 1;
      if (kSteady || (i >= 1 && i <= m)) {
        int sc[Cols];
        load_scores<Cols>(profile + letter * kStripWidth + lane * Cols, sc);
        Edge e = left;
        if (!kSteady && i == m && Cell::keeps_last(p.last)) {
          Cell::template row<Cols>(d, sc, e, diag, p.costs, [&](int c, const Down& before, const Down& after) {
            if (j0 + c < p.n) Cell::keep_last(p.last, j0 + c + 1, before, after);
          });
        } else {
          Cell::template row<Cols>(d, sc, e, diag, p.costs, [](int, const Down&, const Down&) {});
        }
        diag = Cell::score(left);
        right = e;
        if (Kept && i % kKeptRowsOf<Cell> == 0 && i < m) {  // for the chunked traceback
          Down* row = p.checkpoints + (static_cast<long long>(i / kKeptRowsOf<Cell>) - 1) * p.padded_n + j0;
#pragma unroll
          for (int c = 0; c < Cols; ++c) row[c] = d[c];
        }
        if constexpr (Anywhere) {
          int row_max = Cell::score(d[0]);
#pragma unroll
          for (int c = 1; c + 1 < Cols; c += 2) row_max = __vimax3_s32(row_max, Cell::score(d[c]), Cell::score(d[c + 1]));
          if constexpr (Cols % 2 == 0) row_max = max(row_max, Cell::score(d[Cols - 1]));
          // A warp-uniform test first: a better cell is rare after the first rows.
          if (!kSteady || __any_sync(kFull, row_max > best))
            if (row_max > best) {
              best = row_max;
              best_i = i;
#pragma unroll
              for (int c = Cols - 1; c >= 0; --c)
                if (Cell::score(d[c]) == row_max) best_j = static_cast<int>(j0 + c + 1);
            }
        }
      }

      // Lane 31 finished row r; gather kBatch rows of the right edge, then publish.
      if (produces) {
        const Edge o = shfl(right, kLanes - 1);
        const int r = step - (kLanes - 2);
        if constexpr (kSteady) {  // r is inside 1..m-1, and r % kBatch == (K + 2) % kBatch
          if (lane == ((k + 1) & (kBatch - 1))) out = o;
          if (k == kBatch - 2) publish_edge<false, Kept>(p, nb, lane, r, out);
        } else {
          gather_and_publish<false, Kept>(p, nb, lane, r, o, out);
        }
      }
    };
    using General = std::false_type;
    using Steady = std::true_type;
    const int steps = m + kLanes - 1;
    int step = 0;
    for (; step < min(kLanes, steps); ++step) advance(step, General{}, std::integral_constant<int, 0>{});
    for (; step + kBatch <= m - 1; step += kBatch)
      for_each_index<kBatch>([&](auto k) { advance(step + decltype(k)::value, Steady{}, k); });
    for (; step < steps; ++step) advance(step, General{}, std::integral_constant<int, 0>{});

    if constexpr (Anywhere) publish_strip_best(p, s, lane, best, best_i, best_j);
  }
}

}  // namespace gdp::pairwise::striped
