#pragma once
// Planning a striped score pass, in plain C++ (tested without a GPU): which
// kernel, its columns a lane, shared memory, blocks, strips a group, ring
// slots and pieces of the target. The run step (cuda/striped_score.cu) only
// queries the device, allocates, fills the parameters and launches.
#include <cstddef>
#include <vector>

#include "pairwise/gpu_tuning.hpp"
#include "pairwise/rebased16.hpp"

namespace gdp::pairwise::striped {

// The kernels' geometry, shared with the device code.
constexpr int kLanes = 32;
constexpr int kBatch = 8;  // boundary rows passed between strips at a time
constexpr int kWarpsPerBlock = 4;
// A warp's strip is kLanes * Cols columns wide, twice that in 16 bits; Cols
// is at most 64.
constexpr int kMaxStripWidth = 2 * kLanes * 64;
// A pass saved to a checkpoint file takes the target in pieces of about
// this many cells (under a minute at 2,000 GCUPS), each whole waves of
// strips, so that no piece ends with warps idle.
constexpr long long kSavedPieceCells = 100'000'000'000'000LL;
// A ring slot of whole columns holds m rows; where slots enough for the
// groups in flight would not fit, a slot holds a window of kRingRows rows
// instead, which wraps (GridPlan::ring_rows).
constexpr long long kRingRows = 4096;
constexpr long long kMinRingRows = 64;
// Columns past the target score this: at most 0, so never better than a real
// one (16 columns a lane and more keep 8-bit profiles).
template <int Cols>
constexpr int kPadScore = Cols >= 16 ? -128 : -1000;
// The kept pass (the chunked traceback's phase 1): kept strips of 8
// columns a lane (kKeptWidth; a 16-bit kernel's warp sweeps several), a
// checkpoint row every kept_rows(...) rows, for a cell whose direction
// bits take `dir_word_bytes` a lane and row: a chunk of those rows by a
// strip holds 32 KiB of them, so that the walk's four chunks fit in shared
// memory (chunk_walk.cuh). 256 rows for gpu-sw's 32-bit words, 128 for
// gpu-syntenic's 64-bit ones.
constexpr int kKeptCols = 8;
constexpr int kKeptWidth = kLanes * kKeptCols;
// The rebased 16-bit kernel's kept passes: 8 to 32 columns a lane, Cols / 8
// kept strips of kKeptWidth columns a half (a strip of 64 Cols columns).
constexpr int kMaxKeptCols16 = 32;
// Any rebased 16-bit pass's columns a lane, unless asked for more.
constexpr int kMaxRebasedCols = 32;
constexpr int kept_rows(std::size_t dir_word_bytes) { return static_cast<int>(32768 / (kLanes * dir_word_bytes)); }

// Device memory a kept pass of m x n needs beyond an ordinary one (the
// affine cell, 32-bit direction words): 8-byte edges and checkpoints, or
// `packed` 4-byte ones (kept_cell.hpp) and an anchor a chunk.
inline long long kept_bytes(long long m, long long n, bool packed) {
  // The widest 16-bit kept strip holds 2 * kMaxKeptCols16 / kKeptCols kept strips.
  constexpr long long kWidest = 2 * kLanes * kMaxKeptCols16;
  const long long strips = (n + kWidest - 1) / kWidest * (kWidest / kKeptWidth);
  const long long rows = m / kept_rows(4);
  return packed ? (strips * m + rows * strips * kKeptWidth + rows * strips) * 4
                : (strips * m + rows * strips * kKeptWidth) * 8;
}

// The rebased diagonal 16-bit kernel's rebases (striped_score16.cu): each half of
// a warp keeps one base (rebased16.hpp) for its kLanes x Cols columns and
// the column on their left, moved in steady steps only, every `interval`
// steps, a power of two. A base then serves at most interval + 2 x kLanes
// steps (before the first steady step, and after the last), over rows
// kLanes apart. Large gap costs or scores can leave too few rows for
// kMinRebaseInterval: then interval is 0, and the kernel cannot run.
struct Rebase16 {
  int interval = 0;
  int reach = 0;  // rebased16::Plan's
};
constexpr int kMinRebaseInterval = 64;
Rebase16 rebase16_of(int open_extend, int max_abs_score, int lane_columns);

// Whether the chunked traceback's kept pass runs in the rebased 16-bit
// kernel, which keeps packed cells (kept_cell.hpp), rather than in 32 bits
// (8-byte cells): where 16 bits are not refused, the substitution scores
// fit a byte and the kernel can rebase at 8 columns a lane.
bool kept_in_rebased16(int open_extend, int max_abs_score, int tuning_bits);

// What a pass asks for.
struct PassRequest {
  long long m = 0, n = 0;  // query (rows) and target (columns) letters
  int max_abs_score = 0;   // the substitution matrix's largest |score|
  int open_extend = 0;     // the cost of a gap of length 1
  int profile_rows = 0;    // letters the profile holds a row for
  bool local = false;
  bool anywhere = false;   // End::anywhere: the best cell of the matrix
  bool last_h = false;     // H of row m wanted (Myers-Miller)
  bool last_f = false;     // F of row m wanted
  bool kept = false;       // keep edges and checkpoints for the traceback
  bool saved = false;      // saved to a checkpoint file after each piece (pass_checkpoint.hpp)
  bool save_rows = false;  // every few rows' H and F kept (shape.hpp: SavedRows): the rebased kernel
  int edge_bytes = 8;      // the cell's Edge: a ring slot holds ring_rows of them (GridPlan)
  // A pass chained over several GPUs (chained_pass.cu) deals its pieces to
  // `chained` places in turn; `sharing` of them are on this pass's device,
  // whose pieces then run side by side.
  int chained = 0;
  int sharing = 1;
};

// What the planner needs to know of the device.
struct DeviceLimits {
  int sms = 0;
  std::size_t shared_per_block = 0;  // opt-in shared memory a block
};

// The kernel: the first half of a plan, before the occupancy is known.
struct KernelPlan {
  KernelKind kind = KernelKind::s32;
  int lane_columns = 8;
  long long strip_width = 0;  // columns a warp's strip
  std::size_t shared_bytes = 0;  // the profiles of a block
  Rebase16 rebase;  // s16_rebased's
  bool sixteen() const { return kind != KernelKind::s32; }
};

// The kernel a pass runs (the tuning forces parts of the choice).
KernelPlan plan_kernel(const PassRequest& r, const GpuTuning& tuning, const DeviceLimits& d);

// The grid: the second half, once the device says how many blocks of the
// kernel fit an SM (`fit`, at least 1). `free_bytes`: device memory free
// for the ring, counting what an earlier pass's ring holds.
struct GridPlan {
  int blocks_per_sm = 1;
  long long piece = 0;     // target columns a launch (whole strips), before memory limits
  long long strips = 0;    // of the first piece
  long long blocks = 0;
  int group = 1;           // strips a block sweeps together
  long long slots = 0;     // ring slots
  // Rows a ring slot holds: m, or (a pass that keeps nothing, whose ring of
  // whole columns would hold fewer slots than the groups in flight want) a
  // window of them, a power of two, that the slot's reader frees as it
  // reads. Then each piece is one wave of groups, all running at once, a
  // slot each, so that every slot's reader runs beside its writer: a
  // writer a window ahead waits for its reader, never for a group not yet
  // started, and the ring's memory no longer grows with m.
  long long ring_rows = 0;
  bool windowed = false;
  bool fits = true;        // false: too little memory for the ring
};
// A chained pass's pieces (PassRequest::chained), as their cuts: 0, each
// piece's end, n last, in whole strips. Every round of a piece a place
// but the last takes pieces of `widest` columns; the last round's strips
// are divided among the places. plan_grid's widest is one wave of the
// device's blocks over `sharing`: all of a piece's strips run at once (its
// last strip, which feeds the next place, starts with its first), and the
// pieces of one device's places fit on it together; less where
// tuning.piece_columns asks (tests). A piece takes about as long as its
// most loaded SM's warps: full waves keep every SM as busy as one GPU's
// pass does, and the last round's narrower pieces end about together.
std::vector<long long> chained_cuts(long long n, long long strip_width, long long widest, int places);

GridPlan plan_grid(const PassRequest& r, const KernelPlan& k, const GpuTuning& tuning, const DeviceLimits& d, int fit,
                   std::size_t free_bytes);

// Target columns a launch once the ring is allocated: the planned piece, or
// fewer where the target's per-column buffers would take more than half of
// `free_bytes` (free memory, counting those buffers of an earlier pass). 0:
// not even one strip fits.
long long piece_within(const PassRequest& r, const KernelPlan& k, long long piece, std::size_t free_bytes);

// Whether a pass needs row m's H from the device: the whole row, or the
// corner, for every end but End::anywhere.
inline bool wants_row(const PassRequest& r) { return r.last_h || !r.anywhere; }

}  // namespace gdp::pairwise::striped
