// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the score passes of a query against a database go
// to the database-search kernels (batch_gpu.hpp), the large pairs to the
// long-pair engine one after another, and the rest to the CPU threads.
#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "core/parallel_for.hpp"
#include "core/progress.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
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

// Score passes of each query's hits against the targets `db` takes, where
// they are many enough cells; returns the hits left.
std::vector<Hit*> score_in_batches(std::vector<Hit>& hits, const std::vector<Residues>& queries,
                                   const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o,
                                   BatchDatabase& db, bool ends) {
  // Each query's hits (a group's strands interleave theirs).
  std::vector<std::size_t> by_query(hits.size());
  std::iota(by_query.begin(), by_query.end(), std::size_t{0});
  std::stable_sort(by_query.begin(), by_query.end(),
                   [&](std::size_t a, std::size_t b) { return hits[a].query < hits[b].query; });
  std::vector<Hit*> rest;
  std::vector<PassResult> results(targets.size());
  for (std::size_t begin = 0, end = 0; begin < by_query.size(); begin = end) {
    const std::size_t q = hits[by_query[begin]].query;
    std::int64_t cells = 0;
    for (end = begin; end < by_query.size() && hits[by_query[end]].query == q; ++end)
      if (db.covers(hits[by_query[end]].target))
        cells += static_cast<std::int64_t>(queries[q].size() * targets[hits[by_query[end]].target].size());
    const bool batched = cells > 0 && cells >= o.min_batch_cells && db.can_score(queries[q]);
    if (batched) db.score(queries[q], shape_of(o.mode, scheme), ends, o.progress, results);
    for (std::size_t k = begin; k < end; ++k) {
      Hit& h = hits[by_query[k]];
      if (batched && db.covers(h.target))
        h.alignment = score_only_alignment(results[h.target], o.mode);
      else
        rest.push_back(&h);
    }
  }
  return rest;
}

// With the GPU, score passes against a database go to the batch kernels
// (when `db`), other pairs of min_gpu_cells or more to the GPU one at a
// time; the small ones are faster on the CPU threads, a pair each.
void align_pairs(std::vector<Hit>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                 const ScoringScheme& scheme, const Options& o, BatchDatabase* db = nullptr, bool ends = true) {
  std::vector<Hit*> todo;
  if (db && o.score_only)
    todo = score_in_batches(hits, queries, targets, scheme, o, *db, ends);
  else
    for (Hit& h : hits) todo.push_back(&h);
  std::vector<Hit*> small, large;
  for (Hit* hp : todo) {
    Hit& h = *hp;
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
  // With the GPU the score passes of the whole search go to the batch
  // kernels; where only each query's best are kept, their scores alone
  // (faster), and the kept pairs of a score-only search get their end
  // cells after.
  std::optional<BatchDatabase> db;
  if (o.backend == Backend::gpu) db.emplace(targets, scheme, o.device, o.batch_chunk_residues);
  const bool ends_later = db && o.score_only && keep < group_pairs;
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
    align_pairs(hits, queries, targets, scheme, first, db ? &*db : nullptr, !ends_later && !align_later);
    if (top_k == 0) {
      for (std::size_t g = g0; g < g1; ++g)
        done(std::span<const Hit>(hits).subspan((g - g0) * group_pairs, group_pairs));
      continue;
    }
    kept.clear();
    std::uint64_t kept_cells = 0;
    // Each group's `keep` best, best first, ties in the group's order.
    std::vector<std::size_t> order(group_pairs);
    for (std::size_t g = g0; g < g1; ++g) {
      const Hit* first_hit = hits.data() + (g - g0) * group_pairs;
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                        [&](std::size_t a, std::size_t b) {
                          const int sa = first_hit[a].alignment.score, sb = first_hit[b].alignment.score;
                          return sa > sb || (sa == sb && a < b);
                        });
      for (std::size_t k = 0; k < keep; ++k) kept.push_back(first_hit[order[k]]);
    }
    if (ends_later) {
      Options ends = o;
      ends.progress = nullptr;  // counted once, in the score pass
      align_pairs(kept, queries, targets, scheme, ends);
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
