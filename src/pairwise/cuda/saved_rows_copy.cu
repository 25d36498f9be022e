#include "pairwise/cuda/saved_rows_copy.hpp"

#include <algorithm>
#include <span>
#include <thread>

namespace gdp::pairwise::striped {
namespace {

constexpr long long kStagingCells = 1 << 22;

// Cells first..last of a device row into `out`, through `staging`.
void copy_cells(const int* row, long long first, long long last, int* staging, std::span<int> out) {
  for (long long j = first; j <= last; j += kStagingCells) {
    const long long count = std::min(kStagingCells, last + 1 - j);
    GDP_CUDA_CHECK(cudaMemcpy(staging, row + j, static_cast<std::size_t>(count) * sizeof(int), cudaMemcpyDeviceToHost));
    std::copy(staging, staging + count, out.begin() + j);
  }
}

std::size_t copy_threads(long long rows) {
  return static_cast<std::size_t>(std::min<long long>(std::clamp<long long>(std::thread::hardware_concurrency(), 1, 8), rows));
}

}  // namespace

SavedRowsCopy::SavedRowsCopy(const int* h, const int* f, long long rows, long long n, int device, SavedRows& saved)
    : h_(h), f_(f), rows_(rows), n_(n), device_(device), saved_(saved), staging_(copy_threads(rows)) {
  for (auto& s : staging_) s.reserve(static_cast<std::size_t>(std::min(kStagingCells, n)), "cudaMallocHost (saved rows)");
}

void SavedRowsCopy::start(long long first, long long last) {
  wait();
  const long long threads = static_cast<long long>(staging_.size());
  for (long long c = 0; c < threads; ++c)
    copies_.push_back(std::async(std::launch::async, [this, c, threads, first, last] {
      GDP_CUDA_CHECK(cudaSetDevice(device_));
      int* staging = staging_[static_cast<std::size_t>(c)].get();
      for (long long k = 1 + c; k <= rows_; k += threads) {
        const long long at = (k - 1) * (n_ + 1);
        copy_cells(h_ + at, first, last, staging, saved_.h(k));
        copy_cells(f_ + at, first, last, staging, saved_.f(k));
      }
    }));
}

void SavedRowsCopy::wait() {
  std::vector<std::future<void>> copies;
  copies.swap(copies_);
  for (auto& c : copies) c.wait();  // every thread done before a failure is rethrown
  for (auto& c : copies) c.get();
}

}  // namespace gdp::pairwise::striped
