// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the large pairs go to it one after another (or to
// each of several GPUs as it comes free; one large pair over all of them)
// and the small ones to the CPU threads.
#include <algorithm>
#include <atomic>
#include <future>

#include "core/parallel_for.hpp"
#include "syntenic/syntenic.hpp"

namespace gdp::syntenic {
namespace {

void align_on_cpu(std::vector<Hit*>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                  const ScoringScheme& scheme, const Options& o) {
  const bool pairs_in_parallel = o.threads > 1 && hits.size() >= static_cast<std::size_t>(o.threads);
  if (!pairs_in_parallel) {
    for (Hit* h : hits) h->alignment = align(queries[h->query], targets[h->target], scheme, o);
    return;
  }
  Options one = o;
  one.backend = Backend::cpu_scalar;
  one.threads = 1;
  parallel_for(static_cast<std::int64_t>(hits.size()), o.threads, [&](std::int64_t k) {
    Hit& h = *hits[static_cast<std::size_t>(k)];
    h.alignment = align(queries[h.query], targets[h.target], scheme, one);
  });
}

// The GPU's pairs, largest first, each to whichever device is free next:
// one host thread a device. Every thread runs to its end before an error
// is passed on.
void align_on_devices(std::vector<Hit*>& hits, const std::vector<Residues>& queries,
                      const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o) {
  auto cells = [&](const Hit* h) {
    return static_cast<std::int64_t>(queries[h->query].size()) * static_cast<std::int64_t>(targets[h->target].size());
  };
  std::vector<Hit*> order = hits;
  std::stable_sort(order.begin(), order.end(), [&](const Hit* x, const Hit* y) { return cells(x) > cells(y); });
  std::atomic<std::size_t> next{0};
  std::vector<std::future<void>> workers;
  for (const int device : o.devices)
    workers.push_back(std::async(std::launch::async, [&, device] {
      Options on = o;
      on.device = device;
      on.devices.clear();
      for (std::size_t k = next++; k < order.size(); k = next++) {
        Hit& h = *order[k];
        h.alignment = align(queries[h.query], targets[h.target], scheme, on);
      }
    }));
  for (auto& w : workers) w.wait();
  for (auto& w : workers) w.get();
}

}  // namespace

std::vector<Hit> align_all(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                           const ScoringScheme& scheme, const Options& o) {
  std::vector<Hit> hits;
  hits.reserve(queries.size() * targets.size());
  for (std::size_t q = 0; q < queries.size(); ++q)
    for (std::size_t t = 0; t < targets.size(); ++t) hits.push_back({q, t, {}});
  std::vector<Hit*> small, large;
  for (Hit& h : hits) {
    const std::int64_t cells =
        static_cast<std::int64_t>(queries[h.query].size()) * static_cast<std::int64_t>(targets[h.target].size());
    (o.backend == Backend::gpu && cells >= o.min_gpu_cells ? large : small).push_back(&h);
  }
  if (o.devices.size() > 1 && large.size() > 1)
    align_on_devices(large, queries, targets, scheme, o);
  else
    for (Hit* h : large) h->alignment = align(queries[h->query], targets[h->target], scheme, o);
  Options cpu = o;
  if (cpu.backend == Backend::gpu) cpu.backend = cpu.threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar;
  if (cpu.backend == Backend::cpu_scalar) cpu.threads = 1;
  align_on_cpu(small, queries, targets, scheme, cpu);
  return hits;
}

}  // namespace gdp::syntenic
