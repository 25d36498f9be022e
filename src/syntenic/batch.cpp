// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the large pairs go to it one after another and the
// small ones to the CPU threads.
#include <exception>

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
  const std::int64_t count = static_cast<std::int64_t>(hits.size());
  // An exception may not leave an OpenMP region: the first one is kept and
  // thrown once every thread is done.
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(o.threads)
  for (std::int64_t k = 0; k < count; ++k) {
    Hit& h = *hits[static_cast<std::size_t>(k)];
    try {
      h.alignment = align(queries[h.query], targets[h.target], scheme, one);
    } catch (...) {
#pragma omp critical(syntenic_batch_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
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
  for (Hit* h : large) h->alignment = align(queries[h->query], targets[h->target], scheme, o);
  Options cpu = o;
  if (cpu.backend == Backend::gpu) cpu.backend = cpu.threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar;
  if (cpu.backend == Backend::cpu_scalar) cpu.threads = 1;
  align_on_cpu(small, queries, targets, scheme, cpu);
  return hits;
}

}  // namespace gdp::syntenic
