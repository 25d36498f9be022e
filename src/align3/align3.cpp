// The engine's entry point: the score in O(|b| |c|) memory, or an
// alignment.
#include "align3/align3.hpp"

#include <algorithm>

#include "align3/cpu/passes.hpp"
#include "align3/cuda/gpu_pass.hpp"
#include "core/enum_names.hpp"

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
  const bool on_gpu = o.backend == Backend::gpu && cells_of(a, b, c) >= o.min_gpu_cells;
  const LayerPass cpu = [&](Residues x, Residues y, Residues z) { return last_layer(x, y, z, scheme, o.gap, threads); };
  if (o.score_only) {
    Alignment out;
    out.score = on_gpu        ? gpu_layer_pass(scheme, o.gap, o.device)(a, b, c).back()
                : threads > 1 ? cpu(a, b, c).back()
                              : score_scalar(a, b, c, scheme, o.gap);
    return out;
  }
  if (!on_gpu)
    return threads == 1 && cells_of(a, b, c) <= kFullCubeCells
               ? align_full_cube(a, b, c, scheme, o.gap)
               : align_linear(a, b, c, scheme, o.gap, cpu, kCpuLeafCells, threads);
  return align_linear(a, b, c, scheme, o.gap, gpu_split_pass(scheme, o.gap, o.device),
                      gpu_chain_pass(scheme, o.gap, o.device, o.gpu_face_bytes), kGpuLeafCells, threads);
}

}  // namespace gdp::align3
