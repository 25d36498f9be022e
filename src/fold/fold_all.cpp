// Every record of an input, each on its engine: long records one after
// another (the blocked GPU algorithm, or OMP2 on all threads), short ones
// many at once (many a launch on the GPU, or one CPU thread each).
#include <algorithm>
#include <future>
#include <numeric>
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

// `records` of `rnas` on the GPU options.device: long ones one after
// another, short ones many a launch; their structures into `out`.
FoldTiming fold_on_gpu(const std::vector<std::string_view>& rnas, const std::vector<std::size_t>& records,
                       const Options& o, std::vector<Structure>& out) {
  FoldTiming total;
  std::vector<std::size_t> batched;
  for (const std::size_t r : records) {
    if (rnas[r].size() < kAloneFrom) {
      batched.push_back(r);
      continue;
    }
    FoldTiming timing;
    try {
      out[r] = fold_rna(rnas[r], Engine::gpu, o, &timing);
    } catch (const InputError& error) {  // too long for the device
      throw RecordError(r, error.what());
    }
    total.fill_seconds += timing.fill_seconds;
    total.copy_seconds += timing.copy_seconds;
    total.trace_seconds += timing.trace_seconds;
  }
  if (!batched.empty()) {
    std::vector<std::string_view> short_rnas;
    for (const std::size_t r : batched) short_rnas.push_back(rnas[r]);
    FoldTiming timing;
    std::vector<Structure> folded = fold_rnas_gpu(short_rnas, o, &timing);
    for (std::size_t x = 0; x < batched.size(); ++x) out[batched[x]] = std::move(folded[x]);
    total.fill_seconds += timing.fill_seconds;
    total.trace_seconds += timing.trace_seconds;
  }
  return total;
}

// Each of `count` devices' records: the costliest record (n^3) first, each
// to the device with the least so far; each share in record order.
std::vector<std::vector<std::size_t>> spread(const std::vector<std::string_view>& rnas, std::size_t count) {
  std::vector<std::size_t> order(rnas.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rnas[a].size() > rnas[b].size(); });
  std::vector<std::vector<std::size_t>> shares(count);
  std::vector<double> load(count, 0);
  for (const std::size_t r : order) {
    const std::size_t d = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    const double n = static_cast<double>(rnas[r].size());
    shares[d].push_back(r), load[d] += n * n * n;
  }
  for (auto& share : shares) std::sort(share.begin(), share.end());
  return shares;
}

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
  const std::vector<int> devices = all.devices.empty() ? std::vector<int>{o.device} : all.devices;
  Timer timer;
  if (on_gpu && !rnas.empty()) {
    for (const int device : devices) start_gpu(device);  // the contexts' cost apart from the folds'
    result.gpu_started = true;
    result.gpu_init_seconds = timer.seconds();
  }
  // On the CPU, the engine of a record: the one asked for, else OMP2 for
  // long records and CPU2 for short ones (many at once, one thread each).
  const auto engine_of = [&](std::string_view s) {
    if (chosen) return asked;
    return o.threads > 1 && s.size() >= kAloneFrom ? Engine::omp2 : Engine::cpu2;
  };

  if (o.progress) {
    std::uint64_t splits = 0;
    for (const auto rna : rnas) splits += fill_splits(static_cast<std::int64_t>(rna.size()));
    o.progress->set_total(splits);
  }
  timer.restart();
  for (const auto rna : rnas) {
    const double n = static_cast<double>(rna.size());
    result.operations += n * n * n / 6;  // the splits of every cell
  }
  if (on_gpu) {  // every record on the GPU: on each device, a host thread and its share of the CPU threads
    const std::vector<std::vector<std::size_t>> shares = spread(rnas, devices.size());
    std::vector<std::future<FoldTiming>> folds;
    for (std::size_t d = 0; d < devices.size(); ++d) {
      Options on = o;
      on.device = devices[d];
      on.threads = std::max(1, o.threads / static_cast<int>(devices.size()));
      // One GPU: on this thread, as wait() runs a deferred task.
      const auto policy = devices.size() > 1 ? std::launch::async : std::launch::deferred;
      folds.push_back(std::async(policy, [&, d, on] { return fold_on_gpu(rnas, shares[d], on, result.structures); }));
    }
    for (auto& f : folds) f.wait();  // every device done before a failure is rethrown
    for (auto& f : folds) {
      const FoldTiming t = f.get();
      result.gpu.fill_seconds += t.fill_seconds;
      result.gpu.copy_seconds += t.copy_seconds;
      result.gpu.trace_seconds += t.trace_seconds;
    }
    result.compute_seconds = timer.seconds();
    return result;
  }
  std::vector<std::size_t> one_thread;  // short records folded many at once on the CPU threads
  for (std::size_t r = 0; r < rnas.size(); ++r) {
    const Engine e = engine_of(rnas[r]);
    if (!chosen && e == Engine::cpu2) {
      one_thread.push_back(r);
      continue;
    }
    try {
      result.structures[r] = fold_rna(rnas[r], e, o);
    } catch (const InputError& error) {
      throw RecordError(r, error.what());
    }
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
