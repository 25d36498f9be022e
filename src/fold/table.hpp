#pragma once
// The filled Nussinov matrix, shared by the CPU engines (cpu/nussinov.cpp),
// the GPU engine (cuda/nussinov_gpu.cu) and the traceback.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/host_device.hpp"
#include "fold/fold.hpp"

namespace gdp::fold {

// C(i, j) for j > i (0-based, inclusive); C(i, j) = 0 for j <= i. Two
// layouts, neither zeroed when made:
//   - c: every cell, c[i * n + j] (the CPU engines; CPU2 and OMP2 keep
//     a transposed copy beside it). n = 100,000 is 40 GB.
//   - packed: the strict upper triangle in 16 bits, row after row (the GPU
//     engine's copy on the host). Pair counts are at most n / 2, so they
//     fit up to n = 131,071; n = 100,000 is 10 GB.
struct Table {
  std::int64_t n = 0;
  std::unique_ptr<int[]> c;
  std::unique_ptr<std::uint16_t[]> packed;
  static constexpr std::int64_t kMaxPacked = 131071;
  static Table of_size(std::int64_t n) {
    Table t;
    t.n = n;
    t.c.reset(new int[static_cast<std::size_t>(std::max<std::int64_t>(n * n, 1))]);
    return t;
  }
  // The first cell of row i in `packed`; row i holds C(i, i+1) .. C(i, n-1).
  // (Also the GPU kernels' formula for their packed tables.)
  static GDP_HD std::int64_t row_start(std::int64_t n, std::int64_t i) { return i * (n - 1) - i * (i - 1) / 2; }
  static std::int64_t packed_cells(std::int64_t n) { return n * (n - 1) / 2; }
  int at(std::int64_t i, std::int64_t j) const {
    if (j <= i) return 0;
    if (packed) return packed[static_cast<std::size_t>(row_start(n, i) + j - i - 1)];
    return c[static_cast<std::size_t>(i * n + j)];
  }
};

// A packed table of n (at most Table::kMaxPacked), its pages touched by
// `threads` threads at once, so that a copy into it runs at full speed
// (cpu/nussinov.cpp).
Table packed_table(std::int64_t n, int threads);

// The CPU engines' fill: cpu1, cpu2 or omp2 (on options.threads), under
// options.rules (cpu/nussinov.cpp).
Table fill_cpu(std::string_view rna, Engine engine, const Options& options);

// The GPU engines (cuda/nussinov_gpu.cu), defined only in builds with CUDA:
// callers test gdp::have_cuda (core/build.hpp) first.
//
// The blocked fill, under options.rules on options.device with
// options.tuning. timing.fill_seconds: device time of the fill;
// timing.copy_seconds: the table's packing and copy to the host. The table
// is packed up to n = Table::kMaxPacked, unless `packed` is false (tests).
// Throws InputError when the sequence does not fit in device memory
// (saying how long would), RunError when CUDA fails.
Table fill_gpu(std::string_view rna, const Options& options, FoldTiming& timing, bool packed = true);

// Many records at once (upper-case A, C, G, U): the short ones one block
// each, their tables in shared memory, as many a launch as 2^28 table
// cells; the longer ones by fill_gpu. `seconds`: device time of the
// fills. Without `structures`: every record's packed table, in the
// records' order. With it, the short records (2 bases or more) are also
// traced back on the device, the same way as the host's traceback does,
// and only their dot-bracket strings come back, at (*structures)[r]; their
// tables are left empty (n = 0), and the other records get a table and an
// empty string.
std::vector<Table> fill_gpu_batch(const std::vector<std::string_view>& rnas, const Options& options, double& seconds,
                                  std::vector<std::string>* structures = nullptr);

}  // namespace gdp::fold
