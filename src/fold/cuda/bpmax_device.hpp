#pragma once
// BPMax's tables on the GPU (cuda/bpmax_gpu.cu) for the host side of the
// GPU engine (bpmax_gpu.cpp): plain C++, no CUDA types.
#include <cstddef>
#include <memory>

#include "fold/cpu/bpmax_tables.hpp"

namespace gdp::fold {

// Strand 2 padded to a multiple of the tile, as the device keeps it.
inline constexpr long long kBpmaxTile = 128;
inline long long bpmax_padded_length(long long n) { return (n + kBpmaxTile - 1) / kBpmaxTile * kBpmaxTile; }

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
  BpmaxDeviceTables(const bpmax_cpu::Strands& s, int device);
  ~BpmaxDeviceTables();
  BpmaxDeviceTables(const BpmaxDeviceTables&) = delete;
  BpmaxDeviceTables& operator=(const BpmaxDeviceTables&) = delete;
  const BpmaxFillTiming& timing() const;
  // Tile (I, J) of matrix (i1, j1), kBpmaxTile^2 ints row by row, into `to`.
  void copy_tile(long long i1, long long j1, long long I, long long J, int* to) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gdp::fold
