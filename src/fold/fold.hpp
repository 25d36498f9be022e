#pragma once
// gpu-fold's engine: Nussinov base-pair maximisation (dissertation chapter
// 7) with Chang's simplified recurrence (recurrence.hpp). The only header
// an app includes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/tune.hpp"
#include "fold/recurrence.hpp"

namespace gdp {
class Progress;
}

namespace gdp::fold {

struct Rules {
  bool gu = true;    // the G-U wobble pair, beside A-U and G-C
  int min_loop = 3;  // unpaired bases inside a hairpin, at least
};

// Which implementation fills the matrix. CPU1 is the oracle; gpu is the
// blocked algorithm on the GPU (cuda/nussinov_gpu.cu).
enum class Engine { cpu1, cpu2, omp2, gpu };
inline constexpr EnumNames<Engine, 4> engine_names{
    {{Engine::cpu1, "cpu1"}, {Engine::cpu2, "cpu2"}, {Engine::omp2, "omp2"}, {Engine::gpu, "gpu"}}};
Engine parse_engine(std::string_view name);  // InputError "unknown engine 'x' (use cpu1, cpu2, omp2 or gpu)"
std::string_view to_string(Engine e);

// The GPU engine's benchmark knobs (--tune key=value; the defaults are the
// best of bench/RESULTS.md's slicing table, "gpu-fold: split products, a
// packed 16-bit table on the host"): the slicing of k in the late
// diagonals' max-plus products.
// Each diagonal's products are cut into enough slices of k for `rounds`
// rounds of the blocks the GPU holds at once, each slice at least
// `min_slice` long so that its atomic maxima stay a small part of its work.
struct GpuTuning {
  long long rounds = 8;       // 1 or more
  long long min_slice = 256;  // 16 or more
};
// The keys of GpuTuning for gdp::apply_tune: rounds, min_slice.
extern const std::array<TuneKey<GpuTuning>, 2> gpu_tune_keys;

// How the engines run one record, or many.
struct Options {
  Rules rules;
  int threads = 1;   // OMP2's threads; the CPU threads of the GPU engine's tracebacks
  int device = 0;    // the CUDA device of Engine::gpu
  GpuTuning tuning;  // Engine::gpu's knobs
  Progress* progress = nullptr;  // each record's fill_splits are added here as it fills, if set
};

// The splits a fill of n bases weighs, every cell's (j - i):
// (n^3 - n) / 6, the unit of the fold's progress.
constexpr std::uint64_t fill_splits(std::int64_t n) {
  return n < 2 ? 0 : static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n - 1) * static_cast<std::uint64_t>(n + 1) / 6;
}

struct Structure {
  int pairs = 0;
  std::string dot_bracket;    // '(' and ')' for pairs, '.' for unpaired bases
  std::vector<int> partner;   // 0-based; -1 where unpaired
};

// Whether bases a and b (upper case A, C, G, U) may pair under `rules`
// (recurrence.hpp's pair rule; any other letter pairs with nothing).
bool can_pair(char a, char b, const Rules& rules);

// Where a fold's time went: filling the matrix (device time on the GPU),
// on the GPU the table's packing and copy to the host, and the traceback.
struct FoldTiming {
  double fill_seconds = 0, copy_seconds = 0, trace_seconds = 0;
};

// InputError for a letter of `rna` that is not a base (upper case A, C, G,
// U, or kUnpairedBases, which pair with nothing) or a negative min_loop.
void check_rna(std::string_view rna, const Rules& rules);

// An optimal structure of `rna` (upper case A, C, G, U, kUnpairedBases) by
// `engine`. Throws what check_rna throws, and with
// Engine::gpu when it does not fit in the device's memory; RunError when
// CUDA fails, and for Engine::gpu in a build without CUDA
// (gdp::no_cuda_message).
Structure fold_rna(std::string_view rna, Engine engine, const Options& options, FoldTiming* timing = nullptr);

// Many records on the GPU at once: short ones many a launch, one block
// each, filled and traced back on the device; long ones by the blocked
// algorithm, traced on options.threads CPU threads. The same structures
// as fold_rna gives each; the same errors. The timing's fill includes the
// short records' tracebacks.
std::vector<Structure> fold_rnas_gpu(const std::vector<std::string_view>& rnas, const Options& options,
                                     FoldTiming* timing = nullptr);

// What fold_all folds with.
struct AllOptions {
  Options options;               // rules, threads, device, tuning
  std::optional<Engine> engine;  // every record on this engine; none: each record's own (fold_all)
  bool use_gpu = false;          // without `engine`: fold on the GPU (options.device)
  // The GPUs the records spread over, where they fold on the GPU (empty:
  // options.device alone).
  std::vector<int> devices;
};

// What fold_all gives back.
struct AllResult {
  std::vector<Structure> structures;  // in the records' order
  std::string backend;                // the engine asked for, else "gpu" or "omp2+cpu2"
  double operations = 0;              // n^3 / 6 a record: the splits of every cell
  bool gpu_started = false;           // the GPU's context was created first, apart from the folds
  double gpu_init_seconds = 0;        // its time
  double compute_seconds = 0;         // the folds' wall time
  FoldTiming gpu;                     // of the records folded on the GPU: fill (device time), copy, traceback
};

// An InputError about one record of fold_all (a bad letter, or too long
// for the device):
// `record` is its index.
class RecordError : public InputError {
 public:
  RecordError(std::size_t record_index, const std::string& what) : InputError(what), record(record_index) {}
  std::size_t record;
};

// Every record (as check_rna takes them, each checked before any is
// folded), each on its engine: the one asked for; else, with use_gpu, the GPU (records of 512 bases or more one after
// another, shorter ones many a launch, fold_rnas_gpu; over several GPUs,
// `devices`, each record to the least loaded by n^3, one host thread a
// GPU, the CPU threads shared among them); else OMP2 for
// records of 512 bases or more (with more than one thread) and CPU2 for
// the others, many at once on the threads, one each. The GPU's context is
// created first where a record folds on it. Throws RecordError where a
// record fails check_rna or, folded alone, does not fit in the device's
// memory, and what fold_rna throws.
AllResult fold_all(const std::vector<std::string_view>& rnas, const AllOptions& options);

}  // namespace gdp::fold
