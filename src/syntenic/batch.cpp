// Every query against every target: many pairs in parallel, one pair a
// thread, or few pairs one after another, each on all threads.
#include "syntenic/syntenic.hpp"

namespace gdp::syntenic {

std::vector<Hit> align_all(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                           const ScoringScheme& scheme, const Options& o) {
  std::vector<Hit> hits;
  hits.reserve(queries.size() * targets.size());
  for (std::size_t q = 0; q < queries.size(); ++q)
    for (std::size_t t = 0; t < targets.size(); ++t) hits.push_back({q, t, {}});
  const bool pairs_in_parallel = o.backend != Backend::gpu && o.threads > 1 && hits.size() >= static_cast<std::size_t>(o.threads);
  if (!pairs_in_parallel) {
    for (Hit& h : hits) h.alignment = align(queries[h.query], targets[h.target], scheme, o);
    return hits;
  }
  Options one = o;
  one.backend = Backend::cpu_scalar;
  one.threads = 1;
  const std::int64_t count = static_cast<std::int64_t>(hits.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(o.threads)
  for (std::int64_t k = 0; k < count; ++k) {
    Hit& h = hits[static_cast<std::size_t>(k)];
    h.alignment = align(queries[h.query], targets[h.target], scheme, one);
  }
  return hits;
}

}  // namespace gdp::syntenic
