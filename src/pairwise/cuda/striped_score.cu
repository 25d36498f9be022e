// The striped score pass on the GPU (dissertation chapter 4, StripedScore),
// rebuilt for a modern GPU, and the host side of every GPU pass.
//
// The matrix (rows: query, columns: target) is cut into vertical strips of
// 32 * Cols target columns. A warp owns a strip and sweeps it top to
// bottom: lane L holds Cols consecutive columns in registers and works on
// row (step - L), so the warp is a 32-deep anti-diagonal wavefront. Each
// step a lane takes H and E of its left neighbour's last column by a warp
// shuffle; lane 0 takes them from the strip on the left, kBatch rows at a
// time (striped_common.cuh). The four warps of a block sweep four
// neighbouring strips and hand their edges over through shared memory;
// between blocks the edges go through a ring of boundary columns in device
// memory, signalled by a per-slot flag. A strip can start about kLanes +
// kBatch steps after the one on its left, so a query of m rows keeps about
// m / 40 warps busy at once. Blocks are persistent and take groups of
// strips in order from a ticket counter, so a warp only ever waits for a
// strip whose warp is already running: the deadlock rule of Xiao, Aji and
// Feng holds for any grid size.
//
// Most steps are steady: every lane's row lies inside the matrix and not on
// its last row. Those run unrolled by kBatch with their tests decided at
// compile time (about 120 instructions a step with 8 columns a lane, 177
// before: bench/RESULTS.md).
//
// The cell update is recurrence.hpp's (update_cell), written out with the
// Hopper DPX instructions (lane_row). Local passes without a last row go to
// a 16-bit kernel where the scores allow: the diagonal one
// (striped_score16.cu) or the row one (striped_rows16.cu), by use_rows16;
// they come back here in 32 bits if a score leaves the 16-bit range.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "pairwise/cpu/passes.hpp"
#include "core/cuda_check.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/striped_common.cuh"

namespace gdp::pairwise {
namespace {

using namespace striped;

// Kept: the pass keeps checkpoint rows for the chunked traceback (kept_bytes).
template <int Cols, bool Local, bool Anywhere, bool Kept = false>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) striped_score(Params p) {
  constexpr int kStripWidth = kLanes * Cols;
  using Score = ProfileScore<Cols>;
  extern __shared__ __align__(16) unsigned char profile_bytes[];
  __shared__ BlockShared shared;
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

    const Neighbours nb = neighbours(p, s, shared);
    const bool produces = nb.produces();
    wait_free_slot(p, nb, lane);

    int hp[Cols], f[Cols];
#pragma unroll
    for (int c = 0; c < Cols; ++c) {
      hp[c] = top_h(p, Local, j0 + c + 1);
      f[c] = hp[c] - p.open_extend;  // F(1, c): F(0, c) is minus infinity
    }
    int diag = top_h(p, Local, j0);
    int hr = 0, er = neg_inf;          // my last column's H and E, for the lane on my right
    int in_h = 0, in_e = neg_inf;      // left boundary rows for lane 0, one row per lane < kBatch
    int out_h = 0, out_e = 0;          // right boundary rows, one row per lane < kBatch
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
      if (k == 0 && (kSteady || step < m)) load_left_batch(p, Local, nb, lane, step, in_h, in_e);
      int hl = __shfl_up_sync(kFull, hr, 1), el = __shfl_up_sync(kFull, er, 1);
      const int bh = __shfl_sync(kFull, in_h, k), be = __shfl_sync(kFull, in_e, k);
      if (lane == 0) hl = bh, el = be;

      const int i = step - lane + 1;
      if (kSteady || (i >= 1 && i <= m)) {
        int sc[Cols];
        load_scores<Cols>(profile + letter * kStripWidth + lane * Cols, sc);
        int e = el;
        if (!kSteady && i == m && p.last_h)
          lane_row<Cols, Local, true>(hp, f, sc, e, hl, diag, p, j0);
        else
          lane_row<Cols, Local, false>(hp, f, sc, e, hl, diag, p, j0);
        diag = hl;
        hr = hp[Cols - 1];
        er = e;
        if (Kept && i % kKeptRows == 0 && i < m) {  // for the chunked traceback
          int2* row = p.checkpoints + (static_cast<long long>(i / kKeptRows) - 1) * p.padded_n + j0;
#pragma unroll
          for (int c = 0; c < Cols; ++c) row[c] = make_int2(hp[c], f[c]);
        }
        if constexpr (Anywhere) {
          int row_max = hp[0];
#pragma unroll
          for (int c = 1; c + 1 < Cols; c += 2) row_max = __vimax3_s32(row_max, hp[c], hp[c + 1]);
          if constexpr (Cols % 2 == 0) row_max = max(row_max, hp[Cols - 1]);
          // A warp-uniform test first: a better cell is rare after the first rows.
          if (!kSteady || __any_sync(kFull, row_max > best))
            if (row_max > best) {
              best = row_max;
              best_i = i;
#pragma unroll
              for (int c = Cols - 1; c >= 0; --c)
                if (hp[c] == row_max) best_j = static_cast<int>(j0 + c + 1);
            }
        }
      }

      // Lane 31 finished row r; gather kBatch rows of the right edge, then publish.
      if (produces) {
        const int oh = __shfl_sync(kFull, hr, kLanes - 1), oe = __shfl_sync(kFull, er, kLanes - 1);
        const int r = step - (kLanes - 2);
        if constexpr (kSteady) {  // r is inside 1..m-1, and r % kBatch == (K + 2) % kBatch
          if (lane == ((k + 1) & (kBatch - 1))) out_h = oh, out_e = oe;
          if (k == kBatch - 2) publish_edge(p, nb, lane, r, out_h, out_e);
        } else {
          gather_and_publish(p, nb, lane, r, oh, oe, out_h, out_e);
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

template <int Cols, bool Kept = false>
Kernel kernel_for(bool local, bool anywhere) {
  if (local) return anywhere ? striped_score<Cols, true, true, Kept> : striped_score<Cols, true, false, Kept>;
  return anywhere ? striped_score<Cols, false, true, Kept> : striped_score<Cols, false, false, Kept>;
}

// Wider lanes cut the per-step overhead; 8 columns give more strips, which
// narrow matrices need to fill the GPU. From 10^6 target letters on, 16
// columns (32 in the 16-bit kernel) measured faster, and 64 in the 16-bit
// kernel from kWideLanesFrom on (bench/RESULTS.md).
// GPUDP_SW_LANE_COLUMNS=8|16|32|64 overrides the choice (for benchmarks);
// 32 and 64 mean 16 in the 32-bit kernel.
constexpr long long kWideLanesFrom = 3000000;  // 1e5 x 1e6: 32 faster; 3e6 and 1e7: 64
int lane_columns(long long n, int max_abs_score, int asked, bool sixteen) {
  if (max_abs_score > 127) return 8;  // the wider profiles hold 8-bit scores
  if (const char* env = std::getenv("GPUDP_SW_LANE_COLUMNS"); env && asked == 0) asked = std::atoi(env);
  if (asked >= 32 && !sixteen) asked = 16;
  if (asked == 8 || asked == 16 || asked == 32 || asked == 64) return asked;
  if (n < 1000000) return 8;
  if (!sixteen) return 16;
  return n < kWideLanesFrom ? 32 : 64;
}

// Steps a strip starts after the one on its left: as many rows as the
// warp's wavefront is deep, plus a batch (the row kernel's edge is out at
// once; 4 steps stand for the hand-over).
constexpr long long kLag32 = kLanes + kBatch, kDiagonalLag = 2 * kLanes + kBatch, kRowLag = kBatch + 4;

// A strip starts about `lag` steps after the one on its left, so a query
// of m rows keeps about m / lag warps busy. Warps beyond that only wait
// for their left neighbour, and slow the busy ones on their SM: blocks an
// SM are capped so that the warps number about 0.85 of m / lag (on the
// H100, 1e5 x 1e7 ran fastest at 0.76 for the 16-bit diagonal kernel and
// 0.84 for the 32-bit one: bench/RESULTS.md). With 64 columns a lane (254
// registers), one block an SM (0.38 of m / lag) beat two on 1e5 x 1e7.
// The row kernel's strips hand their edge on at once: a lag of a batch.
long long busy_blocks_of(long long m, bool sixteen, bool rows16, int cols) {
  const long long lag = rows16 ? kRowLag : sixteen ? kDiagonalLag : kLag32;
  const long long busy_share = cols == 64 && !rows16 ? 40 : 85;
  return m * busy_share / (100 * lag * kWarpsPerBlock);
}

// Which 16-bit kernel. The diagonal one's strips start kDiagonalLag (72)
// steps after the one on their left, so its wavefront takes
// min(strips, warps) x 72 steps to fill, against m steps a strip in
// strips / warps rounds (warps: one block an SM). Where that fill is more than 0.3 of the run, the row
// kernel, whose strips start a batch after their neighbour, is faster if
// its profile (twice the diagonal one's) lets it keep the columns a lane;
// where the fill is longer than the run, even with fewer. On the H100 this
// picks the faster kernel in each of 11 shapes measured, DNA and protein,
// 1e3 to 1e5 x 1e5 to 1e7 (bench/RESULTS.md).
bool use_rows16(Kernel16 asked, long long m, long long n, int cols_diagonal, int cols_rows, int sms) {
  if (const char* env = std::getenv("GPUDP_SW_KERNEL16"); env && asked == Kernel16::choose)
    asked = std::string(env) == "rows" ? Kernel16::rows : std::string(env) == "diagonal" ? Kernel16::diagonal : asked;
  if (asked != Kernel16::choose) return asked == Kernel16::rows;
  const double strips = std::ceil(static_cast<double>(n) / (2 * kLanes * cols_diagonal));
  const double warps = static_cast<double>(kWarpsPerBlock) * sms, lag = kDiagonalLag;
  const double fill = std::min(strips, warps) * lag / (static_cast<double>(m) * std::max(1.0, strips / warps));
  return fill > 1 || (fill > 0.3 && cols_rows == cols_diagonal);
}

// The row kernel's columns a lane, unless asked. Its strips start about a
// batch after the one on their left, so a run takes about
// m x rounds + min(strips, warps) x lag steps (rounds: strips / warps, at
// least 1; warps: one block an SM). Wider lanes make fewer strips, so fewer
// rounds and a shorter fill, but longer steps. The cycles a step are the
// H100's in a chain of 32 strips (bench/RESULTS.md); only their ratios
// matter here. Up to `widest` columns (what the profile lets fit).
int row_kernel_columns(long long m, long long n, int widest, int sms) {
  constexpr std::pair<int, double> step_cycles[] = {{8, 973}, {16, 1189}, {32, 1329}, {64, 1738}};
  const double warps = static_cast<double>(kWarpsPerBlock) * sms, lag = kRowLag;
  int best = 8;
  double best_time = 0;
  for (const auto& [cols, cycles] : step_cycles) {
    if (cols > widest) break;
    const double strips = std::ceil(static_cast<double>(n) / (2 * kLanes * cols));
    const double time = (static_cast<double>(m) * std::max(1.0, strips / warps) + std::min(strips, warps) * lag) * cycles;
    if (cols == 8 || time < best_time) best = cols, best_time = time;
  }
  return best;
}

// The query rewritten in ranks of the letters it uses, and the rows of the
// substitution matrix for those letters, in that order.
struct QueryLetters {
  std::vector<std::uint8_t> q;
  std::vector<int> sub;  // rows x dim
  int rows = 0;
};

QueryLetters query_letters(Residues q, const ScoringScheme& scheme) {
  std::vector<int> rank(static_cast<std::size_t>(scheme.dim), -1);
  for (const std::uint8_t a : q) rank[a] = 0;
  QueryLetters out;
  for (int a = 0; a < scheme.dim; ++a) {
    if (rank[a] < 0) continue;
    rank[a] = out.rows++;
    const int* row = scheme.row(static_cast<std::uint8_t>(a));
    out.sub.insert(out.sub.end(), row, row + scheme.dim);
  }
  out.q.resize(q.size());
  std::transform(q.begin(), q.end(), out.q.begin(), [&](std::uint8_t a) { return static_cast<std::uint8_t>(rank[a]); });
  return out;
}

// Device memory kept between passes (Myers-Miller makes many): it only grows.
struct Workspace {
  int device = -1;
  cuda::DeviceArray<std::uint8_t> q, t;
  cuda::DeviceArray<int> sub, last_h, last_f;
  cuda::DeviceArray<int2> ring;
  cuda::DeviceArray<unsigned long long> flags;
  cuda::DeviceArray<int4> strip_best;
  cuda::DeviceArray<int2> checkpoints;
  cuda::DeviceArray<int2> edges;  // two columns of m rows: between pieces of a long target
  std::size_t bytes() const {
    return q.bytes() + t.bytes() + sub.bytes() + last_h.bytes() + last_f.bytes() + ring.bytes() + flags.bytes() +
           strip_best.bytes() + checkpoints.bytes() + edges.bytes();
  }
  void release() {
    q.release(), t.release(), sub.release(), last_h.release(), last_f.release(), ring.release(), flags.release(),
        strip_best.release(), checkpoints.release(), edges.release();
  }
};

Workspace& workspace() {
  static Workspace w;
  return w;
}

GpuStats& stats() {
  static GpuStats s;
  return s;
}

}  // namespace

GpuStats gpu_stats() { return stats(); }

void add_gpu_kernel_time(double seconds, bool traceback) {
  stats().kernel_seconds += seconds;
  if (traceback) stats().traceback_seconds += seconds;
}

PassResult score_pass_gpu(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                          LastRow last_row, GpuTuning tuning) {
  return striped_pass(q, t, scheme, shape, device, last_row, tuning, nullptr);
}

PassResult striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                        LastRow last_row, GpuTuning tuning, Kept* kept) {
  const long long m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  if (m == 0 || n == 0) return score_pass_scalar(q, t, scheme, shape, last_row);
  if (m >= (1LL << 31) - kLanes || (kept && n >= (1LL << 31) - kMaxStripWidth))
    throw RunError(kept ? "sequences of 2^31 letters or more are not supported by the GPU traceback"
                        : "queries of 2^31 letters or more are not supported on the GPU");
  if (scheme.max_abs_score() > -kPadScore<8>)
    throw RunError("substitution scores beyond +-1000 are not supported on the GPU");

  GDP_CUDA_CHECK(cudaSetDevice(device));
  Workspace& w = workspace();
  if (w.device != device) w.release(), w.device = device;
  cudaDeviceProp prop{};
  GDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const bool anywhere = shape.end == End::anywhere;
  // Two 16-bit cells a register where they can hold the scores: local
  // alignment's score and end cell, with 8-bit substitution scores.
  const char* bits_env = std::getenv("GPUDP_SW_BITS");  // 32: never 16 bits (benchmarks)
  const bool sixteen = tuning.bits != 32 && !(bits_env && std::string(bits_env) == "32") && shape.local &&
                       anywhere && !last_row.h && !last_row.f && !kept && scheme.max_abs_score() <= 127;
  // The profile needs a row for each letter the query uses, not for each
  // of the alphabet's (DNA's 15 letters include 11 ambiguity codes): less
  // shared memory a block leaves room for more blocks an SM. Kept passes
  // keep the alphabet's ranks, which the traceback reads.
  const QueryLetters letters = kept ? QueryLetters{{}, {}, scheme.dim} : query_letters(q, scheme);
  // A warp's strip, and a block's profiles in shared memory: a row a query
  // letter, a byte a column (two with 8 columns in 32 bits, and in the row
  // kernel, whose profile holds the two halves' scores packed).
  auto strip_width_of = [&](int columns) { return (sixteen ? 2 : 1) * kLanes * static_cast<long long>(columns); };
  auto profile_shared = [&](int columns, bool packed) {
    const std::size_t bytes = packed ? 2 : sixteen || columns >= 16 ? 1 : 2;
    return static_cast<std::size_t>(kWarpsPerBlock) * letters.rows * strip_width_of(columns) * bytes;
  };
  // 64 columns a lane take 4 KiB of profile a letter and warp (8 in the
  // row kernel): a query of many letters (protein) takes fewer, whose
  // profile fits.
  auto fitting = [&](int columns, bool packed) {
    while (columns > 8 && profile_shared(columns, packed) > prop.sharedMemPerBlockOptin) columns /= 2;
    return columns;
  };
  const int asked_cols = kept ? kKeptCols : lane_columns(n, scheme.max_abs_score(), tuning.lane_columns, sixteen);
  const int cols_diagonal = fitting(asked_cols, false), cols_rows = fitting(asked_cols, true);
  const bool rows16 =
      sixteen && use_rows16(tuning.kernel16, m, n, cols_diagonal, cols_rows, prop.multiProcessorCount);
  const bool columns_asked = tuning.lane_columns != 0 || std::getenv("GPUDP_SW_LANE_COLUMNS");
  const int cols = !rows16         ? cols_diagonal
                   : columns_asked ? cols_rows
                                   : row_kernel_columns(m, n, fitting(64, true), prop.multiProcessorCount);
  const long long strip_width = strip_width_of(cols);
  const Kernel kernel = rows16       ? striped_rows16_kernel(cols)
                        : sixteen    ? striped16_kernel(cols)
                        : kept       ? kernel_for<kKeptCols, true>(shape.local, anywhere)
                        : cols == 16 ? kernel_for<16>(shape.local, anywhere)
                                     : kernel_for<8>(shape.local, anywhere);
  const Residues q_ranks = kept ? q : Residues(letters.q);
  const int* sub_rows = kept ? scheme.scores.data() : letters.sub.data();
  const std::size_t shared = profile_shared(cols, rows16);
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  int per_sm = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kWarpsPerBlock * kLanes, shared));
  if (per_sm == 0) throw RunError("the GPU kernel does not fit on this device (shared memory)");
  // Blocks an SM: no more than the wavefront keeps busy (busy_blocks_of);
  // GPUDP_SW_BLOCKS_PER_SM overrides it.
  const long long busy_blocks = busy_blocks_of(m, sixteen, rows16, cols);
  const int fit = per_sm;
  per_sm = static_cast<int>(std::clamp<long long>(busy_blocks / prop.multiProcessorCount, 1, fit));
  if (const char* env = std::getenv("GPUDP_SW_BLOCKS_PER_SM")) per_sm = std::clamp(std::atoi(env), 1, fit);

  // A target of 2^31 letters or more, or too long for the device's memory
  // beside the ring, goes through in pieces of whole strips, one launch
  // each, the right edge of one the left edge of the next (tests ask for
  // small pieces through tuning.piece_columns).
  long long piece = kept ? n : ((1LL << 31) - 2 * kMaxStripWidth) / strip_width * strip_width;
  if (!kept && tuning.piece_columns > 0) piece = std::max(strip_width, tuning.piece_columns / strip_width * strip_width);
  piece = std::min(piece, n);

  const long long strips = (piece + strip_width - 1) / strip_width;  // of the first (widest) piece
  const long long blocks = std::min<long long>(static_cast<long long>(per_sm) * prop.multiProcessorCount,
                                               (strips + kWarpsPerBlock - 1) / kWarpsPerBlock);
  const long long warps = blocks * kWarpsPerBlock;
  // Groups of strips that one block sweeps, handing over in shared memory
  // (the kept pass keeps every strip's edge in the ring instead).
  int group = tuning.group == 1 || kept ? 1 : kWarpsPerBlock;
  if (const char* env = std::getenv("GPUDP_SW_GROUP"); env && std::string(env) == "1" && tuning.group == 0) group = 1;
  const long long groups = (strips + group - 1) / group;
  // Ring slots: twice the groups in flight keeps producers from waiting for
  // a free slot; the ring takes at most a quarter of the free memory.
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const long long column_bytes = m * static_cast<long long>(sizeof(int2));
  const long long affordable = static_cast<long long>((free_bytes + w.ring.bytes()) / 4) / column_bytes;
  long long slots = std::min({groups, 2 * warps / group, affordable});
  if (tuning.max_slots > 0) slots = std::min(slots, std::max(tuning.max_slots, 2LL));
  if (kept) slots = strips;  // every strip's edge stays for the traceback
  if (slots < 1 || (groups > 1 && slots < 2))
    throw RunError("a query of " + std::to_string(m) + " letters needs " + std::to_string(8 * column_bytes >> 20) +
                   " MiB of GPU memory for its boundary columns; " + std::to_string(free_bytes >> 20) +
                   " MiB are free");

  const bool want_row = last_row.h || shape.end != End::anywhere;
  const bool pieces = piece < n;
  w.q.reserve(static_cast<std::size_t>(m));
  w.sub.reserve(static_cast<std::size_t>(letters.rows * scheme.dim));
  w.ring.reserve(static_cast<std::size_t>(slots * m), "cudaMalloc (boundary columns)");
  w.flags.reserve(static_cast<std::size_t>(slots) + 2);  // the slots' flags, the ticket, the overflow flag
  if (pieces) w.edges.reserve(static_cast<std::size_t>(2 * m), "cudaMalloc (edges between pieces)");
  // Device bytes a column of a piece takes: the target, row m's H and F,
  // the strips' best (under a byte).
  const long long piece_bytes = 2 + (want_row ? 4 : 0) + (last_row.f ? 4 : 0);
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const long long room = static_cast<long long>(free_bytes + w.t.bytes() + w.last_h.bytes() + w.last_f.bytes() +
                                                w.strip_best.bytes()) / 2 / piece_bytes / strip_width * strip_width;
  if (room < piece && !kept) {
    if (room < strip_width) throw RunError("too little GPU memory is free for a strip of the target");
    piece = room;  // more pieces, each narrower than the ring was sized for: the ring only has slots to spare
  }
  const long long max_strips = (piece + strip_width - 1) / strip_width;
  w.t.reserve(static_cast<std::size_t>(piece));
  if (want_row) w.last_h.reserve(static_cast<std::size_t>(piece + 1));
  if (last_row.f) w.last_f.reserve(static_cast<std::size_t>(piece + 1));
  if (anywhere) w.strip_best.reserve(static_cast<std::size_t>(max_strips));
  const long long checkpoint_rows = kept ? m / kKeptRows : 0;
  if (checkpoint_rows > 0)
    w.checkpoints.reserve(static_cast<std::size_t>(checkpoint_rows * strips * strip_width), "cudaMalloc (checkpoints)");
  stats().peak_memory_bytes = std::max(stats().peak_memory_bytes, w.bytes());

  GDP_CUDA_CHECK(cudaMemcpy(w.q.get(), q_ranks.data(), q_ranks.size(), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(w.sub.get(), sub_rows, static_cast<std::size_t>(letters.rows * scheme.dim) * sizeof(int),
                            cudaMemcpyHostToDevice));

  const GapCosts g = gap_costs(scheme);
  Params p{};
  p.q = w.q.get();
  p.t = w.t.get();
  p.m = static_cast<int>(m);
  p.sub = w.sub.get();
  p.dim = scheme.dim;
  p.rows = letters.rows;
  p.open = scheme.gap_open;
  p.open_extend = g.open_extend;
  p.extend = g.extend;
  p.free_top = shape.free_top;
  p.left_open = shape.left_open;
  p.slots = slots;
  p.group = group;
  p.ring = w.ring.get();
  p.flags = w.flags.get();
  p.ticket = w.flags.get() + slots;
  p.overflow = sixteen ? reinterpret_cast<int*>(w.flags.get() + slots + 1) : nullptr;
  p.overflow_at = 32767 - std::max(scheme.max_abs_score(), 1);
  // Tuning experiment (bench/RESULTS.md): GPUDP_SW_FENCE=0 leaves the
  // ordering of the edge stores to __syncwarp and the flag's release store.
  p.sleep_ns = 0;
  if (const char* env = std::getenv("GPUDP_SW_SLEEP_NS")) p.sleep_ns = static_cast<unsigned>(std::atoi(env));
  const char* fence_env = std::getenv("GPUDP_SW_FENCE");
  p.full_fence = !(fence_env && std::string(fence_env) == "0");
  p.last_h = want_row ? w.last_h.get() : nullptr;
  p.last_f = last_row.f ? w.last_f.get() : nullptr;
  p.strip_best = w.strip_best.get();
  p.checkpoints = checkpoint_rows > 0 ? w.checkpoints.get() : nullptr;
  p.padded_n = strips * strip_width;
  if (kept) *kept = Kept{w.ring.get(), p.checkpoints, w.q.get(), w.t.get(), w.sub.get(), p.padded_n, kKeptRows};

  // Row m, where it is needed: all of it, or the corner alone.
  const bool whole_row = last_row.h || shape.end == End::last_row;
  std::vector<int> h(want_row || last_row.f ? static_cast<std::size_t>(whole_row ? n + 1 : 1) : 0);
  std::vector<int> f(last_row.f ? static_cast<std::size_t>(n + 1) : 0);
  std::vector<int4> per_strip;
  PassResult best{0, 0, 0};
  int corner = 0;
  for (long long from = 0; from < n; from += piece) {
    const long long width = std::min(piece, n - from), piece_strips = (width + strip_width - 1) / strip_width;
    GDP_CUDA_CHECK(cudaMemcpy(w.t.get(), t.data() + from, static_cast<std::size_t>(width), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemset(w.flags.get(), 0, static_cast<std::size_t>(slots + 2) * sizeof(unsigned long long)));
    // The 16-bit kernel's ring rows are tagged with their group's number:
    // 0xff bytes are no group's, nor are the last launch's rows left there.
    if (sixteen) GDP_CUDA_CHECK(cudaMemset(w.ring.get(), 0xff, static_cast<std::size_t>(slots * m) * sizeof(int2)));
    p.n = static_cast<int>(width);
    p.strips = piece_strips;
    p.j_base = from;
    const long long index = from / piece;
    p.left_edge = from > 0 ? w.edges.get() + (index % 2 ? 0 : m) : nullptr;
    p.right_edge = from + width < n ? w.edges.get() + (index % 2 ? m : 0) : nullptr;
    const long long piece_blocks = std::min(blocks, (piece_strips + kWarpsPerBlock - 1) / kWarpsPerBlock);

    cuda::KernelTimer timer;
    timer.start();
    kernel<<<static_cast<int>(piece_blocks), kWarpsPerBlock * kLanes, shared>>>(p);
    GDP_CUDA_CHECK(cudaGetLastError());
    add_gpu_kernel_time(timer.stop_seconds(), false);
    GDP_CUDA_CHECK(cudaDeviceSynchronize());
    ++stats().passes;
    if (sixteen) {
      int overflow = 0;
      GDP_CUDA_CHECK(cudaMemcpy(&overflow, p.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
      if (overflow) {  // a score too large for 16 bits: the whole pass again in 32
        ++stats().overflow_reruns;
        GpuTuning wide = tuning;
        wide.bits = 32;
        return striped_pass(q, t, scheme, shape, device, last_row, wide, kept);
      }
    }
    if (anywhere) {  // strips left to right, pieces too: the earlier cell wins a tie
      per_strip.resize(static_cast<std::size_t>(piece_strips));
      GDP_CUDA_CHECK(cudaMemcpy(per_strip.data(), w.strip_best.get(), per_strip.size() * sizeof(int4),
                                cudaMemcpyDeviceToHost));
      for (const int4& b : per_strip) {
        const long long j = from + b.z;
        const bool wins = b.x > best.score ||
                          (b.x == best.score && b.x > 0 && (b.y < best.end_i || (b.y == best.end_i && j < best.end_j)));
        if (wins) best = {b.x, b.y, j};
      }
    }
    if (whole_row)
      GDP_CUDA_CHECK(cudaMemcpy(h.data() + from + 1, w.last_h.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
    else if (want_row && from + width == n)
      GDP_CUDA_CHECK(cudaMemcpy(&corner, w.last_h.get() + width, sizeof(int), cudaMemcpyDeviceToHost));
    if (last_row.f)
      GDP_CUDA_CHECK(cudaMemcpy(f.data() + from + 1, w.last_f.get() + 1, static_cast<std::size_t>(width) * sizeof(int),
                                cudaMemcpyDeviceToHost));
  }

  if (!want_row && !last_row.f) return best;
  if (!whole_row) {  // the corner alone: End::corner
    h.assign(static_cast<std::size_t>(n + 1), 0);  // finish_pass reads h[n] only
    h[static_cast<std::size_t>(n)] = corner;
  }
  h[0] = left_h_of(shape, g, m);
  if (!last_row.f) f.assign(h.size(), 0);
  return finish_pass(h, f, m, shape, best, last_row);
}

}  // namespace gdp::pairwise
