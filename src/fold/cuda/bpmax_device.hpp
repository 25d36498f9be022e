#pragma once
// BPMax's tables on the GPU (cuda/bpmax_gpu.cu) for the host side of the
// GPU engine (bpmax_gpu.cpp): plain C++, no CUDA types.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "fold/cpu/bpmax_tables.hpp"

namespace gdp::fold {

// Strand 2 padded to a multiple of the tile, as the device keeps it.
inline constexpr long long kBpmaxTile = 128;
inline long long bpmax_padded_length(long long n) { return (n + kBpmaxTile - 1) / kBpmaxTile * kBpmaxTile; }
// The row stride of a matrix of strand 2 (n bases, the window's span2 at
// most n - 1): the padded length, or where the band is narrower, the band
// and the 128 cells left of the diagonal the products read, in 16 bytes.
inline long long bpmax_row_stride(long long n, long long span2) {
  return std::min(bpmax_padded_length(n), (span2 + kBpmaxTile + 3) / 4 * 4);
}
// The diagonals of 128 x 128 blocks past the main one that meet the band:
// blocks (I, J) with J - I <= this have cells with j2 - i2 <= span2.
inline long long bpmax_band_blocks(long long n, long long span2) {
  return std::min(bpmax_padded_length(n) / kBpmaxTile - 1, (span2 + kBpmaxTile - 1) / kBpmaxTile);
}
// Its cells: P rows at that stride, and the row past the last.
inline long long bpmax_matrix_cells(long long n, long long span2) {
  const long long p = bpmax_padded_length(n);
  return p * bpmax_row_stride(n, span2) + p;
}

// The free memory of CUDA device `device`, in bytes (RunError when CUDA fails).
std::size_t bpmax_device_free_bytes(int device);

// Device time of the fill, and of its two kinds of kernel.
struct BpmaxFillTiming {
  double fill_seconds = 0;
  double product_seconds = 0;  // the max-plus products (cuda/bpmax_kernels.cuh: products)
  double finish_seconds = 0;   // the blocks' anti-diagonals (close_blocks)
  double product_terms = 0;    // the max-plus terms the products computed (128^3 a block product)
};

// F of the strands on a CUDA device, filled when constructed (RunError
// when CUDA fails or memory runs out), freed when destroyed.
class BpmaxDeviceTables {
 public:
  // The fill's progress is counted into `progress`, if set, as a part of
  // `share` units.
  BpmaxDeviceTables(const bpmax_cpu::Strands& s, int device, Progress* progress = nullptr, std::uint64_t share = 0);
  ~BpmaxDeviceTables();
  BpmaxDeviceTables(const BpmaxDeviceTables&) = delete;
  BpmaxDeviceTables& operator=(const BpmaxDeviceTables&) = delete;
  const BpmaxFillTiming& timing() const;
  // Tile (I, J) of matrix (i1, j1), kBpmaxTile^2 ints row by row, into
  // `to` (cells outside the window's band hold nothing of use).
  void copy_tile(long long i1, long long j1, long long I, long long J, int* to) const;
  // F(i1, i1 + span1, i2, i2 + span2) for every i1 and i2 of the strands,
  // at [i1 (n - span2) + i2]: the longest intervals the window allows.
  std::vector<int> longest() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gdp::fold
