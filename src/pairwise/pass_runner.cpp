// One pass on the chosen backend. The GPU takes the large passes (a long
// local one spread over several GPUs where Options::devices lists them, a
// long global one chained over them); small ones (the leaves of
// Myers-Miller, short pairs) are faster on the CPU than a kernel launch
// and its transfers.
#include "core/progress.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/spread_pass.hpp"

namespace gdp::pairwise {

PassResult run_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, const Options& o,
                    LastRow last_row) {
  const std::int64_t cells = static_cast<std::int64_t>(q.size()) * static_cast<std::int64_t>(t.size());
  switch (o.backend) {
    case Backend::gpu:
      if (cells >= o.min_gpu_cells) {
        // One long pair over several GPUs, where its pass is local and saves nothing.
        const auto n = static_cast<std::int64_t>(t.size());
        if (spread_pass_takes(shape, last_row, n, o.devices.size()) && !o.checkpoint.wanted())
          return spread_pass(q, t, scheme, shape, o.devices, o.tuning, o.progress);
        if (!shape.local && chained_pass_takes(shape, last_row, n, o.devices.size()) && !o.checkpoint.wanted())
          if (auto r = chained_pass(q, t, scheme, shape, o.devices, o.tuning, o.progress)) return *r;
        return score_pass_gpu(q, t, scheme, shape, o.device, last_row, o.tuning, o.progress, &o.checkpoint);
      }
      [[fallthrough]];
    case Backend::cpu_openmp:
      return score_pass_tiled(q, t, scheme, shape, o.threads, last_row, o.progress, {.prune = o.tuning.prune});
    case Backend::cpu_scalar: break;
  }
  return score_pass_scalar(q, t, scheme, shape, last_row, o.progress);
}

}  // namespace gdp::pairwise
