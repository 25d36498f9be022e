// BatchDatabase: which targets the batch kernels take, and the calls into
// batch_score.cu where this build has CUDA.
#include "pairwise/batch_gpu.hpp"

#include "core/build.hpp"
#include "core/error.hpp"

namespace gdp::pairwise {

BatchDatabase::BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme, int device,
                             std::int64_t chunk_residues)
    : covered_(targets.size(), false), scheme_(&scheme), device_(device), chunk_residues_(chunk_residues) {
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (targets[t].size() <= kBatchMaxTarget) {
      covered_[t] = true;
      targets_.push_back(targets[t]);
      index_.push_back(t);
    }
}

BatchDatabase::~BatchDatabase() {
  if constexpr (have_cuda) batch_release_cuda(chunks_);
}

bool BatchDatabase::can_score(Residues query) const {
  if constexpr (have_cuda)
    return !targets_.empty() && batch_can_score_cuda(static_cast<std::int64_t>(query.size()), *scheme_);
  else
    return false;
}

void BatchDatabase::score(Residues query, const Shape& shape, bool ends, Progress* progress,
                          std::vector<PassResult>& results) {
  if constexpr (have_cuda) {
    std::vector<PassResult> mine(targets_.size());
    batch_score_cuda(query, targets_, *scheme_, shape, ends, device_, chunk_residues_, progress, chunks_, mine);
    for (std::size_t k = 0; k < mine.size(); ++k) results[index_[k]] = mine[k];
  } else {
    throw RunError(no_cuda_message);
  }
}

}  // namespace gdp::pairwise
