// The host side of database search on the GPU (inter_pair.cuh's kernels):
// targets sorted by length, longest first, laid out in chunks that fit the
// device; the query's profile; the group size G chosen by the query's
// length; local score-only passes in 16 bits, the pairs whose scores reach
// the 16-bit bound again in 32 bits, everything else (end cells, the other
// modes) in 32 bits. A database that fits in one chunk stays on the device
// for the next query.
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/inter_pair.cuh"

namespace gdp::pairwise {
namespace {

using inter::Params;

constexpr int kRows16 = 16;  // R of score16
constexpr int kRows32 = 8;   // R of score32
constexpr std::size_t kMaxProfileBytes = 160 * 1024;

// The group size G for a query of m rows against targets of about n
// columns, R rows a lane: the fewest cells computed, padding rows and the
// G - 1 columns a group waits to fill and drain included.
int choose_group(std::int64_t m, double n, int rows_a_lane) {
  int best = 32;
  double best_cost = 0;
  for (int g : {4, 8, 16, 32}) {
    const std::int64_t tall = static_cast<std::int64_t>(g) * rows_a_lane;
    const std::int64_t passes = (m + tall - 1) / tall;
    const double cost = static_cast<double>(passes * tall) * (n + g - 1);
    if (g == 4 || cost < best_cost) best = g, best_cost = cost;
  }
  return best;
}

}  // namespace

// The targets of one chunk, laid out for one kernel (named: the database's
// chunks hold them).
namespace batch {
struct Layout {
  bool pairs16 = false;
  std::vector<std::uint8_t> letters;
  std::vector<long long> offset;
  std::vector<int> length;
  std::vector<std::int64_t> first, second;  // target indices a pair (second -1: none; only pairs16)
  std::int64_t residues = 0;
};

}  // namespace batch

namespace {
using batch::Layout;

Layout lay_out(const std::vector<std::int64_t>& sorted, std::size_t begin, std::size_t end,
               const std::vector<Residues>& targets, bool pairs16, int pad) {
  Layout l;
  l.pairs16 = pairs16;
  long long column = 0;
  const std::size_t step = pairs16 ? 2 : 1;
  for (std::size_t k = begin; k < end; k += step) {
    const std::int64_t a = sorted[k], b = pairs16 && k + 1 < end ? sorted[k + 1] : -1;
    const std::size_t na = targets[static_cast<std::size_t>(a)].size();
    l.first.push_back(a);
    l.second.push_back(b);
    l.offset.push_back(column);
    l.length.push_back(static_cast<int>(na));
    column += static_cast<long long>(na);
    l.residues += static_cast<std::int64_t>(na + (b >= 0 ? targets[static_cast<std::size_t>(b)].size() : 0));
  }
  // The letters, written by every core (a database is hundreds of MB).
  l.letters.resize(static_cast<std::size_t>(column) * step);
  const std::size_t pairs = l.offset.size();
  const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (std::size_t k = w; k < pairs; k += workers) {
        const Residues ta = targets[static_cast<std::size_t>(l.first[k])];
        std::uint8_t* out = l.letters.data() + static_cast<std::size_t>(l.offset[k]) * step;
        if (!pairs16) {
          std::copy(ta.begin(), ta.end(), out);
          continue;
        }
        const Residues tb = l.second[k] >= 0 ? targets[static_cast<std::size_t>(l.second[k])] : Residues{};
        for (std::size_t j = 0; j < ta.size(); ++j) {
          out[2 * j] = ta[j];
          out[2 * j + 1] = j < tb.size() ? tb[j] : static_cast<std::uint8_t>(pad);
        }
      }
    });
  for (auto& t : threads) t.join();
  return l;
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

  void upload(Layout&& l) {
    layout = std::move(l);
    GDP_CUDA_CHECK(cudaMemcpy(letters.reserve(std::max<std::size_t>(layout.letters.size(), 1), "cudaMalloc (database)"),
                              layout.letters.data(), layout.letters.size(), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemcpy(offset.reserve(layout.offset.size()), layout.offset.data(),
                              layout.offset.size() * sizeof(long long), cudaMemcpyHostToDevice));
    GDP_CUDA_CHECK(cudaMemcpy(length.reserve(layout.length.size()), layout.length.data(),
                              layout.length.size() * sizeof(int), cudaMemcpyHostToDevice));
  }
};
}  // namespace batch

namespace {
using batch::DeviceChunk;

// Device memory kept between calls: the work arrays, which only grow.
struct BatchWorkspace {
  cuda::DeviceArray<std::int8_t> profile;
  cuda::DeviceArray<unsigned> bottom;
  cuda::DeviceArray<int> score, counter;
  cuda::DeviceArray<int4> end;
};
BatchWorkspace& workspace() {
  static BatchWorkspace w;
  return w;
}

std::vector<std::int8_t> make_profile(Residues q, const ScoringScheme& s, int rows_padded) {
  std::vector<std::int8_t> prof(static_cast<std::size_t>(s.dim + 1) * static_cast<std::size_t>(rows_padded),
                                inter::kPadScore);
  for (int c = 0; c < s.dim; ++c)
    for (std::size_t i = 0; i < q.size(); ++i)
      prof[static_cast<std::size_t>(c) * rows_padded + i] = static_cast<std::int8_t>(s.score(q[i], static_cast<std::uint8_t>(c)));
  return prof;
}

// Launches `kernel` (Params, then `extra`) on as many blocks as fit, at
// most one warp a bundle, and times it.
template <class... Extra>
void launch(void (*kernel)(Params, Extra...), const Params& p, std::size_t shared, int device, Extra... extra) {
  GDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  int fit = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, inter::kBlockThreads, shared));
  if (fit == 0) throw RunError("the database-search kernel does not fit on this device (shared memory)");
  int sms = 0;
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int groups = inter::kWarp / p.group;
  const long long bundles = (p.pairs + groups - 1) / groups;
  const long long warps_a_block = inter::kBlockThreads / inter::kWarp;
  const int blocks = static_cast<int>(std::min<long long>(static_cast<long long>(fit) * sms,
                                                          (bundles + warps_a_block - 1) / warps_a_block));
  GDP_CUDA_CHECK(cudaMemset(p.next_bundle, 0, sizeof(int)));
  cuda::KernelTimer timer;
  timer.start();
  kernel<<<blocks, inter::kBlockThreads, shared>>>(p, extra...);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_kernel_time(timer.stop_seconds(), false);
  ++gpu_stats_counters().passes;
}

// One chunk through one kernel; results[target] filled.
void run_chunk(Residues q, const DeviceChunk& c, const ScoringScheme& scheme, const Shape& shape, int device,
               std::vector<PassResult>& results, std::vector<std::int64_t>& overflowed) {
  BatchWorkspace& w = workspace();
  const Layout& l = c.layout;
  const std::int64_t m = static_cast<std::int64_t>(q.size());
  const int rows = c.pairs16 ? kRows16 : kRows32;
  const double mean = static_cast<double>(l.residues) / static_cast<double>(l.pairs16 ? 2 * l.offset.size() : l.offset.size());
  const int group = choose_group(m, mean, rows);
  const int tall = group * rows;
  const int passes = static_cast<int>((m + tall - 1) / tall);
  const int rows_padded = passes * tall;
  const auto prof = make_profile(q, scheme, rows_padded);
  GDP_CUDA_CHECK(cudaMemcpy(w.profile.reserve(prof.size()), prof.data(), prof.size(), cudaMemcpyHostToDevice));

  Params p{};
  p.profile = w.profile.get();
  p.dim = scheme.dim, p.rows_padded = rows_padded, p.m = static_cast<int>(m);
  p.group = group, p.passes = passes;
  p.letters = c.letters.get(), p.offset = c.offset.get(), p.length = c.length.get();
  p.pairs = static_cast<int>(l.offset.size());
  const std::size_t columns = l.letters.size() / (c.pairs16 ? 2 : 1);
  p.bottom = passes > 1 ? w.bottom.reserve(2 * columns, "cudaMalloc (pass edges)") : nullptr;
  p.next_bundle = w.counter.reserve(1);
  const GapCosts g = gap_costs(scheme);
  p.costs = {scheme.gap_open, g.open_extend, g.extend, shape.free_top ? 1 : 0, shape.left_open};
  p.overflow_at = 32767 - scheme.max_abs_score();
  const std::size_t shared = prof.size();

  if (c.pairs16) {
    p.score = w.score.reserve(2 * l.offset.size());
    launch(inter::score16<kRows16>, p, shared, device);
    std::vector<int> scores(2 * l.offset.size());
    GDP_CUDA_CHECK(cudaMemcpy(scores.data(), p.score, scores.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < l.offset.size(); ++k)
      for (int half = 0; half < 2; ++half) {
        const std::int64_t t = half ? l.second[k] : l.first[k];
        if (t < 0) continue;
        const int s = scores[2 * k + static_cast<std::size_t>(half)];
        if (s >= p.overflow_at) overflowed.push_back(t);
        results[static_cast<std::size_t>(t)] = {s, 0, 0};
      }
    return;
  }
  p.end = w.end.reserve(l.offset.size());
  if (shape.local)
    launch(inter::score32<kRows32, true>, p, shared, device, shape.end);
  else
    launch(inter::score32<kRows32, false>, p, shared, device, shape.end);
  std::vector<int4> ends(l.offset.size());
  GDP_CUDA_CHECK(cudaMemcpy(ends.data(), p.end, ends.size() * sizeof(int4), cudaMemcpyDeviceToHost));
  for (std::size_t k = 0; k < ends.size(); ++k)
    results[static_cast<std::size_t>(l.first[k])] = {ends[k].x, ends[k].y, ends[k].z};
}

// The targets' indices by length, longest first (ties in input order),
// those of length 0 left out.
std::vector<std::int64_t> by_length(const std::vector<Residues>& targets) {
  std::vector<std::int64_t> sorted;
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (!targets[t].empty()) sorted.push_back(static_cast<std::int64_t>(t));
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::int64_t a, std::int64_t b) {
    return targets[static_cast<std::size_t>(a)].size() > targets[static_cast<std::size_t>(b)].size();
  });
  return sorted;
}

struct Request {
  Shape shape;
  int device;
  std::int64_t chunk_residues;
  Progress* progress;
};

// Every target through the kernel of `pairs16`, chunk by chunk; the whole
// database's chunk stays in `cached` (when given) for the next query.
void score_all(Residues q, const std::vector<Residues>& targets, const ScoringScheme& scheme, const Request& r,
               bool pairs16, DeviceChunk* cached, std::vector<PassResult>& results,
               std::vector<std::int64_t>& overflowed) {
  if (cached && cached->loaded) {
    run_chunk(q, *cached, scheme, r.shape, r.device, results, overflowed);
    if (r.progress) r.progress->add(static_cast<std::uint64_t>(cached->layout.residues) * q.size());
    return;
  }
  const std::vector<std::int64_t> sorted = by_length(targets);
  std::int64_t budget = r.chunk_residues;
  if (budget <= 0) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    budget = static_cast<std::int64_t>(free_bytes / 4 / 10);  // about 10 bytes a residue with the pass edges
  }
  std::vector<std::size_t> bounds{0};
  for (std::size_t k = 0, residues = 0; k < sorted.size(); ++k) {
    residues += targets[static_cast<std::size_t>(sorted[k])].size();
    const bool pair_done = !pairs16 || (k - bounds.back()) % 2 == 1;
    if (residues >= static_cast<std::size_t>(budget) && pair_done && k + 1 < sorted.size()) bounds.push_back(k + 1), residues = 0;
  }
  bounds.push_back(sorted.size());
  const bool whole = bounds.size() == 2 && cached;
  DeviceChunk streamed;
  DeviceChunk& chunk = whole ? *cached : streamed;
  chunk.pairs16 = pairs16;
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
    chunk.upload(lay_out(sorted, bounds[b], bounds[b + 1], targets, pairs16, scheme.dim));
    run_chunk(q, chunk, scheme, r.shape, r.device, results, overflowed);
    if (r.progress) r.progress->add(static_cast<std::uint64_t>(chunk.layout.residues) * q.size());
  }
  chunk.loaded = whole;
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

void batch_score_cuda(Residues q, const std::vector<Residues>& targets, const ScoringScheme& scheme, const Shape& shape,
                      bool ends, int device, std::int64_t chunk_residues, Progress* progress,
                      BatchDatabase::Chunks*& chunks, std::vector<PassResult>& results) {
  if (!batch_can_score_cuda(static_cast<std::int64_t>(q.size()), scheme))
    throw RunError("this query or scoring is not supported by the GPU database search");
  GDP_CUDA_CHECK(cudaSetDevice(device));
  if (!chunks) chunks = new BatchDatabase::Chunks;
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (targets[t].empty()) results[t] = score_pass_scalar(q, targets[t], scheme, shape);
  std::vector<std::int64_t> overflowed;
  const bool sixteen = shape.local && shape.end == End::anywhere && !ends;
  const Request r{shape, device, chunk_residues, progress};
  score_all(q, targets, scheme, r, sixteen, sixteen ? &chunks->sixteen : &chunks->thirty_two, results, overflowed);
  if (overflowed.empty()) return;
  // The scores that reached the 16-bit bound, again in 32 bits.
  std::vector<Residues> again;
  for (std::int64_t t : overflowed) again.push_back(targets[static_cast<std::size_t>(t)]);
  std::vector<PassResult> redone(again.size());
  std::vector<std::int64_t> none;
  score_all(q, again, scheme, {shape, device, chunk_residues, nullptr}, false, nullptr, redone, none);
  for (std::size_t k = 0; k < overflowed.size(); ++k) results[static_cast<std::size_t>(overflowed[k])] = redone[k];
  gpu_stats_counters().overflow_reruns += static_cast<int>(overflowed.size());
}

}  // namespace gdp::pairwise
