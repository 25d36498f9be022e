// The engine's entry point: the score in linear memory, or an alignment.
#include "syntenic/syntenic.hpp"

#include <algorithm>
#include <string>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "syntenic/cpu/passes.hpp"
#include "syntenic/cuda/gpu_pass.hpp"

namespace gdp::syntenic {
namespace {

constexpr EnumNames<Ends, 2> ends_names{{{Ends::charged, "charged"}, {Ends::plain, "plain"}}};
constexpr EnumNames<Backend, 3> backend_names{
    {{Backend::cpu_scalar, "cpu-scalar"}, {Backend::cpu_openmp, "cpu-openmp"}, {Backend::gpu, "gpu"}}};

// Pairs up to this many cells are aligned through the full matrix of
// direction bits (a byte a cell); larger ones in linear memory.
constexpr std::int64_t kFullMatrixCells = std::int64_t{1} << 24;

}  // namespace

Ends parse_ends(std::string_view name) { return parse_enum(ends_names, name, "ends rule"); }
std::string_view to_string(Ends e) { return name_of(ends_names, e); }
std::string_view to_string(Backend b) { return name_of(backend_names, b); }

void check_score_range(std::int64_t m, std::int64_t n, const ScoringScheme& s, const Options& o) {
  if (o.block_penalty < 0 || o.block_penalty > max_block_penalty)
    throw InputError("--block-penalty must be 0 to " + std::to_string(max_block_penalty) + ", not " +
                     std::to_string(o.block_penalty));
  // Every S and H lies between -d and min(m, n) times the largest score;
  // D and I stay above -d - (open + extend), the boundary's gap runs are
  // held at minus infinity.
  const double bound = static_cast<double>(std::min(m, n)) * s.max_abs_score() + 2.0 * o.block_penalty +
                       2.0 * (s.gap_open + s.gap_extend);
  if (bound >= static_cast<double>(1 << 29))
    throw InputError("sequences of " + std::to_string(m) + " and " + std::to_string(n) +
                     " letters with these scores could overflow 32-bit scores; use smaller scores or penalties");
}

Alignment align(Residues a, Residues b, const ScoringScheme& scheme, const Options& o) {
  const Costs costs = costs_of(scheme, o);
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  const std::int64_t cells = (m + 1) * (n + 1);
  // One pair over several GPUs: its score pass chained over them, or its
  // alignment's passes two at a time; the chunked traceback on the first.
  const bool spread = o.devices.size() > 1;
  const int device = spread ? o.devices[0] : o.device;
  if (o.score_only) {
    LastCell last;
    if (o.backend == Backend::gpu && m * n >= o.min_gpu_cells && m * n > 0) {
      last = spread ? score_pass_gpus(a, b, scheme, costs, o.devices, o.tuning, o.progress)
                    : score_pass_gpu(a, b, scheme, costs, device, o.tuning, o.progress);
    } else if (o.backend == Backend::cpu_scalar) {
      last = score_scalar(a, b, scheme, costs, o.progress);
    } else {
      last = score_tiled(a, b, scheme, costs, o.threads, o.progress);
    }
    return {final_score(costs, last.s, last.h), m, n, {}};
  }
  // A full alignment counts twice its cells in the progress: the chunked
  // traceback's score pass, then its walk; or the linear-space alignment,
  // whose passes take about 2 m n cells.
  const auto pair_cells = static_cast<std::uint64_t>(m * n);
  if (o.backend == Backend::gpu && m * n >= o.min_gpu_cells && m * n > 0) {
    Progress traceback(o.progress, pair_cells, 0);
    if (auto chunked = align_gpu_chunked(a, b, scheme, costs, device, o.progress, &traceback)) return *chunked;
    traceback.drop();  // declined before any pass: the alignment below counts its own
  }
  if (cells > kFullMatrixCells) {
    Progress linear(o.progress, 2 * pair_cells, 2 * pair_cells);
    Options counted = o;
    counted.progress = &linear;
    return align_linear(a, b, scheme, costs, counted);
  }
  Alignment out = align_full_matrix(a, b, scheme, costs);
  if (o.progress) o.progress->add(2 * pair_cells);
  return out;
}

}  // namespace gdp::syntenic
