// BatchDatabase: which targets the batch kernels take, and the calls into
// batch_score.cu where this build has CUDA.
#include "pairwise/batch_gpu.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "pairwise/cuda/gpu_pass.hpp"

namespace gdp::pairwise {

BatchDatabase::BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme, int device,
                             SearchTuning tuning)
    : targets_(&targets), scheme_(&scheme), device_(device), tuning_(tuning) {
  const auto rows = batch_rows16();
  if (tuning.rows16 != 0 && std::find(rows.begin(), rows.end(), tuning.rows16) == rows.end())
    throw std::invalid_argument("BatchDatabase: no 16-bit kernel of " + std::to_string(tuning.rows16) + " rows a lane");
  if constexpr (have_cuda) staged_ = std::async(std::launch::async, batch_stage_cuda, device);
  sorted_ = batch::by_length(targets);
  covered_ = sorted_.index.size() + sorted_.empty.size();
  covered_residues_ = sorted_.residues;
}

BatchDatabase::~BatchDatabase() {
  if constexpr (have_cuda) batch_release_cuda(chunks_);
}

bool BatchDatabase::can_score(Residues query) const {
  if constexpr (have_cuda)
    return covered_ > 0 && batch_can_score_cuda(static_cast<std::int64_t>(query.size()), *scheme_);
  else
    return false;
}

void BatchDatabase::score(std::span<const Residues> queries, const Shape& shape, bool ends, Progress* progress,
                          const BatchDone& done) {
  if constexpr (have_cuda) {
    if (staged_.valid()) staged_.get();
    BatchScoreTimes t;
    batch_score_cuda(queries, *targets_, sorted_, *scheme_, shape, ends, device_, tuning_, progress, chunks_,
                     done, t);
    spdlog::debug("GPU database search: {} queries against {} targets; milliseconds: first kernel at {:.1f}, kernels "
                  "running {:.1f}, in all {:.1f}",
                  queries.size(), covered_, 1e3 * t.first_kernel, 1e3 * t.kernels, 1e3 * t.total);
    const double now = since_made_.seconds();
    gpu_stats_counters().database_search_seconds += now - counted_;
    counted_ = now;
  } else {
    throw RunError(no_cuda_message);
  }
}

std::span<const int> batch_rows16() {
  if constexpr (have_cuda)
    return batch_rows16_cuda();
  else
    return {};
}

bool batch_can_align(const ScoringScheme& scheme) {
  if constexpr (have_cuda)
    return batch_can_align_cuda(scheme);
  else
    return false;
}

std::vector<Hit*> batch_align(std::span<Hit* const> hits, const std::vector<Residues>& queries,
                              const std::vector<Residues>& targets, const ScoringScheme& scheme, Mode mode, int device,
                              int threads, Progress* progress, std::size_t batch_bytes) {
  if constexpr (have_cuda) {
    BatchAlignTimes t;
    std::vector<Hit*> left =
        batch_align_cuda(hits, queries, targets, scheme, mode, device, threads, progress, batch_bytes, t);
    spdlog::debug("GPU batch alignment: {} pairs in {} batches; seconds: packing {:.3f}, upload {:.3f}, kernel {:.3f}, "
                  "download {:.3f}, CIGARs {:.3f}",
                  t.pairs, t.batches, t.pack, t.upload, t.kernel, t.download, t.finish);
    return left;
  } else {
    throw RunError(no_cuda_message);
  }
}

}  // namespace gdp::pairwise
