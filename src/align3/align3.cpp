// The engine's entry point: the score in O(|b| |c|) memory, or an
// alignment.
#include "align3/align3.hpp"

#include <algorithm>

#include "align3/cpu/passes.hpp"
#include "align3/cuda/gpu_pass.hpp"
#include "core/enum_names.hpp"
#include "core/progress.hpp"

namespace gdp::align3 {
namespace {

constexpr EnumNames<Backend, 3> backend_names{
    {{Backend::cpu_scalar, "cpu-scalar"}, {Backend::cpu_openmp, "cpu-openmp"}, {Backend::gpu, "gpu"}}};

// On one thread, cubes up to this many cells align through the full cube
// of moves (a byte a cell); larger ones, and every one on several threads,
// in O(|b| |c|) memory, its parts of up to kCpuLeafCells through the full
// cube (bench/RESULTS.md, "gpu-align3 --cpu on several threads").
constexpr long long kFullCubeCells = 1LL << 26;
constexpr long long kCpuLeafCells = 1LL << 18;

// An alignment on the GPU cuts the cube at the chain of its three-phase
// traceback, or divides it, down to parts of this many cells, each through
// the full cube on the CPU threads; every pass over a larger part runs on
// the GPU (bench/RESULTS.md, "gpu-align3, a warp a chunk").
constexpr long long kGpuLeafCells = 1LL << 16;

}  // namespace

std::string_view to_string(Backend b) { return name_of(backend_names, b); }

Alignment align(Residues a, Residues b, Residues c, const ScoringScheme& scheme, const Options& o) {
  const int threads = o.backend == Backend::cpu_scalar ? 1 : o.threads;
  auto cells_of = [](Residues x, Residues y, Residues z) {
    return static_cast<long long>(x.size() + 1) * static_cast<long long>(y.size() + 1) *
           static_cast<long long>(z.size() + 1);
  };
  const long long cube = cells_of(a, b, c);
  const bool on_gpu = o.backend == Backend::gpu && cube >= o.min_gpu_cells;
  // This cube's share of the progress: its cells for the score, twice them
  // for an alignment; the passes count their cells into it as they go, an
  // alignment's about 4/3 of the cube (the division's levels each a quarter
  // of the one before, for a path near the diagonal).
  const auto share = static_cast<std::uint64_t>(cube) * (o.score_only ? 1 : 2);
  Progress progress(o.progress, share, o.score_only ? share : static_cast<std::uint64_t>(cube) / 3 * 4);
  const LayerPass cpu = [&](Residues x, Residues y, Residues z) {
    return last_layer(x, y, z, scheme, o.gap, threads, &progress);
  };
  const bool on_two = on_gpu && o.devices.size() >= 2;
  const int device = o.devices.empty() ? o.device : o.devices.front();
  if (o.score_only) {
    Alignment out;
    if (on_two && a.size() >= 2) {  // the best path through the middle layer
      const std::size_t mid = a.size() / 2;
      const SplitPoint at = gpu_split_pass_on_two(scheme, o.gap, device, o.devices[1])(a.first(mid), a.subspan(mid), b, c);
      out.score = static_cast<int>(at.sum);
      return out;
    }
    out.score = on_gpu        ? gpu_layer_pass(scheme, o.gap, device)(a, b, c).back()
                : threads > 1 ? cpu(a, b, c).back()
                              : score_scalar(a, b, c, scheme, o.gap, &progress);
    return out;
  }
  if (!on_gpu)
    return threads == 1 && cube <= kFullCubeCells
               ? align_full_cube(a, b, c, scheme, o.gap)
               : align_linear(a, b, c, scheme, o.gap, cpu, kCpuLeafCells, threads);
  // The GPU's passes, each counted when it is done.
  const SplitPass split = [&, pass = on_two ? gpu_split_pass_on_two(scheme, o.gap, device, o.devices[1])
                                            : gpu_split_pass(scheme, o.gap, device)](Residues top, Residues bottom,
                                                                                     Residues y, Residues z) {
    const SplitPoint at = pass(top, bottom, y, z);
    progress.add(static_cast<std::uint64_t>(top.size() + bottom.size()) * (y.size() + 1) * (z.size() + 1));
    return at;
  };
  const ChainPass chain = [&, pass = gpu_chain_pass(scheme, o.gap, device, o.gpu_face_bytes)](Residues x, Residues y,
                                                                                                 Residues z) {
    auto points = pass(x, y, z);
    if (points) progress.add(static_cast<std::uint64_t>(cells_of(x, y, z)));
    return points;
  };
  return align_linear(a, b, c, scheme, o.gap, split, chain, kGpuLeafCells, threads);
}

}  // namespace gdp::align3
