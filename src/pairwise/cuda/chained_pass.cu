// One pair's score pass chained over several GPUs (gpu_pass.hpp:
// chained_pass, which calls chained_striped_pass here): its places run
// through chain_places.cuh, each place's run is striped_score.cu's with its
// ChainLink, and the places' results merged.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "pairwise/cuda/chain_places.cuh"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/gotoh_cell.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise {

std::optional<PassResult> chained_striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                               const std::vector<int>& devices, GpuTuning tuning, Progress* progress,
                                               SavedRows* saved, std::vector<long long>* cuts) {
  const auto m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  const std::size_t places = devices.size();
  if (!chained_pass_takes(shape, {}, n, places) || m == 0)
    throw std::logic_error("chained_striped_pass: a pass it does not take");
  // No place may stop early (its neighbours wait on it): the kernel that
  // holds any score, or 32 bits where the scoring leaves it too few rows.
  if (striped::rebase16_of(gap_costs(scheme).open_extend, scheme.max_abs_score(), 8).interval > 0)
    tuning.kernel16 = Kernel16::rebased;
  else
    tuning.bits = 32;
  if (saved) saved->allocate(m / saved->every, n + 1);

  const auto results = striped::run_chain<GotohEdge, PassResult>(
      devices, m,
      [&](std::size_t k, const striped::ChainLink<GotohEdge>& link) {
        return striped_pass_chained(q, t, scheme, shape, devices[k], tuning, progress, saved, link);
      },
      cuts);
  if (!results) {
    if (saved) saved->every = 0;
    return std::nullopt;
  }
  if (shape.end == End::corner)  // the place of the last piece has the corner
    return (*results)[(cuts->size() - 2) % places];
  PassResult best{0, 0, 0};
  for (const PassResult& r : *results) keep_better(best, r);
  return best;
}

}  // namespace gdp::pairwise
