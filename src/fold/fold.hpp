#pragma once
// gpu-fold's engine: Nussinov base-pair maximisation (dissertation chapter
// 7) with Chang's simplified recurrence. The only header an app includes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gdp::fold {

struct Rules {
  bool gu = true;    // the G-U wobble pair, beside A-U and G-C
  int min_loop = 3;  // unpaired bases inside a hairpin, at least
};

// Which implementation fills the matrix. CPU1 is the oracle; gpu is the
// blocked algorithm on the GPU (cuda/nussinov_gpu.cu).
enum class Engine { cpu1, cpu2, omp2, gpu };
Engine parse_engine(std::string_view name);  // throws InputError
std::string_view to_string(Engine e);

struct Structure {
  int pairs = 0;
  std::string dot_bracket;    // '(' and ')' for pairs, '.' for unpaired bases
  std::vector<int> partner;   // 0-based; -1 where unpaired
};

// Whether bases a and b (upper case A, C, G, U) may pair under `rules`.
bool can_pair(char a, char b, const Rules& rules);

// Where a fold's time went: filling the matrix (device time on the GPU),
// on the GPU the table's packing and copy to the host, and the traceback.
struct FoldTiming {
  double fill_seconds = 0, copy_seconds = 0, trace_seconds = 0;
};

// An optimal structure of `rna` (upper case A, C, G, U). Throws InputError
// for any other letter, and with Engine::gpu when it does not fit in the
// device's memory; RunError when CUDA fails.
Structure fold_rna(std::string_view rna, const Rules& rules, Engine engine = Engine::cpu1, int threads = 1,
                   int device = 0, FoldTiming* timing = nullptr);

// Many records on the GPU at once: short ones many a launch, one block
// each, filled and traced back on the device; long ones by the blocked
// algorithm, traced on `threads` CPU threads. The same structures as
// fold_rna gives each; the same errors. The timing's fill includes the
// short records' tracebacks.
std::vector<Structure> fold_rnas_gpu(const std::vector<std::string_view>& rnas, const Rules& rules, int device,
                                     int threads, FoldTiming* timing = nullptr);

}  // namespace gdp::fold
