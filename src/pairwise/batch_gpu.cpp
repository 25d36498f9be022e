// BatchDatabase: which targets the batch kernels take, and the calls into
// batch_score.cu where this build has CUDA.
#include "pairwise/batch_gpu.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/worker_thread.hpp"
#include "pairwise/cuda/gpu_pass.hpp"

namespace gdp::pairwise {

BatchDatabase::BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme,
                             std::vector<int> devices, SearchTuning tuning)
    : targets_(&targets), scheme_(&scheme), tuning_(tuning) {
  const auto rows = batch_rows16();
  if (tuning.rows16 != 0 && std::find(rows.begin(), rows.end(), tuning.rows16) == rows.end())
    throw std::invalid_argument("BatchDatabase: no 16-bit kernel of " + std::to_string(tuning.rows16) + " rows a lane");
  if (devices.empty()) throw std::invalid_argument("BatchDatabase: no device");
  // Each device's host side on its share of the cores.
  shares_.resize(devices.size());
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = std::clamp(cores / static_cast<int>(devices.size()), 1, batch::layout_threads());
  for (std::size_t d = 0; d < devices.size(); ++d) {
    shares_[d].device = devices[d];
    if constexpr (have_cuda)
      shares_[d].staged =
          std::async(std::launch::async, batch_stage_cuda, devices[d], threads, std::ref(shares_[d].chunks));
  }
  batch::ByLength sorted = batch::by_length(targets);
  covered_ = sorted.index.size() + sorted.empty.size();
  covered_residues_ = sorted.residues;
  all_residues_ = sorted.all_residues;
  if (shares_.size() == 1) {
    shares_.front().sorted = std::move(sorted);
  } else {
    std::vector<batch::ByLength> split = batch::split_by_residues(sorted, shares_.size());
    for (std::size_t d = 0; d < shares_.size(); ++d) shares_[d].sorted = std::move(split[d]);
  }
}

BatchDatabase::~BatchDatabase() {
  for (Share& share : shares_) {
    if (share.staged.valid()) share.staged.wait();
    if constexpr (have_cuda) batch_release_cuda(share.chunks, share.device);
  }
}

bool BatchDatabase::can_score(Residues query) const {
  if constexpr (have_cuda)
    return covered_ > 0 && batch_can_score_cuda(static_cast<std::int64_t>(query.size()), *scheme_);
  else
    return false;
}

void BatchDatabase::score_share(Share& share, std::span<const Residues> queries, const Shape& shape, bool ends,
                                Progress* progress, const BatchDone& done) {
  if constexpr (have_cuda) {
    if (share.staged.valid()) share.staged.get();
    BatchScoreTimes t;
    batch_score_cuda(queries, *targets_, share.sorted, *scheme_, shape, ends, share.device, tuning_, progress,
                     share.chunks, done, t);
    spdlog::debug("GPU {} database search: {} queries against {} targets; milliseconds: first kernel at {:.1f}, "
                  "kernels running {:.1f}, in all {:.1f}",
                  share.device, queries.size(), share.sorted.index.size() + share.sorted.empty.size(),
                  1e3 * t.first_kernel, 1e3 * t.kernels, 1e3 * t.total);
  } else {
    throw RunError(no_cuda_message);
  }
}

void BatchDatabase::score(std::span<const Residues> queries, const Shape& shape, bool ends, Progress* progress,
                          const BatchDone& done) {
  if (shares_.size() == 1) {
    score_share(shares_.front(), queries, shape, ends, progress, done);
  } else {
    // Each device files its targets' results into the query's merged
    // vector; the last to do so hands it to one thread that calls `done`,
    // so that the devices' threads go on at once.
    std::mutex merging;
    std::vector<std::vector<PassResult>> merged(queries.size());
    std::vector<std::size_t> arrived(queries.size(), 0);
    WorkerThread<std::size_t> handing([&](std::vector<std::size_t>& ready) {
      for (const std::size_t k : ready) {
        done(k, merged[k]);
        std::vector<PassResult>().swap(merged[k]);
      }
    });
    auto run = [&](Share& share) {
      score_share(share, queries, shape, ends, progress, [&](std::size_t k, const std::vector<PassResult>& results) {
        std::vector<PassResult>* mine = nullptr;
        {
          const std::lock_guard lock(merging);
          if (merged[k].empty()) merged[k].resize(targets_->size());
          mine = &merged[k];
        }
        for (const std::uint32_t t : share.sorted.index) (*mine)[t] = results[t];
        for (const std::int64_t t : share.sorted.empty) (*mine)[static_cast<std::size_t>(t)] = results[static_cast<std::size_t>(t)];
        const std::lock_guard lock(merging);
        if (++arrived[k] == shares_.size()) handing.push(k);
      });
    };
    std::vector<std::future<void>> searches;
    for (Share& share : shares_) searches.push_back(std::async(std::launch::async, run, std::ref(share)));
    for (auto& s : searches) s.wait();  // every device done before a failure is rethrown
    for (auto& s : searches) s.get();
    handing.finish();
  }
  const double now = since_made_.seconds();
  count_gpu_stats([&](GpuStats& s) { s.database_search_seconds += now - counted_; });
  counted_ = now;
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
