// The host side of database search on the GPU (inter_pair.cuh's kernels):
// targets sorted by length, longest first, laid out in chunks that fit the
// device; the query's profile; the group size G chosen by the query's
// length and the chunk's (few long targets want more lanes a pair to fill
// the device); local score-only passes in 16 bits, the pairs whose scores reach
// the 16-bit bound again in 32 bits, everything else (end cells, the other
// modes) in 32 bits. A database that fits in one chunk stays on the device
// for the next query.
#include <algorithm>
#include <functional>
#include <future>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/batch_layout.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/inter_pair.cuh"

namespace gdp::pairwise {
namespace {

using batch::Layout;
using inter::Params;

constexpr int kRows16 = 16;  // R of score16
constexpr int kRows32 = 8;   // R of score32
constexpr std::size_t kMaxProfileBytes = 160 * 1024;

// Host and device memory kept between calls, which only grows.
struct BatchWorkspace {
  cuda::DeviceArray<std::int8_t> profile;
  cuda::DeviceArray<unsigned> bottom;
  cuda::DeviceArray<int> score, counter;
  cuda::DeviceArray<int4> end;
  cuda::PinnedArray<std::uint8_t> stage;  // the database's slices on their way up
};
BatchWorkspace& workspace() {
  static BatchWorkspace w;
  return w;
}

// The stream of the database's uploads, apart from the kernels' (the legacy
// default stream), so that a streamed chunk goes up while the last one's
// kernels run.
cudaStream_t upload_stream() {
  static cudaStream_t stream = [] {
    cudaStream_t s{};
    GDP_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  return stream;
}

// The chunk's letters to `device`, slice by slice through the two halves
// of a pinned buffer: the cores write one slice while the last is copied.
void upload_letters(const Layout& l, const std::vector<Residues>& targets, int pad, std::uint8_t* device) {
  constexpr std::size_t kSlice = std::size_t{4} << 20;  // more than a pair's letters (2 x 65,536)
  const std::size_t step = l.pairs16 ? 2 : 1, pairs = l.offset.size();
  if (pairs == 0) return;
  const std::size_t slice = std::min(kSlice, l.bytes());
  std::uint8_t* stage = workspace().stage.reserve(2 * kSlice);
  const int threads = static_cast<int>(std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
  cuda::Event copied[2];
  auto byte_of = [&](std::size_t k) { return static_cast<std::size_t>(k < pairs ? l.offset[k] : l.columns) * step; };
  for (std::size_t k0 = 0, k1 = 0, s = 0; k0 < pairs; k0 = k1, s ^= 1) {
    for (k1 = k0 + 1; k1 < pairs && byte_of(k1 + 1) - byte_of(k0) <= slice;) ++k1;
    copied[s].wait();  // this half's last copy is done
    std::uint8_t* out = stage + s * kSlice;
    batch::write_letters(l, k0, k1, targets, pad, out, threads);
    GDP_CUDA_CHECK(cudaMemcpyAsync(device + byte_of(k0), out, byte_of(k1) - byte_of(k0), cudaMemcpyHostToDevice,
                                   upload_stream()));
    copied[s].record(upload_stream());
  }
  GDP_CUDA_CHECK(cudaStreamSynchronize(upload_stream()));
}

}  // namespace

namespace batch {
struct DeviceChunk {
  bool pairs16 = false;
  bool loaded = false;  // holds the whole database
  Layout layout;
  cuda::DeviceArray<std::uint8_t> letters;
  cuda::DeviceArray<long long> offset;
  cuda::DeviceArray<int> length;

  void upload(Layout&& l, const std::vector<Residues>& targets, int pad) {
    layout = std::move(l);
    upload_letters(layout, targets, pad,
                   letters.reserve(std::max<std::size_t>(layout.bytes(), 1), "cudaMalloc (database)"));
    GDP_CUDA_CHECK(cudaMemcpyAsync(offset.reserve(layout.offset.size()), layout.offset.data(),
                                   layout.offset.size() * sizeof(long long), cudaMemcpyHostToDevice, upload_stream()));
    GDP_CUDA_CHECK(cudaMemcpyAsync(length.reserve(layout.length.size()), layout.length.data(),
                                   layout.length.size() * sizeof(int), cudaMemcpyHostToDevice, upload_stream()));
    GDP_CUDA_CHECK(cudaStreamSynchronize(upload_stream()));
  }
};
}  // namespace batch

namespace {
using batch::DeviceChunk;

// How many warps of `kernel` (kBlockThreads a block, `shared` bytes of
// shared memory) the device holds at once.
long long resident_warps(const void* kernel, std::size_t shared, int device) {
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  int fit = 0, sms = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, inter::kBlockThreads, shared));
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<long long>(fit) * (inter::kBlockThreads / inter::kWarp) * sms;
}

// What handing a pass's bottom row to the next pass costs a warp step, a
// group of the warp (its first lane reads the row, its last one writes it,
// each from a pair of its own), in steps: fitted to the search workload's
// kernel times at each G (bench/RESULTS.md).
constexpr double kPassEdgeCost = 0.03;

// The group size G for a query of m rows against the chunk's pairs (longest
// first, so that the last bundles to finish are short), R rows a lane: the
// least time in warp steps, all bundles' steps spread over as many warps as
// run at once, no more than there are bundles. Padding rows, the G - 1
// steps a pass waits to fill and drain, the pass edges' traffic, and too
// few bundles to fill the device (a small G on a database of few targets)
// all count.
int choose_group(std::int64_t m, const Layout& l, int rows_a_lane, const void* kernel, int dim, int device) {
  int best = 32;
  double best_time = 0;
  for (int g : {4, 8, 16, 32}) {
    const std::int64_t tall = static_cast<std::int64_t>(g) * rows_a_lane;
    const std::int64_t passes = (m + tall - 1) / tall;
    const std::size_t shared = static_cast<std::size_t>(passes * tall) * static_cast<std::size_t>(dim + 1);
    const long long resident = resident_warps(kernel, shared, device);
    if (resident == 0) continue;
    const int groups = inter::kWarp / g;
    const double step = passes > 1 ? 1 + kPassEdgeCost * groups : 1;
    double total = 0, bundles = 0;
    for (std::size_t k = 0; k < l.length.size(); k += static_cast<std::size_t>(groups), ++bundles)
      total += static_cast<double>(passes) * (l.length[k] + g - 1) * step;  // a bundle's first pair is its longest
    const double time = total / std::max(1.0, std::min(static_cast<double>(resident), bundles));
    if (best_time == 0 || time < best_time) best = g, best_time = time;
  }
  return best;
}

std::vector<std::int8_t> make_profile(Residues q, const ScoringScheme& s, int rows_padded) {
  std::vector<std::int8_t> prof(static_cast<std::size_t>(s.dim + 1) * static_cast<std::size_t>(rows_padded),
                                inter::kPadScore);
  for (int c = 0; c < s.dim; ++c)
    for (std::size_t i = 0; i < q.size(); ++i)
      prof[static_cast<std::size_t>(c) * rows_padded + i] = static_cast<std::int8_t>(s.score(q[i], static_cast<std::uint8_t>(c)));
  return prof;
}

// Queues `kernel` (Params, then `extra`) on as many blocks as fit, at most
// one warp a bundle, timed by `timer`.
template <class... Extra>
void launch(void (*kernel)(Params, Extra...), const Params& p, std::size_t shared, int device,
            cuda::KernelTimer& timer, Extra... extra) {
  const long long resident = resident_warps(reinterpret_cast<const void*>(kernel), shared, device);
  if (resident == 0) throw RunError("the database-search kernel does not fit on this device (shared memory)");
  const int groups = inter::kWarp / p.group;
  const long long bundles = (p.pairs + groups - 1) / groups;
  const long long warps_a_block = inter::kBlockThreads / inter::kWarp;
  const int blocks = static_cast<int>(std::min(resident / warps_a_block, (bundles + warps_a_block - 1) / warps_a_block));
  GDP_CUDA_CHECK(cudaMemsetAsync(p.next_bundle, 0, sizeof(int), 0));
  timer.start();
  kernel<<<blocks, inter::kBlockThreads, shared>>>(p, extra...);
  GDP_CUDA_CHECK(cudaGetLastError());
  timer.stop();
  ++gpu_stats_counters().passes;
}

// A query's kernel over a chunk, queued with the copy of its results into
// pinned memory; collected while the next query's kernel runs.
struct InFlight {
  cuda::KernelTimer timer;
  cuda::Event copied;
  cuda::PinnedArray<int> scores;  // score16's, two a pair
  cuda::PinnedArray<int4> ends;   // score32's
};
InFlight& in_flight(std::size_t k) {
  static InFlight slots[2];
  return slots[k % 2];
}

void enqueue(Residues q, const DeviceChunk& c, const ScoringScheme& scheme, const Shape& shape, int device,
             InFlight& f) {
  BatchWorkspace& w = workspace();
  const Layout& l = c.layout;
  const std::int64_t m = static_cast<std::int64_t>(q.size());
  const int rows = c.pairs16 ? kRows16 : kRows32;
  const void* kernel = c.pairs16      ? reinterpret_cast<const void*>(inter::score16<kRows16>)
                       : shape.local ? reinterpret_cast<const void*>(inter::score32<kRows32, true>)
                                     : reinterpret_cast<const void*>(inter::score32<kRows32, false>);
  const int group = choose_group(m, l, rows, kernel, scheme.dim, device);
  const int tall = group * rows;
  const int passes = static_cast<int>((m + tall - 1) / tall);
  const int rows_padded = passes * tall;
  const auto prof = make_profile(q, scheme, rows_padded);
  // From pageable memory: staged at once, copied in stream order (after the
  // kernel before it, which reads the profile at its start).
  GDP_CUDA_CHECK(cudaMemcpyAsync(w.profile.reserve(prof.size()), prof.data(), prof.size(), cudaMemcpyHostToDevice, 0));

  Params p{};
  p.profile = w.profile.get();
  p.dim = scheme.dim, p.rows_padded = rows_padded, p.m = static_cast<int>(m);
  p.group = group, p.passes = passes;
  p.letters = c.letters.get(), p.offset = c.offset.get(), p.length = c.length.get();
  p.pairs = static_cast<int>(l.offset.size());
  p.bottom = passes > 1 ? w.bottom.reserve(2 * static_cast<std::size_t>(l.columns), "cudaMalloc (pass edges)") : nullptr;
  p.next_bundle = w.counter.reserve(1);
  const GapCosts g = gap_costs(scheme);
  p.costs = {scheme.gap_open, g.open_extend, g.extend, shape.free_top ? 1 : 0, shape.left_open};
  p.overflow_at = overflow_bound16(scheme);
  const std::size_t shared = prof.size();
  const std::size_t pairs = l.offset.size();
  if (c.pairs16) {
    p.score = w.score.reserve(2 * pairs);
    launch(inter::score16<kRows16>, p, shared, device, f.timer);
    GDP_CUDA_CHECK(cudaMemcpyAsync(f.scores.reserve(2 * pairs), p.score, 2 * pairs * sizeof(int),
                                   cudaMemcpyDeviceToHost, 0));
  } else {
    p.end = w.end.reserve(pairs);
    if (shape.local)
      launch(inter::score32<kRows32, true>, p, shared, device, f.timer, shape.end);
    else
      launch(inter::score32<kRows32, false>, p, shared, device, f.timer, shape.end);
    GDP_CUDA_CHECK(cudaMemcpyAsync(f.ends.reserve(pairs), p.end, pairs * sizeof(int4), cudaMemcpyDeviceToHost, 0));
  }
  f.copied.record();
}

// Waits for f's results and files them under their targets; the targets
// whose 16-bit scores reached the bound go to `overflowed`.
void collect(const DeviceChunk& c, const ScoringScheme& scheme, InFlight& f, std::vector<PassResult>& results,
             std::vector<std::int64_t>& overflowed) {
  f.copied.wait();
  add_gpu_kernel_time(f.timer.seconds(), false);
  const Layout& l = c.layout;
  if (!c.pairs16) {
    for (std::size_t k = 0; k < l.offset.size(); ++k) {
      const int4 e = f.ends.get()[k];
      results[static_cast<std::size_t>(l.first[k])] = {e.x, e.y, e.z};
    }
    return;
  }
  const int overflow_at = overflow_bound16(scheme);
  for (std::size_t k = 0; k < l.offset.size(); ++k)
    for (int half = 0; half < 2; ++half) {
      const std::int64_t t = half ? l.second[k] : l.first[k];
      if (t < 0) continue;
      const int s = f.scores.get()[2 * k + static_cast<std::size_t>(half)];
      if (s >= overflow_at) overflowed.push_back(t);
      results[static_cast<std::size_t>(t)] = {s, 0, 0};
    }
}

struct Request {
  Shape shape;
  int device;
  std::int64_t chunk_residues;
  Progress* progress;
};
using Results = std::vector<PassResult>;

// Each query against every target through the kernel of `pairs16`, into
// results[k] (sized to the targets when first filed, from `spare` where it
// holds a finished query's), and the targets whose
// 16-bit scores reached the bound into overflowed[k]; finished(k) once
// query k has been through every chunk (while the next query's kernel
// runs). A database that fits in one chunk goes to `cached` (when given)
// and stays for later calls; one that does not is streamed, each chunk
// uploaded once for all the queries.
void score_all(std::span<const Residues> queries, const std::vector<Residues>& targets, const ScoringScheme& scheme,
               const Request& r, bool pairs16, DeviceChunk* cached, std::vector<Results>& results,
               std::vector<std::vector<std::int64_t>>& overflowed, std::vector<Results>& spare,
               const std::function<void(std::size_t)>& finished) {
  // Query k's kernel queued before query k - 1's results are filed.
  auto run_queries = [&](const DeviceChunk& chunk, bool last_chunk) {
    for (std::size_t k = 0; k <= queries.size(); ++k) {
      if (k < queries.size()) enqueue(queries[k], chunk, scheme, r.shape, r.device, in_flight(k));
      if (k == 0) continue;
      if (results[k - 1].empty()) {  // a finished query's, where there is one
        if (!spare.empty()) results[k - 1] = std::move(spare.back()), spare.pop_back();
        results[k - 1].resize(targets.size());
      }
      collect(chunk, scheme, in_flight(k - 1), results[k - 1], overflowed[k - 1]);
      if (r.progress) r.progress->add(static_cast<std::uint64_t>(chunk.layout.residues) * queries[k - 1].size());
      if (last_chunk) finished(k - 1);
    }
  };
  if (cached && cached->loaded) return run_queries(*cached, true);
  const std::vector<std::int64_t> sorted = batch::by_length(targets);
  std::int64_t budget = r.chunk_residues;
  if (budget <= 0) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // About 10 bytes a residue with the pass edges; two chunks when streamed.
    budget = static_cast<std::int64_t>(free_bytes / 8 / 10);
  }
  std::vector<std::size_t> bounds{0};
  for (std::size_t k = 0, residues = 0; k < sorted.size(); ++k) {
    residues += targets[static_cast<std::size_t>(sorted[k])].size();
    const bool pair_done = !pairs16 || (k - bounds.back()) % 2 == 1;
    if (residues >= static_cast<std::size_t>(budget) && pair_done && k + 1 < sorted.size()) bounds.push_back(k + 1), residues = 0;
  }
  bounds.push_back(sorted.size());
  GpuStats& stats = gpu_stats_counters();
  stats.database_chunks = std::max(stats.database_chunks, static_cast<int>(bounds.size()) - 1);
  if (bounds.size() == 2 && cached) {  // it fits: it stays
    cached->pairs16 = pairs16;
    cached->upload(batch::lay_out(sorted, 0, sorted.size(), targets, pairs16), targets, scheme.dim);
    cached->loaded = true;
    return run_queries(*cached, true);
  }
  // Streamed: chunk b + 1 is laid out and uploaded (by another thread, on
  // the upload stream) while chunk b's kernels run.
  DeviceChunk streamed[2];
  auto upload = [&](std::size_t b) {
    GDP_CUDA_CHECK(cudaSetDevice(r.device));
    DeviceChunk& c = streamed[b % 2];
    c.pairs16 = pairs16;
    c.upload(batch::lay_out(sorted, bounds[b], bounds[b + 1], targets, pairs16), targets, scheme.dim);
  };
  upload(0);
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
    std::future<void> next;
    if (b + 2 < bounds.size()) next = std::async(std::launch::async, upload, b + 1);
    run_queries(streamed[b % 2], b + 2 == bounds.size());
    if (next.valid()) next.get();
  }
}

}  // namespace

// The database's chunks of each kind that stay on the device.
struct BatchDatabase::Chunks {
  batch::DeviceChunk sixteen, thirty_two;
};

void batch_release_cuda(BatchDatabase::Chunks* chunks) { delete chunks; }

bool batch_can_score_cuda(std::int64_t m, const ScoringScheme& scheme) {
  if (scheme.max_abs_score() > 127) return false;
  const std::int64_t tall = 32 * std::max(kRows16, kRows32);
  const std::int64_t rows_padded = (m + tall - 1) / tall * tall;
  return m > 0 && static_cast<std::size_t>(rows_padded) * static_cast<std::size_t>(scheme.dim + 1) <= kMaxProfileBytes;
}

void batch_score_cuda(std::span<const Residues> queries, const std::vector<Residues>& targets,
                      const ScoringScheme& scheme, const Shape& shape, bool ends, int device,
                      std::int64_t chunk_residues, Progress* progress, BatchDatabase::Chunks*& chunks,
                      const BatchDone& done) {
  for (const Residues& q : queries)
    if (!batch_can_score_cuda(static_cast<std::int64_t>(q.size()), scheme))
      throw RunError("this query or scoring is not supported by the GPU database search");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  if (!chunks) chunks = new BatchDatabase::Chunks;
  const bool sixteen = shape.local && shape.end == End::anywhere && !ends;
  std::vector<Results> results(queries.size());
  std::vector<std::vector<std::int64_t>> overflowed(queries.size());
  std::vector<std::size_t> empty_targets;
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (targets[t].empty()) empty_targets.push_back(t);
  std::vector<Results> spare;
  auto finish = [&](std::size_t k) {
    for (std::size_t t : empty_targets) results[k][t] = score_pass_scalar(queries[k], targets[t], scheme, shape);
    done(k, results[k]);
    spare.push_back(std::move(results[k]));
  };
  const Request r{shape, device, chunk_residues, progress};
  score_all(queries, targets, scheme, r, sixteen, sixteen ? &chunks->sixteen : &chunks->thirty_two, results,
            overflowed, spare, [&](std::size_t k) {
              if (overflowed[k].empty()) finish(k);
            });
  for (std::size_t k = 0; k < queries.size(); ++k) {
    if (overflowed[k].empty()) continue;
    // The scores that reached the 16-bit bound, again in 32 bits.
    std::vector<Residues> again;
    for (std::int64_t t : overflowed[k]) again.push_back(targets[static_cast<std::size_t>(t)]);
    std::vector<Results> redone(1), no_spare;
    std::vector<std::vector<std::int64_t>> none(1);
    score_all(queries.subspan(k, 1), again, scheme, {shape, device, chunk_residues, nullptr}, false, nullptr, redone,
              none, no_spare, [](std::size_t) {});
    for (std::size_t x = 0; x < overflowed[k].size(); ++x)
      results[k][static_cast<std::size_t>(overflowed[k][x])] = redone[0][x];
    gpu_stats_counters().overflow_reruns += static_cast<int>(overflowed[k].size());
    finish(k);
  }
}

}  // namespace gdp::pairwise
