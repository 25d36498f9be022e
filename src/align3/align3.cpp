// The engine's entry point: the score in O(|b| |c|) memory, or an
// alignment.
#include "align3/align3.hpp"

#include "align3/cpu/passes.hpp"
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
  if (o.score_only) {
    Alignment out;
    out.score = threads > 1 ? score_wavefront(a, b, c, scheme, o.gap, threads) : score_scalar(a, b, c, scheme, o.gap);
    return out;
  }
  const long long cells = static_cast<long long>(a.size() + 1) * static_cast<long long>(b.size() + 1) *
                          static_cast<long long>(c.size() + 1);
  if (cells <= kFullCubeCells) return align_full_cube(a, b, c, scheme, o.gap);
  return align_linear(a, b, c, scheme, o.gap, threads);
}

}  // namespace gdp::align3
