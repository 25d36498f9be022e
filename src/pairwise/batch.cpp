// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the large pairs go to it one after another and the
// small ones to the CPU threads.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/parallel_for.hpp"
#include "core/progress.hpp"
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

// Queries go in runs of at least this many pairs a thread, so that the
// threads stay busy; each run's hits are handed on before the next starts.
constexpr std::size_t kRunPairsPerThread = 64;

}  // namespace

void align_each_query(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                      const ScoringScheme& scheme, const Options& o, std::size_t top_k, const QueryHits& done,
                      std::size_t group) {
  if (group == 0 || queries.size() % group != 0)
    throw std::invalid_argument("align_each_query: the queries are not whole groups");
  const std::size_t groups = queries.size() / group, group_pairs = group * targets.size();
  const std::size_t keep = top_k > 0 ? std::min(top_k, group_pairs) : group_pairs;
  // When only some pairs are kept, score everything first and align only those.
  const bool align_later = !o.score_only && keep < group_pairs;
  // Progress: a full alignment counts twice its cells (the score pass, then
  // the traceback). Where only the kept pairs are aligned, each group's
  // share for them is set by how many of its pairs are kept.
  std::uint64_t target_residues = 0, total = 0;
  for (const auto& t : targets) target_residues += t.size();
  std::vector<std::uint64_t> kept_share(groups, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    std::uint64_t cells = 0;
    for (std::size_t q = g * group; q < (g + 1) * group; ++q) cells += queries[q].size() * target_residues;
    if (align_later)
      kept_share[g] = static_cast<std::uint64_t>(2.0 * static_cast<double>(keep) / static_cast<double>(group_pairs) *
                                                 static_cast<double>(cells));
    total += cells * (o.score_only || align_later ? 1 : 2) + kept_share[g];
  }
  if (o.progress) o.progress->set_total(total);

  const std::size_t run_pairs = kRunPairsPerThread * static_cast<std::size_t>(std::max(o.threads, 1));
  Options first = o;
  first.score_only = o.score_only || align_later;
  std::vector<Hit> hits, kept;
  for (std::size_t g0 = 0, g1 = 0; g0 < groups; g0 = g1) {
    hits.clear();
    std::uint64_t run_kept_share = 0;
    for (g1 = g0; g1 < groups && hits.size() < run_pairs; ++g1) {
      // A group's pairs target by target, its queries in order for each.
      for (std::size_t t = 0; t < targets.size(); ++t)
        for (std::size_t q = g1 * group; q < (g1 + 1) * group; ++q) hits.push_back({q, t, {}});
      run_kept_share += kept_share[g1];
    }
    align_pairs(hits, queries, targets, scheme, first);
    if (top_k == 0) {
      for (std::size_t g = g0; g < g1; ++g)
        done(std::span<const Hit>(hits).subspan((g - g0) * group_pairs, group_pairs));
      continue;
    }
    kept.clear();
    std::uint64_t kept_cells = 0;
    for (std::size_t g = g0; g < g1; ++g) {
      auto begin = hits.begin() + static_cast<std::ptrdiff_t>((g - g0) * group_pairs);
      auto end = begin + static_cast<std::ptrdiff_t>(group_pairs);
      std::stable_sort(begin, end, [](const Hit& a, const Hit& b) { return a.alignment.score > b.alignment.score; });
      kept.insert(kept.end(), begin, begin + static_cast<std::ptrdiff_t>(keep));
    }
    if (align_later) {
      for (const Hit& h : kept) kept_cells += 2 * queries[h.query].size() * targets[h.target].size();
      Progress part(o.progress, run_kept_share, kept_cells);
      Options rest = o;
      rest.progress = &part;
      align_pairs(kept, queries, targets, scheme, rest);
    }
    for (std::size_t g = g0; g < g1; ++g) done(std::span<const Hit>(kept).subspan((g - g0) * keep, keep));
  }
}

std::vector<Hit> align_all(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                           const ScoringScheme& scheme, const Options& o, std::size_t top_k) {
  std::vector<Hit> all;
  align_each_query(queries, targets, scheme, o, top_k,
                   [&](std::span<const Hit> hits) { all.insert(all.end(), hits.begin(), hits.end()); });
  return all;
}

}  // namespace gdp::pairwise
