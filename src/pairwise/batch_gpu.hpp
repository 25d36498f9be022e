#pragma once
// Database search on the GPU: one query at a time against many targets at
// once (cuda/inter_pair.cuh's kernels, cuda/batch_score.cu's host side).
// Plain C++, so that the engine's other files need no nvcc.
#include <cstdint>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// Targets longer than this stay with the long-pair engine.
inline constexpr std::size_t kBatchMaxTarget = std::size_t{1} << 16;

// The targets of a search that the batch kernels take, laid out on the
// device once for all queries (where they fit; otherwise streamed through
// in chunks for each query).
class BatchDatabase {
 public:
  // chunk_residues: the most residues a device chunk holds; 0 chooses from
  // the free device memory.
  BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme, int device,
                std::int64_t chunk_residues = 0);
  ~BatchDatabase();
  BatchDatabase(const BatchDatabase&) = delete;
  BatchDatabase& operator=(const BatchDatabase&) = delete;

  bool covers(std::size_t target) const { return covered_[target]; }
  // Whether the kernels take this query: a CUDA build, substitution scores
  // within int8, the query's profile within shared memory.
  bool can_score(Residues query) const;
  // The score pass of `query` against each covered target, into
  // results[target], as score_pass_scalar's: the same score, and with
  // `ends` the same end cell (else end_i and end_j are 0). Adds the cells
  // to `progress` as chunks finish. Throws RunError on a CUDA failure.
  void score(Residues query, const Shape& shape, bool ends, Progress* progress, std::vector<PassResult>& results);

  struct Chunks;  // the device side (batch_score.cu)
 private:
  std::vector<Residues> targets_;  // the covered ones, in input order
  std::vector<std::size_t> index_;  // their indices in the search's targets
  std::vector<bool> covered_;
  const ScoringScheme* scheme_;
  int device_;
  std::int64_t chunk_residues_;
  Chunks* chunks_ = nullptr;  // owned; batch_release_cuda frees it
};

// batch_score.cu's side (CUDA builds only).
bool batch_can_score_cuda(std::int64_t query_length, const ScoringScheme& scheme);
void batch_score_cuda(Residues query, const std::vector<Residues>& targets, const ScoringScheme& scheme,
                      const Shape& shape, bool ends, int device, std::int64_t chunk_residues, Progress* progress,
                      BatchDatabase::Chunks*& chunks, std::vector<PassResult>& results);
void batch_release_cuda(BatchDatabase::Chunks* chunks);

}  // namespace gdp::pairwise
