// Every record of an input, each on its engine: long records one after
// another (the blocked GPU algorithm, or OMP2 on all threads), short ones
// many at once (many a launch on the GPU, or one CPU thread each).
#include <algorithm>
#include <string>

#include "core/device.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "fold/fold.hpp"

namespace gdp::fold {
namespace {

// Records this long or longer fold one at a time (on the GPU, or with OMP2
// on the CPU); shorter ones many at once.
constexpr std::size_t kAloneFrom = 512;

}  // namespace

AllResult fold_all(const std::vector<std::string_view>& rnas, const AllOptions& all) {
  const Options& o = all.options;
  const bool chosen = all.engine.has_value();
  const Engine asked = all.engine.value_or(Engine::cpu2);
  const bool on_gpu = chosen ? asked == Engine::gpu : all.use_gpu;
  AllResult result;
  result.backend = chosen ? std::string(to_string(asked)) : all.use_gpu ? "gpu" : "omp2+cpu2";
  result.structures.resize(rnas.size());
  // Every record checked first: none may throw within the threads below.
  for (std::size_t r = 0; r < rnas.size(); ++r) {
    try {
      check_rna(rnas[r], o.rules);
    } catch (const InputError& error) {
      throw RecordError(r, error.what());
    }
  }
  Timer timer;
  if (on_gpu && !rnas.empty()) {
    start_gpu(o.device);  // the context's cost apart from the folds'
    result.gpu_started = true;
    result.gpu_init_seconds = timer.seconds();
  }
  // The engine of a record: the one asked for, else the GPU, else OMP2 for
  // long records and CPU2 for short ones (many at once, one thread each).
  const auto engine_of = [&](std::string_view s) {
    if (chosen) return asked;
    if (all.use_gpu) return Engine::gpu;
    return o.threads > 1 && s.size() >= kAloneFrom ? Engine::omp2 : Engine::cpu2;
  };

  if (o.progress) {
    std::uint64_t splits = 0;
    for (const auto rna : rnas) splits += fill_splits(static_cast<std::int64_t>(rna.size()));
    o.progress->set_total(splits);
  }
  timer.restart();
  std::vector<std::size_t> one_thread;  // short records folded many at once on the CPU threads
  std::vector<std::size_t> batched;     // short records folded many a launch on the GPU
  for (std::size_t r = 0; r < rnas.size(); ++r) {
    const double n = static_cast<double>(rnas[r].size());
    result.operations += n * n * n / 6;  // the splits of every cell
    const Engine e = engine_of(rnas[r]);
    if (!chosen && e == Engine::cpu2) {
      one_thread.push_back(r);
      continue;
    }
    if (e == Engine::gpu && rnas[r].size() < kAloneFrom) {
      batched.push_back(r);
      continue;
    }
    FoldTiming timing;
    try {
      result.structures[r] = fold_rna(rnas[r], e, o, &timing);
    } catch (const InputError& error) {  // too long for the device
      throw RecordError(r, error.what());
    }
    if (e == Engine::gpu) {
      result.gpu.fill_seconds += timing.fill_seconds;
      result.gpu.copy_seconds += timing.copy_seconds;
      result.gpu.trace_seconds += timing.trace_seconds;
    }
  }
  if (!batched.empty()) {
    std::vector<std::string_view> short_rnas;
    for (const std::size_t r : batched) short_rnas.push_back(rnas[r]);
    FoldTiming timing;
    std::vector<Structure> folded = fold_rnas_gpu(short_rnas, o, &timing);
    for (std::size_t x = 0; x < batched.size(); ++x) result.structures[batched[x]] = std::move(folded[x]);
    result.gpu.fill_seconds += timing.fill_seconds;
    result.gpu.trace_seconds += timing.trace_seconds;
  }
  Options one = o;
  one.threads = 1;
#pragma omp parallel for schedule(dynamic) num_threads(std::max(o.threads, 1))
  for (std::size_t x = 0; x < one_thread.size(); ++x)
    result.structures[one_thread[x]] = fold_rna(rnas[one_thread[x]], Engine::cpu2, one);
  result.compute_seconds = timer.seconds();
  return result;
}

}  // namespace gdp::fold
