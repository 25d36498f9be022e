// The engine's entry point: the score in O(|b| |c|) memory, or an
// alignment.
#include "align3/align3.hpp"

#include "align3/cpu/passes.hpp"
#include "align3/cuda/gpu_pass.hpp"
#include "core/enum_names.hpp"

namespace gdp::align3 {
namespace {

constexpr EnumNames<Backend, 3> backend_names{
    {{Backend::cpu_scalar, "cpu-scalar"}, {Backend::cpu_openmp, "cpu-openmp"}, {Backend::gpu, "gpu"}}};

// Cubes up to this many cells align through the full cube of moves (a byte
// a cell); larger ones in O(|b| |c|) memory.
constexpr long long kFullCubeCells = 1LL << 26;

}  // namespace

std::string_view to_string(Backend b) { return name_of(backend_names, b); }

Alignment align(Residues a, Residues b, Residues c, const ScoringScheme& scheme, const Options& o) {
  const int threads = o.backend == Backend::cpu_scalar ? 1 : o.threads;
  auto cells_of = [](Residues x, Residues y, Residues z) {
    return static_cast<long long>(x.size() + 1) * static_cast<long long>(y.size() + 1) *
           static_cast<long long>(z.size() + 1);
  };
  // A pass over a cube: the GPU's where it pays, else the CPU threads'.
  const LayerPass layer = [&](Residues x, Residues y, Residues z) {
    if (o.backend == Backend::gpu && cells_of(x, y, z) >= o.min_gpu_cells)
      return last_layer_gpu(x, y, z, scheme, o.gap, o.device);
    return last_layer(x, y, z, scheme, o.gap, threads);
  };
  if (o.score_only) {
    Alignment out;
    out.score = o.backend == Backend::gpu || threads > 1 ? layer(a, b, c).back() : score_scalar(a, b, c, scheme, o.gap);
    return out;
  }
  if (cells_of(a, b, c) <= kFullCubeCells) return align_full_cube(a, b, c, scheme, o.gap);
  return align_linear(a, b, c, scheme, o.gap, layer);
}

}  // namespace gdp::align3
