#pragma once
// The filled Nussinov matrix, shared by the CPU engines (cpu/nussinov.cpp),
// the GPU engine (cuda/nussinov_gpu.cu) and the traceback.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fold/fold.hpp"

namespace gdp::fold {

// c[i * n + j] = C(i, j) for j > i (0-based, inclusive); C(i, j) = 0 for j <= i,
// and those cells are never read. Not zeroed when made: n = 100,000 is 40 GB.
struct Table {
  std::int64_t n = 0;
  std::unique_ptr<int[]> c;
  static Table of_size(std::int64_t n) {
    Table t;
    t.n = n;
    t.c.reset(new int[static_cast<std::size_t>(std::max<std::int64_t>(n * n, 1))]);
    return t;
  }
  int at(std::int64_t i, std::int64_t j) const { return j <= i ? 0 : c[static_cast<std::size_t>(i * n + j)]; }
};

// The CPU engines' fill (cpu/nussinov.cpp): cpu1, cpu2 or omp2.
Table fill_cpu(std::string_view rna, const Rules& rules, Engine engine, int threads);

// The GPU's blocked fill. `seconds`: device time of the fill. Throws
// InputError when the sequence does not fit in device memory (saying how
// long would), RunError when CUDA fails, and in builds without CUDA.
Table fill_gpu(std::string_view rna, const Rules& rules, int device, double& seconds);

}  // namespace gdp::fold
