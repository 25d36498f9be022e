#pragma once
// gpu-mm's engine: the algorithms that an --algo name stands for, random
// inputs, the products timed one algorithm after another, and the check
// against a reference (--check). Plain C++: the GPU's products come from
// gpu.hpp, which a build without CUDA declares but does not define, so a
// request for the GPU there throws RunError.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tune.hpp"
#include "semiring/gpu.hpp"
#include "semiring/semiring.hpp"

namespace gdp::semiring {

// gpu-mm has no benchmark knobs: an empty table of --tune keys, so that any
// key is refused (InputError) rather than ignored.
struct BenchmarkTuning {};
inline constexpr std::array<TuneKey<BenchmarkTuning>, 0> benchmark_tune_keys{};

struct BenchmarkOptions {
  Semiring semiring = Semiring::plus_times;
  // The names of --algo and --base, resolved by plan_algorithms: "" is the
  // side's default (classic on the GPU, openmp on the CPU).
  std::string algo{};
  std::string base = "classic";
  int levels = 1;  // strassen, winograd: 1 to 4 (the caller checks the range)
  int repeat = 1;  // GPU: keep the fastest of this many runs
  bool check = false;
  bool gpu = false;  // the GPU (device) or the CPU (threads)
  int device = 0;
  // Two or more: the GPU's products spread over these devices
  // (multiply_gpus), `device` their first; else one device, `device`.
  std::vector<int> devices{};
  int threads = 1;
  // Operations done are added here, if set: 2mnk a product of every
  // algorithm, and one for --check's reference (run_benchmark sets the total).
  Progress* progress = nullptr;
};

// One algorithm of --algo: on the CPU a classical order, or a recursive
// product on the OpenMP base; on the GPU a request (the recursive ones on
// a base product).
struct Algorithm {
  std::string name{};  // as the result rows name it: "openmp", "strassen+cublas"
  bool gpu = false;
  CpuAlgo order = CpuAlgo::openmp;
  GpuRequest request{};
  int levels = 0;  // > 0: Strassen or Winograd, this deep
  bool winograd = false;
};

// The algorithms that options.algo names on its side (GPU or CPU), for
// element type T ("all": every one the type and semiring allow, the GPU's
// recursive ones on both bases). Throws InputError for a name the side
// does not know, for Strassen and Winograd outside plus-times, for cuBLAS
// where it has no product (cublas_has), and for --base on the CPU.
template <class T>
std::vector<Algorithm> plan_algorithms(const BenchmarkOptions& options);

// The inputs: one A and one B given (from files), or none given and a
// batch of random ones of this shape (integers in -100..100, floats in
// [-1, 1), the same for the same seed on any number of threads).
template <class T>
struct BenchmarkInputs {
  std::vector<Matrix<T>> a{}, b{};
  std::int64_t m = 0, k = 0, n = 0;
  int batch = 1;
  unsigned seed = 1;
  // How messages name A, B and both together.
  std::string a_name = "A", b_name = "B", names = "the random inputs";
};

// One algorithm's result over the batch.
struct BenchmarkRow {
  std::string algo{};
  int levels = 0;
  double ms = 0;         // per product
  double gops = 0;       // 2mnk per product over the time
  double vs_cublas = 0;  // cuBLAS's time over this one's; 0: cuBLAS did not run
  bool checked = false;  // --check: the errors below are set
  double max_error = 0, avg_error = 0;
};

template <class T>
struct BenchmarkResult {
  std::vector<BenchmarkRow> rows{};  // one per algorithm, in plan_algorithms' order
  Matrix<T> product{};             // the last algorithm's product of the batch's last inputs
  std::int64_t m = 0, k = 0, n = 0, batch = 0;
  double prepare_seconds = 0;  // making and checking the inputs
  double compute_seconds = 0;  // every algorithm's time: device time on the GPU, wall time on the CPU
  double operations = 0;       // 2mnk for every product of every algorithm
};

// Runs every algorithm of plan_algorithms<T>(options) on the inputs, in
// that order. With options.check, each algorithm's product of the batch's
// last inputs is compared with the reference: float64 for plus-times on
// floats (cuBLAS DGEMM on the GPU, the OpenMP product on the CPU), else the
// exact OpenMP product; errors are absolute, largest and mean.
//
// Throws InputError, before any work, for what plan_algorithms refuses,
// shapes that do not chain (naming B), integer tropical values out of range
// (check_range), and inputs too large for the GPU's free memory (checked
// before random inputs are made); RunError for a failure while running (and
// for the GPU in a build without CUDA). A GPU product's errors are prefixed
// with the inputs' names and the algorithm's.
template <class T>
BenchmarkResult<T> run_benchmark(BenchmarkInputs<T> inputs, const BenchmarkOptions& options);

}  // namespace gdp::semiring
