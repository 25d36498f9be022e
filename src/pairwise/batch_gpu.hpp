#pragma once
// Database search on the GPU: queries against many targets at once
// (cuda/inter_pair.cuh's kernels, cuda/batch_score.cu's host side).
// Plain C++, so that the engine's other files need no nvcc.
#include <cstdint>
#include <functional>
#include <future>
#include <span>
#include <vector>

#include "core/scoring.hpp"
#include "core/timer.hpp"
#include "pairwise/batch_layout.hpp"
#include "pairwise/pairwise.hpp"
#include "pairwise/shape.hpp"

namespace gdp::pairwise {

// What tests and benchmarks may force in a database search (gpu-sw's
// --tune db_chunk and db_rows); the defaults choose.
struct SearchTuning {
  // > 0: at most this many target residues a device chunk, so that a
  // database that would fit is streamed; 0: from the free device memory.
  std::int64_t chunk_residues = 0;
  // One of batch_rows16() (else BatchDatabase throws
  // std::invalid_argument): the 16-bit kernel's query rows a lane; 0: by
  // the query's length.
  int rows16 = 0;
};

// A query's score passes against every target: results[target].
using BatchDone = std::function<void(std::size_t query, const std::vector<PassResult>& results)>;

// The targets of a search that the batch kernels take, laid out on the
// device once for all queries where they fit; otherwise streamed through in
// chunks, each chunk once for all the queries of a call. On several devices
// each takes a share of the targets of about equal residues
// (batch::split_by_residues), searched side by side, one host thread a
// device.
class BatchDatabase {
 public:
  // `targets` and `scheme` must outlive it; `devices`: at least one.
  // Sorts the targets by length, while other threads make ready what each
  // device's first upload and kernel need (batch_stage_cuda).
  BatchDatabase(const std::vector<Residues>& targets, const ScoringScheme& scheme, std::vector<int> devices,
                SearchTuning tuning = {});
  ~BatchDatabase();
  BatchDatabase(const BatchDatabase&) = delete;
  BatchDatabase& operator=(const BatchDatabase&) = delete;

  // The targets it takes: those of up to batch::kMaxTarget letters
  // (longer ones stay with the long-pair engine).
  bool covers(std::size_t target) const { return (*targets_)[target].size() <= batch::kMaxTarget; }
  bool covers_all() const { return covered_ == targets_->size(); }
  std::uint64_t covered_residues() const { return covered_residues_; }
  std::uint64_t all_residues() const { return all_residues_; }
  // Whether the kernels take this query: a CUDA build, substitution scores
  // within int8, the query's profile within shared memory.
  bool can_score(Residues query) const;
  // The score passes of each query against each covered target, as
  // score_pass_scalar's: the same score, and with `ends` the same end cell
  // (else end_i and end_j are 0). done(k, results) gets query k's, by the
  // search's target index (those of the targets not covered unspecified), as
  // soon as they are all known (on every device), which is while the next
  // query's kernels run: not always in query order (a query with 16-bit
  // scores to redo comes after the others), and perhaps on another thread,
  // one call at a time. Adds the cells to `progress` as chunks finish.
  // Throws RunError on a CUDA failure.
  void score(std::span<const Residues> queries, const Shape& shape, bool ends, Progress* progress,
             const BatchDone& done);

  struct Chunks;  // the device side (batch_score.cu)
 private:
  // A device's targets, and what stays on it.
  struct Share {
    int device = 0;
    batch::ByLength sorted;
    Chunks* chunks = nullptr;   // owned; batch_release_cuda frees it
    std::future<void> staged;   // batch_stage_cuda's
  };
  void score_share(Share& share, std::span<const Residues> queries, const Shape& shape, bool ends,
                   Progress* progress, const BatchDone& done);

  const std::vector<Residues>* targets_;
  std::size_t covered_ = 0;
  std::uint64_t covered_residues_ = 0, all_residues_ = 0;
  std::vector<Share> shares_;
  Timer since_made_;
  double counted_ = 0;  // of since_made_, in GpuStats::database_search_seconds
  const ScoringScheme* scheme_;
  SearchTuning tuning_;
};

// Full alignments of many pairs at once on the GPU (cuda/inter_align.cuh):
// each pair's whole matrix with its direction bits, then a walk back from
// its end cell. The oracle's score and end cell; the path an optimal one
// (among ties, perhaps another than the CPU's, and a local alignment's
// start with it). Sets the alignments of the pairs it takes (non-empty
// sequences whose matrix fits a share of the device's memory) and returns
// the others. Adds twice each pair's cells to `progress` as batches
// finish. batch_bytes: a batch's device memory at most (0: from the free
// memory). Throws RunError on a CUDA failure, or without CUDA.
// Where batch_align's time went, for --verbose.
struct BatchAlignTimes {
  std::size_t pairs = 0, batches = 0;
  double pack = 0, upload = 0, kernel = 0, download = 0, finish = 0;  // seconds
};
bool batch_can_align(const ScoringScheme& scheme);
std::vector<Hit*> batch_align(std::span<Hit* const> hits, const std::vector<Residues>& queries,
                              const std::vector<Residues>& targets, const ScoringScheme& scheme, Mode mode, int device,
                              int threads, Progress* progress, std::size_t batch_bytes = 0);

// Where a call of BatchDatabase::score spent its time, for --verbose: from
// its start, until the first kernel ran, while kernels ran (the union of
// their spans), and in all.
struct BatchScoreTimes {
  double first_kernel = 0, kernels = 0, total = 0;  // seconds
};

// The 16-bit kernel's choices of query rows a lane (SearchTuning::rows16):
// empty without CUDA. The [gpu] tests run each against the oracle.
std::span<const int> batch_rows16();

// batch_score.cu's and batch_align.cu's side (CUDA builds only).
bool batch_can_score_cuda(std::int64_t query_length, const ScoringScheme& scheme);
std::span<const int> batch_rows16_cuda();
// Makes ready, from any thread, what a search's first upload and kernel on
// `device` wait for: its side there (`chunks`, with the page-locked buffer
// the letters go up through, and `threads` host threads to lay out the
// letters and file the results on), and the 16-bit kernel loaded (CUDA
// loads a kernel at its first use).
void batch_stage_cuda(int device, int threads, BatchDatabase::Chunks*& chunks);
void batch_score_cuda(std::span<const Residues> queries, const std::vector<Residues>& targets,
                      const batch::ByLength& sorted, const ScoringScheme& scheme, const Shape& shape, bool ends,
                      int device, const SearchTuning& tuning, Progress* progress, BatchDatabase::Chunks*& chunks,
                      const BatchDone& done, BatchScoreTimes& times);
void batch_release_cuda(BatchDatabase::Chunks* chunks, int device);
bool batch_can_align_cuda(const ScoringScheme& scheme);
std::vector<Hit*> batch_align_cuda(std::span<Hit* const> hits, const std::vector<Residues>& queries,
                                   const std::vector<Residues>& targets, const ScoringScheme& scheme, Mode mode,
                                   int device, int threads, Progress* progress, std::size_t batch_bytes,
                                   BatchAlignTimes& times);

}  // namespace gdp::pairwise
