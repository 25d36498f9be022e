#pragma once
// gpu-sw's kernels run the Gotoh cell (gotoh_cell.hpp); all of them take
// the same parameters.
#include "pairwise/cuda/strip_params.cuh"
#include "pairwise/gotoh_cell.hpp"

namespace gdp::pairwise::striped {

using GotohParams = Params<GotohTypes>;
using Kernel = void (*)(GotohParams);

// The 16-bit kernels (scores within +-127; two cells a register, a strip
// of 64 * cols columns): the diagonal one (striped_score16.cu; plain, for
// local End::anywhere passes, or rebased, for any pass, `local` or global,
// `last_row` where row m is written to Params::last; `kept`: the chunked
// traceback's kept pass, rebased, at most kMaxKeptCols16 columns a lane;
// `save_rows`: every Params::save_every-th row's H and F kept, rebased,
// local without a last row or global; null for a combination it has no
// kernel for) and the one with a
// warp on one row at a time (striped_rows16.cu; local End::anywhere
// passes).
Kernel striped16_kernel(int cols, bool rebased, bool local, bool last_row, bool kept = false, bool save_rows = false);
Kernel striped_rows16_kernel(int cols);

}  // namespace gdp::pairwise::striped
