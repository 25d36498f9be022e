// The host side of database search on the GPU (inter_pair.cuh's kernels):
// targets sorted by length, longest first, laid out in chunks that fit the
// device (batch_chunk.cuh); the query's profile; the group size G chosen by
// the query's length and the chunk's (few long targets want more lanes a
// pair to fill the device); local score-only passes in 16 bits, the pairs
// whose scores reach the 16-bit bound again in 32 bits, everything else
// (end cells, the other modes) in 32 bits. A database that fits in one
// chunk stays on the device for the next query; its first query starts on
// the first pieces of it while the rest goes up. Kernels go to a ring of
// streams, so that one query's kernels start as the last one's drain.
#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/batch_layout.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/cuda/batch_chunk.cuh"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/inter_pair.cuh"

namespace gdp::pairwise {
namespace {

using batch::ChunkUpload;
using batch::DeviceChunk;
using batch::Layout;
using inter::Params;

constexpr std::array<int, 2> kRows16{12, 16};  // score16's R, each instantiated by score16_kernel
constexpr int kRows32 = 8;                      // score32's R
constexpr std::size_t kMaxProfileBytes = 160 * 1024;

// The kernels' streams, taken in turn: each kernel on the next one, so that
// a kernel's blocks start as the blocks of those before it finish (the
// pieces of a first query, or the next query, overlap the last one's tail).
class StreamRing {
 public:
  static constexpr int kStreams = 8;
  StreamRing() = default;
  StreamRing(const StreamRing&) = delete;
  StreamRing& operator=(const StreamRing&) = delete;
  ~StreamRing() {
    for (cudaStream_t s : streams_)
      if (s) cudaStreamDestroy(s);
  }
  cudaStream_t next() {
    cudaStream_t& s = streams_[next_++ % kStreams];
    if (!s) GDP_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }

 private:
  std::array<cudaStream_t, kStreams> streams_{};
  std::size_t next_ = 0;
};

// The time the search's kernels kept the device busy: the union of their
// spans, which overlap where kernels of several streams run at once.
struct BusyTime {
  cuda::KernelTimer origin;  // its start: the search's
  std::vector<std::pair<double, double>> spans;
  double seconds() {
    std::sort(spans.begin(), spans.end());
    double total = 0, reach = 0;
    for (const auto& [a, b] : spans) {
      if (b <= reach) continue;
      total += b - std::max(a, reach);
      reach = b;
    }
    return total;
  }
  double first_start() const {
    double first = spans.empty() ? 0 : spans.front().first;
    for (const auto& span : spans) first = std::min(first, span.first);
    return first;
  }
};

// One kernel of a query: its span, and its results' copy to the host.
struct KernelRun {
  cudaStream_t stream{};
  std::size_t k0 = 0, k1 = 0;  // its pairs
  cuda::KernelTimer timer;
  cuda::Event copied;
};

// A query in flight: its buffers on the device, its kernels (one, or one a
// piece), and its results on the host. Two slots, for query k and k + 1;
// a slot is reused only once its last query's results are collected.
struct Slot {
  cuda::DeviceArray<std::int8_t> profile;
  cuda::Event profiled;  // the profile's copy has landed
  cuda::DeviceArray<unsigned> bottom;
  cuda::DeviceArray<int> score, counters;
  cuda::DeviceArray<int4> end;
  cuda::PinnedArray<int> scores;  // score16's, two a pair
  cuda::PinnedArray<int4> ends;   // score32's
  std::vector<std::unique_ptr<KernelRun>> runs;
  std::size_t in_use = 0;  // runs of its query
  KernelRun& next_run() {
    if (in_use == runs.size()) runs.push_back(std::make_unique<KernelRun>());
    return *runs[in_use++];
  }
};
// A search's own streams, slots and uploads on its device (one a device,
// where several search side by side), made with that device current.
struct Queue {
  StreamRing streams;
  Slot slots[2];
  batch::Uploads uploads;
};

// How many warps of `kernel` (kBlockThreads a block, `shared` bytes of
// shared memory) the device holds at once; 0 where a block may not have
// that much. Worked out once for each kernel, size and device (the first
// call loads the kernel, which CUDA does at its first use).
long long resident_warps(const void* kernel, std::size_t shared, int device) {
  struct Known {
    const void* kernel;
    std::size_t shared;
    int device;
    long long warps;
  };
  static std::mutex mutex;
  static std::vector<Known> known;
  const std::lock_guard lock(mutex);
  for (const Known& k : known)
    if (k.kernel == kernel && k.shared == shared && k.device == device) return k.warps;
  int most = 0, fit = 0, sms = 0;
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // Every launch may have up to the most, so that no launch needs it set again.
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  if (shared <= static_cast<std::size_t>(most))
    GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, inter::kBlockThreads, shared));
  known.push_back({kernel, shared, device, static_cast<long long>(fit) * (inter::kBlockThreads / inter::kWarp) * sms});
  return known.back().warps;
}

using Kernel16 = void (*)(Params);
// score16's kernel of `rows` rows a lane, one of kRows16.
Kernel16 score16_kernel(int rows) {
  return [rows]<std::size_t... K>(std::index_sequence<K...>) {
    Kernel16 kernel = nullptr;
    ((rows == kRows16[K] ? kernel = inter::score16<kRows16[K]> : kernel), ...);
    return kernel;
  }(std::make_index_sequence<kRows16.size()>{});
}

// What handing a pass's bottom row to the next pass costs a warp step, a
// group of the warp (its first lane reads the row, its last one writes it,
// each from a pair of its own), in steps: fitted to the search workload's
// kernel times at each G (bench/RESULTS.md).
constexpr double kPassEdgeCost = 0.03;
// What a lane's step costs besides its rows (the column's letters and
// profile words, the hand-over, the loop), in rows: fitted to the search
// workload's kernel times at 12 and 16 rows a lane (bench/RESULTS.md).
constexpr double kStepOverheadRows = 7;

// The kernel's shape: G lanes a pair, R rows a lane.
struct GroupShape {
  int group, rows;
};

// The shape for a query of m rows against the chunk's pairs (longest
// first, so that the last bundles to finish are short), R among
// `rows_choices`: the least time, in warp steps of 16 rows at the device's
// full rate. Padding rows, the G - 1 steps a pass waits to fill and drain,
// the pass edges' traffic, a step's cost besides its rows, and too few
// bundles to fill the device (a small G on a database of few targets; the
// rate falls with the share of resident warps that have a bundle) all
// count. A kernel that holds more warps at once has no higher full rate.
GroupShape choose_shape(std::int64_t m, const Layout& l, std::span<const int> rows_choices,
                        const std::function<const void*(int rows)>& kernel, int dim, int device) {
  GroupShape best{32, rows_choices.back()};
  double best_time = 0;
  for (const int rows : rows_choices)
    for (const int g : {4, 8, 16, 32}) {
      const std::int64_t tall = static_cast<std::int64_t>(g) * rows;
      const std::int64_t passes = (m + tall - 1) / tall;
      const std::size_t shared = static_cast<std::size_t>(passes * tall) * static_cast<std::size_t>(dim + 1);
      const long long resident = resident_warps(kernel(rows), shared, device);
      if (resident == 0) continue;
      const int groups = inter::kWarp / g;
      const double step = (passes > 1 ? 1 + kPassEdgeCost * groups : 1) * (rows + kStepOverheadRows) /
                          (16 + kStepOverheadRows);
      double total = 0, bundles = 0;
      for (std::size_t k = 0; k < l.length.size(); k += static_cast<std::size_t>(groups), ++bundles)
        total += static_cast<double>(passes) * (l.length[k] + g - 1) * step;  // a bundle's first pair is its longest
      const double time = total * std::max(1.0, static_cast<double>(resident) / std::max(1.0, bundles));
      if (best_time == 0 || time < best_time) best = {g, rows}, best_time = time;
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

// Queues `kernel` (Params, then `extra`) on `stream`, on as many blocks as
// fit (`resident` warps at once), at most one warp a bundle, timed by `timer`.
template <class... Extra>
void launch(void (*kernel)(Params, Extra...), const Params& p, std::size_t shared, long long resident,
            cudaStream_t stream, cuda::KernelTimer& timer, Extra... extra) {
  const int groups = inter::kWarp / p.group;
  const long long bundles = (p.pairs + groups - 1) / groups;
  const long long warps_a_block = inter::kBlockThreads / inter::kWarp;
  const int blocks = static_cast<int>(std::min(resident / warps_a_block, (bundles + warps_a_block - 1) / warps_a_block));
  GDP_CUDA_CHECK(cudaMemsetAsync(p.next_bundle, 0, sizeof(int), stream));
  timer.start(stream);
  kernel<<<blocks, inter::kBlockThreads, shared, stream>>>(p, extra...);
  GDP_CUDA_CHECK(cudaGetLastError());
  timer.stop(stream);
  count_gpu_stats([](GpuStats& s) { ++s.passes; });
}

// Query q against the chunk's pairs, queued in slot f: one kernel, or,
// where `upload` still has the chunk's letters to send, one a piece, each
// launched once its letters are sent (the host writes the next piece's
// while the last one's kernel runs). Each kernel goes on the next stream,
// its results' copy to the slot's pinned memory after it.
void enqueue(Residues q, const DeviceChunk& c, const ScoringScheme& scheme, const Shape& shape, int device,
             int forced_rows16, StreamRing& streams, Slot& f, ChunkUpload* upload) {
  const Layout& l = c.layout;
  const std::int64_t m = static_cast<std::int64_t>(q.size());
  const auto kernel = [&](int rows) {
    return c.pairs16     ? reinterpret_cast<const void*>(score16_kernel(rows))
           : shape.local ? reinterpret_cast<const void*>(inter::score32<kRows32, true>)
                         : reinterpret_cast<const void*>(inter::score32<kRows32, false>);
  };
  const std::span<const int> rows_choices = !c.pairs16       ? std::span<const int>(&kRows32, 1)
                                            : forced_rows16 > 0 ? std::span<const int>(&forced_rows16, 1)
                                                                : std::span<const int>(kRows16);
  const auto [group, rows] = choose_shape(m, l, rows_choices, kernel, scheme.dim, device);
  const int tall = group * rows;
  const int passes = static_cast<int>((m + tall - 1) / tall);
  const int rows_padded = passes * tall;
  const auto prof = make_profile(q, scheme, rows_padded);
  const std::size_t shared = prof.size();
  const long long resident = resident_warps(kernel(rows), shared, device);
  if (resident == 0) throw RunError("the database-search kernel does not fit on this device (shared memory)");
  // The slot's last query is done with it. A copy from pageable memory
  // returns once the bytes are staged, not landed, and the kernels' streams
  // do not wait for the default stream's work: they wait for the event.
  GDP_CUDA_CHECK(cudaMemcpy(f.profile.reserve(prof.size()), prof.data(), prof.size(), cudaMemcpyHostToDevice));
  f.profiled.record();

  const std::vector<std::size_t> ends = upload ? batch::piece_ends(l) : std::vector<std::size_t>{l.offset.size()};
  const std::size_t pairs = l.offset.size();
  Params p{};
  p.profile = f.profile.get();
  p.dim = scheme.dim, p.rows_padded = rows_padded, p.m = static_cast<int>(m);
  p.group = group, p.passes = passes;
  p.letters = c.letters.get();
  p.bottom = passes > 1 ? f.bottom.reserve(2 * static_cast<std::size_t>(l.columns), "cudaMalloc (pass edges)") : nullptr;
  const GapCosts g = gap_costs(scheme);
  p.costs = {scheme.gap_open, g.open_extend, g.extend, shape.free_top ? 1 : 0, shape.left_open};
  p.overflow_at = overflow_bound16(scheme);
  int* counters = f.counters.reserve(ends.size());
  int* score = c.pairs16 ? f.score.reserve(2 * pairs) : nullptr;
  int4* end = c.pairs16 ? nullptr : f.end.reserve(pairs);
  f.in_use = 0;
  for (std::size_t x = 0, k0 = 0; x < ends.size(); k0 = ends[x++]) {
    const std::size_t k1 = ends[x];
    const cudaStream_t stream = streams.next();
    f.profiled.make_wait(stream);
    if (upload) {
      upload->send(k1);
      upload->ready_in(stream);
    }
    Params piece = p;
    piece.offset = c.offset.get() + k0, piece.length = c.length.get() + k0;
    piece.pairs = static_cast<int>(k1 - k0);
    piece.next_bundle = counters + x;
    KernelRun& run = f.next_run();
    run.stream = stream, run.k0 = k0, run.k1 = k1;
    if (c.pairs16) {
      piece.score = score + 2 * k0;
      launch(score16_kernel(rows), piece, shared, resident, stream, run.timer);
    } else {
      piece.end = end + k0;
      if (shape.local)
        launch(inter::score32<kRows32, true>, piece, shared, resident, stream, run.timer, shape.end);
      else
        launch(inter::score32<kRows32, false>, piece, shared, resident, stream, run.timer, shape.end);
    }
  }
  // The results' copies, each after its kernel: the page-locked memory they
  // go to is made (where it must grow) while the kernels run.
  int* scores = c.pairs16 ? f.scores.reserve(2 * pairs) : nullptr;
  int4* ends_host = c.pairs16 ? nullptr : f.ends.reserve(pairs);
  for (std::size_t x = 0; x < f.in_use; ++x) {
    KernelRun& run = *f.runs[x];
    if (c.pairs16)
      GDP_CUDA_CHECK(cudaMemcpyAsync(scores + 2 * run.k0, score + 2 * run.k0, 2 * (run.k1 - run.k0) * sizeof(int),
                                     cudaMemcpyDeviceToHost, run.stream));
    else
      GDP_CUDA_CHECK(cudaMemcpyAsync(ends_host + run.k0, end + run.k0, (run.k1 - run.k0) * sizeof(int4),
                                     cudaMemcpyDeviceToHost, run.stream));
    run.copied.record(run.stream);
  }
}

// Waits for slot f's results and files them under their targets; the
// targets whose 16-bit scores reached the bound go to `overflowed`.
void collect(const DeviceChunk& c, const ScoringScheme& scheme, Slot& f, BusyTime& busy, int threads,
             std::vector<PassResult>& results, std::vector<std::int64_t>& overflowed) {
  for (std::size_t x = 0; x < f.in_use; ++x) {
    KernelRun& run = *f.runs[x];
    run.copied.wait();
    busy.spans.push_back(run.timer.span_after(busy.origin));
  }
  if (c.pairs16)
    batch::file_scores16(c.layout, f.scores.get(), overflow_bound16(scheme), results, overflowed, threads);
  else
    batch::file_ends(c.layout, reinterpret_cast<const int*>(f.ends.get()), results, threads);
}

struct Request {
  Shape shape;
  int device;
  Queue* queue;
  SearchTuning tuning;
  Progress* progress;
  BusyTime* busy;
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
void score_all(std::span<const Residues> queries, const std::vector<Residues>& targets,
               const batch::ByLength& sorted, const ScoringScheme& scheme, const Request& r, bool pairs16,
               DeviceChunk* cached, std::vector<Results>& results,
               std::vector<std::vector<std::int64_t>>& overflowed, std::vector<Results>& spare,
               const std::function<void(std::size_t)>& finished) {
  // Query k's kernels queued before query k - 1's results are filed; the
  // first query's sends the chunk's letters where `upload` is given.
  auto run_queries = [&](const DeviceChunk& chunk, bool last_chunk, ChunkUpload* upload) {
    for (std::size_t k = 0; k <= queries.size(); ++k) {
      if (k < queries.size()) {
        enqueue(queries[k], chunk, scheme, r.shape, r.device, r.tuning.rows16, r.queue->streams, r.queue->slots[k % 2],
                k == 0 ? upload : nullptr);
        if (k == 0 && upload) upload->finish();
      }
      if (k == 0) continue;
      if (results[k - 1].empty()) {  // a finished query's, where there is one
        if (!spare.empty()) results[k - 1] = std::move(spare.back()), spare.pop_back();
        results[k - 1].resize(targets.size());
      }
      collect(chunk, scheme, r.queue->slots[(k - 1) % 2], *r.busy, r.queue->uploads.threads, results[k - 1],
              overflowed[k - 1]);
      if (r.progress) r.progress->add(static_cast<std::uint64_t>(chunk.layout.residues) * queries[k - 1].size());
      if (last_chunk) finished(k - 1);
    }
  };
  if (cached && cached->loaded) return run_queries(*cached, true, nullptr);
  std::int64_t budget = r.tuning.chunk_residues;
  if (budget <= 0) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // About 10 bytes a residue with the pass edges; two chunks when streamed.
    budget = static_cast<std::int64_t>(free_bytes / 8 / 10);
  }
  std::vector<std::size_t> bounds{0};
  const std::size_t taken = sorted.index.size();
  if (sorted.residues >= static_cast<std::uint64_t>(budget))  // else one chunk
    for (std::size_t k = 0, residues = 0; k < taken; ++k) {
      residues += static_cast<std::size_t>(sorted.length[k]);
      const bool pair_done = !pairs16 || (k - bounds.back()) % 2 == 1;
      if (residues >= static_cast<std::size_t>(budget) && pair_done && k + 1 < taken) bounds.push_back(k + 1), residues = 0;
    }
  bounds.push_back(taken);
  count_gpu_stats([&](GpuStats& s) { s.database_chunks = std::max(s.database_chunks, static_cast<int>(bounds.size()) - 1); });
  if (bounds.size() == 2 && cached) {  // it fits: it stays
    cached->pairs16 = pairs16;
    ChunkUpload upload(r.queue->uploads, *cached, batch::lay_out(sorted, 0, taken, pairs16, std::min(r.queue->uploads.threads, batch::layout_threads(taken))), targets, scheme.dim);
    run_queries(*cached, true, &upload);
    cached->loaded = true;
    return;
  }
  // Streamed: chunk b + 1 is laid out and uploaded (by another thread)
  // while chunk b's kernels run.
  DeviceChunk streamed[2];
  const int c_threads = r.queue->uploads.threads;
  auto upload = [&](std::size_t b) {
    GDP_CUDA_CHECK(cudaSetDevice(r.device));
    DeviceChunk& c = streamed[b % 2];
    c.pairs16 = pairs16;
    ChunkUpload u(r.queue->uploads, c, batch::lay_out(sorted, bounds[b], bounds[b + 1], pairs16,
                                       std::min(c_threads, batch::layout_threads(bounds[b + 1] - bounds[b]))),
                  targets, scheme.dim);
    u.send(c.layout.offset.size());
    u.finish();
  };
  upload(0);
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
    std::future<void> next;
    if (b + 2 < bounds.size()) next = std::async(std::launch::async, upload, b + 1);
    run_queries(streamed[b % 2], b + 2 == bounds.size(), nullptr);
    if (next.valid()) next.get();
  }
}

}  // namespace

// A search's side on one device: its chunks of each kind that stay there,
// and its streams, slots and uploads (with its host threads).
struct BatchDatabase::Chunks {
  batch::DeviceChunk sixteen, thirty_two;
  Queue queue;
};

void batch_release_cuda(BatchDatabase::Chunks* chunks, int device) {
  if (!chunks) return;
  int current = 0;
  cudaGetDevice(&current);
  cudaSetDevice(device);
  delete chunks;
  cudaSetDevice(current);
}

bool batch_can_score_cuda(std::int64_t m, const ScoringScheme& scheme) {
  if (scheme.max_abs_score() > 127) return false;
  const std::int64_t tall = 32 * std::max(kRows16.back(), kRows32);
  const std::int64_t rows_padded = (m + tall - 1) / tall * tall;
  return m > 0 && static_cast<std::size_t>(rows_padded) * static_cast<std::size_t>(scheme.dim + 1) <= kMaxProfileBytes;
}

void batch_stage_cuda(int device, int threads, BatchDatabase::Chunks*& chunks) {
  GDP_CUDA_CHECK(cudaSetDevice(device));
  chunks = new BatchDatabase::Chunks;
  chunks->queue.uploads.threads = threads;
  for (const int rows : kRows16) resident_warps(reinterpret_cast<const void*>(score16_kernel(rows)), 0, device);
}

std::span<const int> batch_rows16_cuda() { return kRows16; }

void batch_score_cuda(std::span<const Residues> queries, const std::vector<Residues>& targets,
                      const batch::ByLength& sorted, const ScoringScheme& scheme, const Shape& shape, bool ends, int device,
                      const SearchTuning& tuning, Progress* progress, BatchDatabase::Chunks*& chunks,
                      const BatchDone& done, BatchScoreTimes& times) {
  const Timer timer;
  for (const Residues& q : queries)
    if (!batch_can_score_cuda(static_cast<std::int64_t>(q.size()), scheme))
      throw RunError("this query or scoring is not supported by the GPU database search");
  if (queries.empty()) return;
  GDP_CUDA_CHECK(cudaSetDevice(device));
  if (!chunks) chunks = new BatchDatabase::Chunks;
  Queue& queue = chunks->queue;
  BusyTime busy;
  busy.origin.start();
  const bool sixteen = shape.local && shape.end == End::anywhere && !ends;
  std::vector<Results> results(queries.size());
  std::vector<std::vector<std::int64_t>> overflowed(queries.size());
  std::vector<Results> spare;
  auto finish = [&](std::size_t k) {
    for (const std::int64_t t : sorted.empty) results[k][static_cast<std::size_t>(t)] = score_pass_scalar(queries[k], targets[t], scheme, shape);
    done(k, results[k]);
    spare.push_back(std::move(results[k]));
  };
  const Request r{shape, device, &queue, tuning, progress, &busy};
  score_all(queries, targets, sorted, scheme, r, sixteen, sixteen ? &chunks->sixteen : &chunks->thirty_two, results,
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
    score_all(queries.subspan(k, 1), again, batch::by_length(again), scheme, {shape, device, &queue, tuning, nullptr, &busy}, false, nullptr, redone,
              none, no_spare, [](std::size_t) {});
    for (std::size_t x = 0; x < overflowed[k].size(); ++x)
      results[k][static_cast<std::size_t>(overflowed[k][x])] = redone[0][x];
    count_gpu_stats([&](GpuStats& s) { s.overflow_reruns += static_cast<int>(overflowed[k].size()); });
    finish(k);
  }
  times.kernels = busy.seconds();
  times.first_kernel = busy.first_start();
  times.total = timer.seconds();
  add_gpu_kernel_time(times.kernels, false);
}

}  // namespace gdp::pairwise
