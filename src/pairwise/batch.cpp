// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the large pairs go to it one after another and the
// small ones to the CPU threads.
#include <algorithm>
#include <numeric>

#include "core/parallel_for.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::pairwise {
namespace {

// Pairs one after another, or in parallel with one thread a pair.
void align_on_cpu(std::vector<Hit*>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                  const ScoringScheme& scheme, Options o) {
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

// With the GPU, pairs of min_gpu_cells or more go to it one at a time; the
// small ones are faster on the CPU threads, a pair each.
void align_pairs(std::vector<Hit>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                 const ScoringScheme& scheme, const Options& o) {
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
}

}  // namespace

std::vector<Hit> align_all(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                           const ScoringScheme& scheme, const Options& o, std::size_t top_k) {
  std::vector<Hit> hits;
  hits.reserve(queries.size() * targets.size());
  for (std::size_t q = 0; q < queries.size(); ++q)
    for (std::size_t t = 0; t < targets.size(); ++t) hits.push_back({q, t, {}});
  const std::size_t keep = top_k > 0 ? std::min(top_k, targets.size()) : targets.size();
  // When only some pairs are kept, score everything first and align only those.
  const bool align_later = !o.score_only && keep < targets.size();
  Options first = o;
  first.score_only = o.score_only || align_later;
  align_pairs(hits, queries, targets, scheme, first);
  if (top_k == 0) return hits;

  std::vector<Hit> kept;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    auto begin = hits.begin() + static_cast<std::ptrdiff_t>(q * targets.size());
    auto end = begin + static_cast<std::ptrdiff_t>(targets.size());
    std::stable_sort(begin, end, [](const Hit& a, const Hit& b) { return a.alignment.score > b.alignment.score; });
    kept.insert(kept.end(), begin, begin + static_cast<std::ptrdiff_t>(keep));
  }
  if (align_later) {
    Options rest = o;
    rest.progress = nullptr;
    align_pairs(kept, queries, targets, scheme, rest);
  }
  return kept;
}

}  // namespace gdp::pairwise
