#pragma once
// Database search on the GPU: queries against many targets at once
// (cuda/inter_pair.cuh's kernels, cuda/batch_score.cu's host side).
// Plain C++, so that the engine's other files need no nvcc.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/batch_layout.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// A query's score passes against every target: results[target].
using BatchDone = std::function<void(std::size_t query, const std::vector<PassResult>& results)>;

// The targets of a search that the batch kernels take, laid out on the
// device once for all queries where they fit; otherwise streamed through in
// chunks, each chunk once for all the queries of a call.
class BatchDatabase {
 public:
  // chunk_residues: the most residues a device chunk holds; 0 chooses from
  // the free device memory. `targets` and `scheme` must outlive it.
  BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme, int device,
                std::int64_t chunk_residues = 0);
  ~BatchDatabase();
  BatchDatabase(const BatchDatabase&) = delete;
  BatchDatabase& operator=(const BatchDatabase&) = delete;

  // The targets it takes: those of up to batch::kMaxTarget letters
  // (longer ones stay with the long-pair engine).
  bool covers(std::size_t target) const { return (*targets_)[target].size() <= batch::kMaxTarget; }
  bool covers_all() const { return covered_ == targets_->size(); }
  std::uint64_t covered_residues() const { return covered_residues_; }
  // Whether the kernels take this query: a CUDA build, substitution scores
  // within int8, the query's profile within shared memory.
  bool can_score(Residues query) const;
  // The score passes of each query against each covered target, as
  // score_pass_scalar's: the same score, and with `ends` the same end cell
  // (else end_i and end_j are 0). done(k, results) gets query k's, by the
  // search's target index (those of the targets not covered unspecified), as
  // soon as they are all known, which is while the next query's kernels
  // run: not always in query order (a query with 16-bit scores to redo comes
  // after the others). Adds the cells to `progress` as chunks finish.
  // Throws RunError on a CUDA failure.
  void score(std::span<const Residues> queries, const Shape& shape, bool ends, Progress* progress,
             const BatchDone& done);

  struct Chunks;  // the device side (batch_score.cu)
 private:
  const std::vector<Residues>* targets_;
  std::size_t covered_ = 0;
  std::uint64_t covered_residues_ = 0;
  const ScoringScheme* scheme_;
  int device_;
  std::int64_t chunk_residues_;
  Chunks* chunks_ = nullptr;  // owned; batch_release_cuda frees it
};

// batch_score.cu's side (CUDA builds only).
bool batch_can_score_cuda(std::int64_t query_length, const ScoringScheme& scheme);
void batch_score_cuda(std::span<const Residues> queries, const std::vector<Residues>& targets,
                      const ScoringScheme& scheme, const Shape& shape, bool ends, int device,
                      std::int64_t chunk_residues, Progress* progress, BatchDatabase::Chunks*& chunks,
                      const BatchDone& done);
void batch_release_cuda(BatchDatabase::Chunks* chunks);

}  // namespace gdp::pairwise
