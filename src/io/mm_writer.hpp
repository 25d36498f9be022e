#pragma once
// gpu-mm's output formats: a table for people, TSV and JSON lines, one row
// per algorithm (semiring/benchmark.hpp).
#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

#include "io/npy.hpp"
#include "semiring/benchmark.hpp"

namespace gdp::io {

enum class MmFormat { table, tsv, json };
MmFormat parse_mm_format(std::string_view name);  // throws InputError

// What every row of a run shares.
struct MmRun {
  DType type = DType::f32;
  semiring::Semiring semiring = semiring::Semiring::plus_times;
  std::int64_t m = 0, k = 0, n = 0;
  int batch = 1;
};

// The header (table and TSV) and the rows. Where a row's errors were not
// checked, or cuBLAS did not run, the table and TSV write "-" and JSON null.
void write_mm_rows(MmFormat format, std::ostream& out, const MmRun& run, const std::vector<semiring::BenchmarkRow>& rows);

}  // namespace gdp::io
