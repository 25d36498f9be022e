#pragma once
// A score pass's saved rows, from the device into `SavedRows` as
// score_pass_scalar saves them, a piece of the target's columns at a time:
// each piece's columns go while the next piece's kernel runs, so that only
// the last piece's are left when the pass ends (striped_score.cu).
#include <future>
#include <vector>

#include "core/cuda_check.hpp"
#include "pairwise/saved_rows.hpp"

namespace gdp::pairwise::striped {

class SavedRowsCopy {
 public:
  // The device's rows: row k's columns 1..n at (k - 1) * (n + 1) + j of h
  // and f (column 0 left out), for `rows` rows, into `saved`, allocated
  // for them (several copies may fill columns of one `saved`).
  SavedRowsCopy(const int* h, const int* f, long long rows, long long n, int device, SavedRows& saved);
  SavedRowsCopy(const SavedRowsCopy&) = delete;
  SavedRowsCopy& operator=(const SavedRowsCopy&) = delete;

  // Columns first..last of every row, in the background, once the copy
  // started before has ended.
  void start(long long first, long long last);
  // Waits for the copy under way; rethrows its failure. (Destroying the
  // copy waits too.)
  void wait();

 private:
  const int *h_, *f_;
  long long rows_, n_;
  int device_;
  SavedRows& saved_;
  // A page-locked buffer a thread (the bus's rate), made once, as freeing
  // one waits for the kernel under way; several threads, as writing fresh
  // host memory is bound by its page faults. Declared before the copies,
  // which use them.
  std::vector<cuda::PinnedArray<int>> staging_;
  std::vector<std::future<void>> copies_;
};

}  // namespace gdp::pairwise::striped
