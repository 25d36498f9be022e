// Every query against every target. On the CPU many pairs run in parallel,
// one pair a thread, and few pairs one after another, each spread over the
// threads. With the GPU, the score passes of a query against a database go
// to the database-search kernels (batch_gpu.hpp), the large pairs to the
// long-pair engine one after another, and the rest to the CPU threads.
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "core/parallel_for.hpp"
#include "core/progress.hpp"
#include "core/worker_thread.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cpu/score_lanes.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::pairwise {
namespace {

// Pairs in parallel with one thread a pair where there are two or more and
// they fill at least half the threads (the threads of one pair share its
// matrix's tiles, which pays off only where the pair is large), else one
// after another, each on every thread.
void align_on_cpu(std::vector<Hit*>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                  const ScoringScheme& scheme, Options o) {
  const bool pairs_in_parallel = o.threads > 1 && hits.size() > 1 && 2 * hits.size() >= static_cast<std::size_t>(o.threads);
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

// Local score passes of queries with many hits on the CPU lanes
// (cpu/score_lanes.hpp), kScoreLanes targets of like length at once, the
// groups spread over the threads; a lane that reaches the 16-bit bound is
// rescored by the oracle. Returns the hits left (other queries and shapes,
// empty or long targets).
std::vector<Hit*> score_on_lanes(std::vector<Hit*>& hits, const std::vector<Residues>& queries,
                                 const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o) {
  const Shape shape = shape_of(o.mode, scheme);
  if (!o.score_only || !score_lanes_can_run(scheme, shape)) return hits;
  const std::size_t longest = score_lanes_max_target(scheme);
  auto fits = [&](const Hit* h) {
    const std::size_t n = targets[h->target].size();
    return !queries[h->query].empty() && n > 0 && n <= longest;
  };
  // Each query's hits that fit, longest target first (ties in hit order).
  std::vector<Hit*> sorted, rest;
  for (Hit* h : hits) (fits(h) ? sorted : rest).push_back(h);
  std::stable_sort(sorted.begin(), sorted.end(), [&](const Hit* a, const Hit* b) {
    return a->query != b->query ? a->query < b->query : targets[a->target].size() > targets[b->target].size();
  });
  // Groups of up to kScoreLanes hits of one query; a query with fewer than
  // half a group runs faster a pair a thread.
  std::vector<std::pair<std::size_t, std::size_t>> groups;
  for (std::size_t begin = 0, end = 0; begin < sorted.size(); begin = end) {
    for (end = begin; end < sorted.size() && sorted[end]->query == sorted[begin]->query;) ++end;
    if (end - begin < kScoreLanes / 2) {
      rest.insert(rest.end(), sorted.begin() + static_cast<std::ptrdiff_t>(begin),
                  sorted.begin() + static_cast<std::ptrdiff_t>(end));
      continue;
    }
    for (std::size_t g = begin; g < end; g += kScoreLanes) groups.emplace_back(g, std::min(end, g + kScoreLanes));
  }
  parallel_for(static_cast<std::int64_t>(groups.size()), o.threads, [&](std::int64_t k) {
    const auto [begin, end] = groups[static_cast<std::size_t>(k)];
    const Residues q = queries[sorted[begin]->query];
    Residues lane_targets[kScoreLanes];
    PassResult results[kScoreLanes];
    bool overflowed[kScoreLanes];
    std::uint64_t cells = 0;
    for (std::size_t x = begin; x < end; ++x) {
      lane_targets[x - begin] = targets[sorted[x]->target];
      cells += q.size() * lane_targets[x - begin].size();
    }
    score_lanes(q, std::span<const Residues>(lane_targets, end - begin), scheme, results, overflowed);
    for (std::size_t x = begin; x < end; ++x) {
      PassResult r = results[x - begin];
      if (overflowed[x - begin]) r = score_pass_scalar(q, lane_targets[x - begin], scheme, shape);
      sorted[x]->alignment = score_only_alignment(r, o.mode);
    }
    if (o.progress) o.progress->add(cells);
  });
  return rest;
}

// Score passes of each query's hits against the targets `db` takes, where
// they are many enough cells; returns the hits left.
std::vector<Hit*> score_in_batches(std::vector<Hit>& hits, const std::vector<Residues>& queries,
                                   const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o,
                                   BatchDatabase& db) {
  // Each query's hits (a group's strands interleave theirs).
  std::vector<std::size_t> by_query(hits.size());
  std::iota(by_query.begin(), by_query.end(), std::size_t{0});
  std::stable_sort(by_query.begin(), by_query.end(),
                   [&](std::size_t a, std::size_t b) { return hits[a].query < hits[b].query; });
  std::vector<Hit*> rest;
  for (std::size_t begin = 0, end = 0; begin < by_query.size(); begin = end) {
    const std::size_t q = hits[by_query[begin]].query;
    std::int64_t cells = 0;
    for (end = begin; end < by_query.size() && hits[by_query[end]].query == q; ++end)
      if (db.covers(hits[by_query[end]].target))
        cells += static_cast<std::int64_t>(queries[q].size() * targets[hits[by_query[end]].target].size());
    const bool batched = cells > 0 && cells >= o.min_batch_cells && db.can_score(queries[q]);
    for (std::size_t k = begin; k < end; ++k)
      if (!batched || !db.covers(hits[by_query[k]].target)) rest.push_back(&hits[by_query[k]]);
    if (batched)
      db.score(std::span(&queries[q], 1), shape_of(o.mode, scheme), true, o.progress,
               [&](std::size_t, const std::vector<PassResult>& r) {
                 for (std::size_t k = begin; k < end; ++k) {
                   Hit& h = hits[by_query[k]];
                   if (db.covers(h.target)) h.alignment = score_only_alignment(r[h.target], o.mode);
                 }
               });
  }
  return rest;
}

// The devices of the GPU's work.
std::vector<int> devices_of(const Options& o) { return o.devices.empty() ? std::vector<int>{o.device} : o.devices; }

// work(d, on) for each device d of `devices`, on its own host thread with
// `on` set to that device and its share of the CPU threads (one device:
// on this thread, with every thread); every one finished before a failure
// is rethrown.
template <class Work>
void on_each_device(const std::vector<int>& devices, const Options& o, Work&& work) {
  std::vector<std::future<void>> runs;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    Options on = o;
    on.device = devices[d];
    on.devices = {};
    on.threads = std::max(1, o.threads / static_cast<int>(devices.size()));
    const auto policy = devices.size() > 1 ? std::launch::async : std::launch::deferred;
    runs.push_back(std::async(policy, [&work, d, on] { work(d, on); }));
  }
  for (auto& r : runs) r.wait();
  for (auto& r : runs) r.get();
}

// Pairs too large for the batches, each on the GPU: on several devices,
// the largest first, each to the next device free; one alone, over them
// all (spread_pass.hpp).
void align_large(const std::vector<Hit*>& large, const std::vector<Residues>& queries,
                 const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o) {
  if (large.size() == 1) {
    Hit& h = *large.front();
    h.alignment = align(queries[h.query], targets[h.target], scheme, o);
    return;
  }
  std::vector<Hit*> order = large;
  const auto cells = [&](const Hit* h) { return queries[h->query].size() * targets[h->target].size(); };
  std::stable_sort(order.begin(), order.end(), [&](const Hit* a, const Hit* b) { return cells(a) > cells(b); });
  const std::vector<int> devices = devices_of(o);
  std::atomic<std::size_t> next{0};
  on_each_device(devices, o, [&](std::size_t, const Options& on) {
    for (std::size_t k; (k = next++) < order.size();)
      order[k]->alignment = align(queries[order[k]->query], targets[order[k]->target], scheme, on);
  });
}

// Full alignments of many small pairs on the GPU's batches: on several
// devices, the pairs dealt by cells, the largest first, each to the device
// with the fewest so far. Returns the pairs the batches do not take.
std::vector<Hit*> align_small_batches(const std::vector<Hit*>& small, const std::vector<Residues>& queries,
                                      const std::vector<Residues>& targets, const ScoringScheme& scheme,
                                      const Options& o) {
  const std::vector<int> devices = devices_of(o);
  std::vector<std::vector<Hit*>> shares(devices.size());
  if (devices.size() == 1) {
    shares[0] = small;
  } else {
    std::vector<Hit*> order = small;
    const auto cells = [&](const Hit* h) { return queries[h->query].size() * targets[h->target].size(); };
    std::stable_sort(order.begin(), order.end(), [&](const Hit* a, const Hit* b) { return cells(a) > cells(b); });
    std::vector<std::uint64_t> load(devices.size(), 0);
    for (Hit* h : order) {
      const std::size_t d = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      shares[d].push_back(h);
      load[d] += cells(h);
    }
  }
  std::vector<std::vector<Hit*>> left(devices.size());
  on_each_device(devices, o, [&](std::size_t d, const Options& on) {
    left[d] = batch_align(shares[d], queries, targets, scheme, on.mode, on.device, on.threads, on.progress);
  });
  std::vector<Hit*> rest;
  for (const auto& l : left) rest.insert(rest.end(), l.begin(), l.end());
  return rest;
}

// With the GPU, score passes against a database go to the batch kernels
// (when `db`), other pairs of min_gpu_cells or more to the GPU one at a
// time; the small ones are faster on the CPU threads, a pair each.
void align_pairs(std::vector<Hit>& hits, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                 const ScoringScheme& scheme, const Options& o, BatchDatabase* db = nullptr) {
  std::vector<Hit*> todo;
  if (db && o.score_only)
    todo = score_in_batches(hits, queries, targets, scheme, o, *db);
  else
    for (Hit& h : hits) todo.push_back(&h);
  std::vector<Hit*> small, large;
  for (Hit* hp : todo) {
    Hit& h = *hp;
    const std::int64_t cells =
        static_cast<std::int64_t>(queries[h.query].size()) * static_cast<std::int64_t>(targets[h.target].size());
    (o.backend == Backend::gpu && cells >= o.min_gpu_cells ? large : small).push_back(&h);
  }
  if (!large.empty()) align_large(large, queries, targets, scheme, o);
  // Full alignments of many small pairs: on the GPU at once, where they
  // are cells enough.
  if (o.backend == Backend::gpu && !o.score_only && !small.empty() && batch_can_align(scheme)) {
    std::uint64_t small_cells = 0;
    for (const Hit* h : small) small_cells += queries[h->query].size() * targets[h->target].size();
    if (small_cells >= static_cast<std::uint64_t>(o.min_batch_cells))
      small = align_small_batches(small, queries, targets, scheme, o);
  }
  Options cpu = o;
  if (cpu.backend == Backend::gpu) cpu.backend = cpu.threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar;
  if (cpu.backend == Backend::cpu_scalar) cpu.threads = 1;
  std::vector<Hit*> rest = score_on_lanes(small, queries, targets, scheme, cpu);
  align_on_cpu(rest, queries, targets, scheme, cpu);
}

// The scores of the pairs of groups [g0, g1) into scores[g - g0], each
// group's in its order (target by target, its queries in order for each):
// the batch kernels take the queries' pairs against the targets `db` covers
// where they are many enough cells (the longest queries first), align_pairs
// the rest. ready(g) is called once group g's scores are all in: as soon as
// its last query leaves the kernels where the kernels take all its pairs,
// else at the end.
void run_scores(std::size_t g0, std::size_t g1, std::size_t group, const std::vector<Residues>& queries,
                const std::vector<Residues>& targets, const ScoringScheme& scheme, const Options& o,
                BatchDatabase* db, std::vector<std::vector<int>>& scores,
                const std::function<void(std::size_t)>& ready) {
  // Each group's scores are made as its first come in (while the kernels
  // run, for the batched ones).
  scores.assign(g1 - g0, {});
  auto scores_of = [&](std::size_t q) -> std::vector<int>& {
    std::vector<int>& mine = scores[q / group - g0];
    if (mine.empty()) mine.resize(group * targets.size());
    return mine;
  };
  std::vector<std::size_t> batch_query;
  // A group whose pairs all go to the kernels is ready as its last query
  // leaves them: `waiting` counts its queries still in there.
  std::vector<bool> early(g1 - g0, db && db->covers_all());
  std::vector<std::size_t> waiting(g1 - g0, group);
  std::vector<Hit> rest;
  for (std::size_t q = g0 * group; q < g1 * group; ++q) {
    const auto cells = static_cast<std::int64_t>(db ? queries[q].size() * db->covered_residues() : 0);
    const bool batched = db && cells > 0 && cells >= o.min_batch_cells && db->can_score(queries[q]);
    if (batched) batch_query.push_back(q);
    if (!batched || !db->covers_all())
      for (std::size_t t = 0; t < targets.size(); ++t)
        if (!batched || !db->covers(t)) rest.push_back({q, t, {}});
    if (!batched) early[q / group - g0] = false;
  }
  // The longest queries first, so that the work left once the kernels are
  // done (the last group's kept hits) is the least.
  std::stable_sort(batch_query.begin(), batch_query.end(),
                   [&](std::size_t a, std::size_t b) { return queries[a].size() > queries[b].size(); });
  if (!batch_query.empty()) {
    std::vector<Residues> batch;
    for (std::size_t q : batch_query) batch.push_back(queries[q]);
    db->score(batch, shape_of(o.mode, scheme), false, o.progress,
              [&](std::size_t k, const std::vector<PassResult>& r) {
                const std::size_t q = batch_query[k];
                std::vector<int>& mine = scores_of(q);
                constexpr std::int64_t block = 16384;
                const auto n = static_cast<std::int64_t>(targets.size());
                parallel_for((n + block - 1) / block, o.threads, [&](std::int64_t b) {
                  for (std::int64_t t = b * block; t < std::min(n, (b + 1) * block); ++t)
                    if (db->covers(static_cast<std::size_t>(t)))
                      mine[static_cast<std::size_t>(t) * group + q % group] = r[static_cast<std::size_t>(t)].score;
                });
                // The next query's scores made now, while its kernels run.
                if (k + 1 < batch_query.size()) scores_of(batch_query[k + 1]);
                if (early[q / group - g0] && --waiting[q / group - g0] == 0) ready(q / group);
              });
  }
  align_pairs(rest, queries, targets, scheme, o);
  for (const Hit& h : rest) scores_of(h.query)[h.target * group + h.query % group] = h.alignment.score;
  for (std::size_t g = g0; g < g1; ++g)
    if (!early[g - g0]) ready(g);
}

// The indices of the `keep` (at least 1) best scores, best first, ties in
// index order. Where few of many are kept, each block's best on `threads`
// threads (the best of all are among them), then the best of those.
std::vector<std::size_t> best_of(const std::vector<int>& scores, std::size_t keep, int threads) {
  constexpr std::size_t kBlock = std::size_t{1} << 16;
  const std::size_t n = scores.size();
  auto better = [&](std::size_t a, std::size_t b) { return scores[a] > scores[b] || (scores[a] == scores[b] && a < b); };
  std::vector<std::size_t> best;
  if (n > kBlock && keep <= kBlock / 64) {
    std::vector<std::vector<std::size_t>> kept((n + kBlock - 1) / kBlock);
    parallel_for(static_cast<std::int64_t>(kept.size()), threads, [&](std::int64_t b) {
      std::vector<std::size_t>& heap = kept[static_cast<std::size_t>(b)];  // the worst kept on top
      for (std::size_t k = static_cast<std::size_t>(b) * kBlock; k < std::min(n, static_cast<std::size_t>(b + 1) * kBlock); ++k) {
        if (heap.size() < keep) {
          heap.push_back(k);
          std::push_heap(heap.begin(), heap.end(), better);
        } else if (better(k, heap.front())) {
          std::pop_heap(heap.begin(), heap.end(), better);
          heap.back() = k;
          std::push_heap(heap.begin(), heap.end(), better);
        }
      }
    });
    for (const auto& h : kept) best.insert(best.end(), h.begin(), h.end());
    std::sort(best.begin(), best.end(), better);
    best.resize(keep);
    return best;
  }
  std::vector<int> sorted = scores;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(keep - 1), sorted.end(),
                   std::greater<>());
  const int cut = sorted[keep - 1];
  std::size_t above = 0;
  for (int s : scores) above += s > cut;
  for (std::size_t k = 0, at_cut = keep - above; k < n; ++k)
    if (scores[k] > cut || (scores[k] == cut && at_cut > 0 && at_cut--)) best.push_back(k);
  std::stable_sort(best.begin(), best.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  return best;
}

// Of group g's chosen pairs (indices into its scores), those `keep` keeps,
// in order; the filter runs on the threads.
std::vector<std::size_t> filtered(const std::vector<std::size_t>& chosen, std::size_t g, const std::vector<int>& scores,
                                  std::size_t group, const HitFilter& keep, int threads) {
  std::vector<char> kept(chosen.size());
  constexpr std::int64_t block = 4096;
  const auto n = static_cast<std::int64_t>(chosen.size());
  parallel_for((n + block - 1) / block, threads, [&](std::int64_t b) {
    for (std::int64_t x = b * block; x < std::min(n, (b + 1) * block); ++x) {
      const std::size_t k = chosen[static_cast<std::size_t>(x)];
      kept[static_cast<std::size_t>(x)] = keep(g * group + k % group, k / group, scores[k]);
    }
  });
  std::vector<std::size_t> out;
  for (std::size_t x = 0; x < chosen.size(); ++x)
    if (kept[x]) out.push_back(chosen[x]);
  return out;
}

// The kept hits of a ranked search finished: with score_only their end
// cells (counted once already, in the score pass), else their alignments,
// counted as `share` of the progress. With the GPU they go to the batch
// alignments however few they are: which groups come here together depends
// on when their scores came in, and an engine chosen by their number would
// make a pair's path among equal ones (the CPU's or the GPU's) depend on it.
void finish_kept(std::vector<Hit>& kept, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                 const ScoringScheme& scheme, const Options& o, std::uint64_t share) {
  if (o.score_only) {
    Options ends = o;
    ends.progress = nullptr;
    align_pairs(kept, queries, targets, scheme, ends);
    return;
  }
  std::uint64_t kept_cells = 0;
  for (const Hit& h : kept) kept_cells += 2 * queries[h.query].size() * targets[h.target].size();
  Progress part(o.progress, share, kept_cells);
  Options rest = o;
  rest.progress = &part;
  rest.min_batch_cells = 0;
  align_pairs(kept, queries, targets, scheme, rest);
}

// A filter's kept hits a group, for the progress's estimate of the work.
constexpr std::size_t kExpectedFiltered = 100;

// Queries go in runs of at least this many pairs a thread, so that the
// threads stay busy; each run's hits are handed on before the next starts.
constexpr std::size_t kRunPairsPerThread = 64;
// With the GPU, runs of up to this many pairs ranked by their scores, so
// that a streamed database's chunk serves many queries; and of up to this
// many aligned, enough to fill the device with batch alignments.
constexpr std::size_t kBatchRunPairs = std::size_t{1} << 24;
constexpr std::size_t kBatchRunAlignments = std::size_t{1} << 21;

}  // namespace

void align_each_query(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                      const ScoringScheme& scheme, const Options& o, std::size_t top_k, const QueryHits& done,
                      std::size_t group, const HitFilter& filter) {
  if (group == 0 || queries.size() % group != 0)
    throw std::invalid_argument("align_each_query: the queries are not whole groups");
  const std::size_t groups = queries.size() / group, group_pairs = group * targets.size();
  const std::size_t keep = top_k > 0 ? std::min(top_k, group_pairs) : group_pairs;
  // With the GPU the score passes of the whole search go to the batch
  // kernels (a database laid out once), scores alone where pairs are ranked.
  std::optional<BatchDatabase> db;
  if (o.backend == Backend::gpu) db.emplace(targets, scheme, devices_of(o), SearchTuning{o.tuning.db_chunk_residues, o.tuning.db_rows16});
  // When only some pairs are kept, every pair's score comes first, and only
  // the kept pairs are then aligned (or get their end cells, score-only).
  const bool rank_first = keep < group_pairs || filter;
  // Progress: a full alignment counts twice its cells (the score pass, then
  // the traceback). Where only the kept pairs are aligned, each group's
  // share for them is set by how many of its pairs are expected to be kept
  // (a filter is taken to keep few).
  const std::size_t expected_kept = filter ? std::min(keep, kExpectedFiltered) : keep;
  std::uint64_t target_residues = 0, total = 0;
  if (db)
    target_residues = db->all_residues();
  else
    for (const auto& t : targets) target_residues += t.size();
  std::vector<std::uint64_t> kept_share(groups, 0);
  const bool align_later = rank_first && !o.score_only;
  for (std::size_t g = 0; g < groups; ++g) {
    std::uint64_t cells = 0;
    for (std::size_t q = g * group; q < (g + 1) * group; ++q) cells += queries[q].size() * target_residues;
    if (align_later)
      kept_share[g] = static_cast<std::uint64_t>(2.0 * static_cast<double>(expected_kept) / static_cast<double>(group_pairs) *
                                                 static_cast<double>(cells));
    total += cells * (o.score_only || align_later ? 1 : 2) + kept_share[g];
  }
  if (o.progress) o.progress->set_total(total);
  const std::size_t run_pairs = !db           ? kRunPairsPerThread * static_cast<std::size_t>(std::max(o.threads, 1))
                                : rank_first ? kBatchRunPairs
                                             : kBatchRunAlignments;
  Options scores_only = o;
  scores_only.score_only = true;
  std::vector<Hit> hits;
  for (std::size_t g0 = 0, g1 = 0; g0 < groups; g0 = g1) {
    const std::size_t run_groups = (run_pairs + group_pairs - 1) / std::max<std::size_t>(group_pairs, 1);
    g1 = std::min(groups, g0 + std::max<std::size_t>(1, run_groups));
    if (!rank_first) {
      // Every pair of the run's groups, each group's in its order.
      hits.clear();
      for (std::size_t g = g0; g < g1; ++g)
        for (std::size_t t = 0; t < targets.size(); ++t)
          for (std::size_t q = g * group; q < (g + 1) * group; ++q) hits.push_back({q, t, {}});
      align_pairs(hits, queries, targets, scheme, o, db ? &*db : nullptr);
      for (std::size_t g = g0; g < g1; ++g) {
        const std::span<Hit> mine = std::span<Hit>(hits).subspan((g - g0) * group_pairs, group_pairs);
        if (top_k > 0)  // every pair kept: best first
          std::stable_sort(mine.begin(), mine.end(),
                           [](const Hit& a, const Hit& b) { return a.alignment.score > b.alignment.score; });
        done(mine);
      }
      continue;
    }
    // Each group's `keep` best, best first, ties in the group's order (or,
    // without top_k, all of them in that order), less those the filter
    // drops, finished (end cells, or alignments), then handed to `done` in
    // group order. With the GPU a worker thread does this as soon as a
    // group's scores are in, while the kernels score the next queries.
    std::vector<std::vector<int>> scores;
    std::vector<std::vector<Hit>> kept(g1 - g0);
    std::vector<bool> finished(g1 - g0, false);
    std::size_t next_done = g0;
    auto finish_groups = [&](std::vector<std::size_t>& ready) {
      std::vector<std::vector<std::size_t>> best(ready.size());
      // Several groups on the threads, or one group's blocks.
      const bool one = ready.size() == 1;
      auto choose = [&](std::int64_t x) {
        const std::vector<int>& mine = scores[ready[static_cast<std::size_t>(x)] - g0];
        auto& chosen = best[static_cast<std::size_t>(x)];
        if (top_k > 0) {
          chosen = best_of(mine, keep, one ? o.threads : 1);
        } else {
          chosen.resize(mine.size());
          std::iota(chosen.begin(), chosen.end(), std::size_t{0});
        }
      };
      if (one)
        choose(0);
      else
        parallel_for(static_cast<std::int64_t>(ready.size()), o.threads, choose);
      if (filter)
        for (std::size_t x = 0; x < ready.size(); ++x)
          best[x] = filtered(best[x], ready[x], scores[ready[x] - g0], group, filter, o.threads);
      std::vector<Hit> chosen;
      std::uint64_t share = 0;
      for (std::size_t x = 0; x < ready.size(); ++x) {
        const std::size_t g = ready[x];
        for (std::size_t k : best[x]) {
          chosen.push_back({g * group + k % group, k / group, {}});
          chosen.back().alignment.score = scores[g - g0][k];
        }
        share += kept_share[g];
      }
      finish_kept(chosen, queries, targets, scheme, o, share);
      for (std::size_t x = 0, begin = 0; x < ready.size(); begin += best[x].size(), ++x) {
        const auto mine = chosen.begin() + static_cast<std::ptrdiff_t>(begin);
        kept[ready[x] - g0].assign(mine, mine + static_cast<std::ptrdiff_t>(best[x].size()));
        finished[ready[x] - g0] = true;
      }
      for (; next_done < g1 && finished[next_done - g0]; ++next_done) {
        done(kept[next_done - g0]);
        kept[next_done - g0] = {};
      }
    };
    if (db) {
      WorkerThread<std::size_t> finisher(finish_groups);
      run_scores(g0, g1, group, queries, targets, scheme, scores_only, &*db, scores,
                 [&](std::size_t g) { finisher.push(g); });
      finisher.finish();
    } else {
      std::vector<std::size_t> ready;
      run_scores(g0, g1, group, queries, targets, scheme, scores_only, nullptr, scores,
                 [&](std::size_t g) { ready.push_back(g); });
      finish_groups(ready);
    }
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
