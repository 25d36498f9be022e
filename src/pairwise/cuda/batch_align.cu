// The host side of the GPU's full alignments of many pairs
// (inter_align.cuh): the pairs, largest first, in batches whose direction
// bits fit a share of the free device memory; each batch's letters up, its
// ends and walks' moves back, and each walk made a CIGAR on the CPU
// threads and re-scored there, while the next batch's kernel runs.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/parallel_for.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/cuda/inter_align.cuh"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {
namespace {

using inter::AlignParams;

constexpr int kMaxAlignDim = 64;  // the substitution matrix in shared memory: 16 KiB
// A batch's device memory: at most this, and half the free memory.
constexpr std::size_t kMaxBatchBytes = std::size_t{4} << 30;
// A pair goes to the kernel where a batch holds at least this many like it.
constexpr std::size_t kMinPairsABatch = 16;

// Device bytes a pair takes: its direction words, edges, walk, packed
// moves and letters.
std::size_t pair_bytes(std::size_t m, std::size_t n) {
  return 2 * static_cast<std::size_t>(inter::align_dir_words(static_cast<int>(m), static_cast<int>(n))) +
         sizeof(GotohEdge) * m + 3 * (m + n) + 64;
}

struct AlignWorkspace {
  cuda::DeviceArray<std::uint8_t> letters;
  cuda::DeviceArray<long long> offsets;  // q, t, dir, edge, op: five a pair
  cuda::DeviceArray<int> lengths, result, sub, counter;
  cuda::DeviceArray<unsigned short> dirs;
  cuda::DeviceArray<GotohEdge> edges;
  cuda::DeviceArray<char> walk, moves;
  cuda::DeviceArray<long long> moves_at;
  cuda::DeviceArray<unsigned long long> moves_used;
};

// A batch on the host: its pairs, laid out for the kernel, and what comes
// back.
struct HostBatch {
  std::span<Hit* const> hits;
  std::vector<long long> offsets;  // q, t, dir, edge, op: five a pair
  std::vector<int> lengths;        // m, then n
  std::vector<std::uint8_t> letters;
  long long dirs = 0, edges = 0, ops = 0;
  std::vector<int> result;
  std::vector<long long> moves_at;
  std::vector<char> moves;
};

// The batch's letters (each query's once), offsets and lengths.
void pack(HostBatch& b, std::span<Hit* const> hits, const std::vector<Residues>& queries,
          const std::vector<Residues>& targets, int threads) {
  const std::size_t pairs = hits.size();
  b.hits = hits;
  b.offsets.assign(5 * pairs, 0);
  b.lengths.assign(2 * pairs, 0);
  std::vector<long long> query_at(queries.size(), -1);
  long long letter_count = 0;
  b.dirs = b.edges = b.ops = 0;
  for (std::size_t p = 0; p < pairs; ++p) {
    const int m = static_cast<int>(queries[hits[p]->query].size()), n = static_cast<int>(targets[hits[p]->target].size());
    long long& at = query_at[hits[p]->query];
    if (at < 0) at = letter_count, letter_count += m;
    b.offsets[p] = at;
    b.offsets[pairs + p] = letter_count, letter_count += n;
    b.offsets[2 * pairs + p] = b.dirs, b.dirs += inter::align_dir_words(m, n);
    b.offsets[3 * pairs + p] = b.edges, b.edges += m;
    b.offsets[4 * pairs + p] = b.ops, b.ops += m + n;
    b.lengths[p] = m, b.lengths[pairs + p] = n;
  }
  b.letters.resize(static_cast<std::size_t>(letter_count));
  for (std::size_t q = 0; q < queries.size(); ++q)
    if (query_at[q] >= 0) std::copy(queries[q].begin(), queries[q].end(), b.letters.begin() + query_at[q]);
  parallel_for(static_cast<std::int64_t>(pairs), threads, [&](std::int64_t x) {
    const auto p = static_cast<std::size_t>(x);
    const Residues t = targets[hits[p]->target];
    std::copy(t.begin(), t.end(), b.letters.begin() + b.offsets[pairs + p]);
  });
}

// What every batch of a call shares: the scoring on the device, and the
// kernel with the most blocks the device runs at once.
struct AlignLaunch {
  AlignParams common{};  // sub, dim, costs, end
  void (*kernel)(AlignParams) = nullptr;
  std::size_t shared = 0;
  int max_blocks = 0;
};
AlignLaunch prepare(const ScoringScheme& scheme, const Shape& shape, int device, AlignWorkspace& w) {
  AlignLaunch l;
  AlignParams& a = l.common;
  a.dim = scheme.dim;
  a.sub = w.sub.reserve(scheme.scores.size());
  GDP_CUDA_CHECK(cudaMemcpy(const_cast<int*>(a.sub), scheme.scores.data(), scheme.scores.size() * sizeof(int),
                            cudaMemcpyHostToDevice));
  const GapCosts g = gap_costs(scheme);
  a.costs = GotohCosts{scheme.gap_open, g.open_extend, g.extend, shape.free_top, shape.left_open};
  a.end = shape.end;
  l.kernel = shape.local ? inter::align_pairs<true> : inter::align_pairs<false>;
  l.shared = sizeof(int) * static_cast<std::size_t>(scheme.dim * scheme.dim);
  int per_sm = 0, sms = 0;
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l.kernel, inter::kAlignBlockThreads, l.shared));
  l.max_blocks = std::max(per_sm, 1) * sms;
  return l;
}

// The batch up, and its kernel launched (not waited for).
AlignParams launch(const HostBatch& b, const AlignLaunch& l, AlignWorkspace& w, cuda::KernelTimer& timer) {
  const std::size_t pairs = b.hits.size();
  AlignParams a = l.common;
  a.letters = w.letters.reserve(b.letters.size());
  long long* off = w.offsets.reserve(b.offsets.size());
  a.q_offset = off, a.t_offset = off + pairs, a.dir_offset = off + 2 * pairs, a.edge_offset = off + 3 * pairs,
  a.op_offset = off + 4 * pairs;
  int* len = w.lengths.reserve(b.lengths.size());
  a.m = len, a.n = len + pairs;
  a.dirs = w.dirs.reserve(static_cast<std::size_t>(b.dirs));
  a.edges = w.edges.reserve(static_cast<std::size_t>(b.edges));
  a.walk = w.walk.reserve(static_cast<std::size_t>(b.ops));
  a.moves = w.moves.reserve(static_cast<std::size_t>(b.ops));
  a.moves_at = w.moves_at.reserve(pairs);
  a.moves_used = w.moves_used.reserve(1);
  a.result = w.result.reserve(inter::kAlignResult * pairs);
  a.next_pair = w.counter.reserve(1);
  a.pairs = static_cast<int>(pairs);
  GDP_CUDA_CHECK(cudaMemcpy(const_cast<std::uint8_t*>(a.letters), b.letters.data(), b.letters.size(),
                            cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(off, b.offsets.data(), b.offsets.size() * sizeof(long long), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemcpy(len, b.lengths.data(), b.lengths.size() * sizeof(int), cudaMemcpyHostToDevice));
  GDP_CUDA_CHECK(cudaMemset(a.next_pair, 0, sizeof(int)));
  GDP_CUDA_CHECK(cudaMemset(a.moves_used, 0, sizeof(unsigned long long)));
  const int warps_a_block = inter::kAlignBlockThreads / inter::kWarp;
  const int blocks = static_cast<int>(
      std::min<std::size_t>((pairs + warps_a_block - 1) / warps_a_block, static_cast<std::size_t>(l.max_blocks)));
  timer.start();
  l.kernel<<<blocks, inter::kAlignBlockThreads, l.shared>>>(a);
  GDP_CUDA_CHECK(cudaGetLastError());
  timer.stop();
  const std::size_t bytes = w.dirs.bytes() + w.edges.bytes() + w.walk.bytes() + w.moves.bytes() + w.letters.bytes() +
                            w.offsets.bytes() + w.result.bytes();
  count_gpu_stats([&](GpuStats& stats) {  // batches run on several devices at once (--devices)
    ++stats.passes;
    stats.peak_memory_bytes = std::max(stats.peak_memory_bytes, bytes);
  });
  return a;
}

// The batch's ends, walks' results and moves back, once its kernel is done.
void download(HostBatch& b, const AlignParams& a) {
  const std::size_t pairs = b.hits.size();
  b.result.resize(inter::kAlignResult * pairs);
  b.moves_at.resize(pairs);
  unsigned long long used = 0;
  GDP_CUDA_CHECK(cudaMemcpy(b.result.data(), a.result, b.result.size() * sizeof(int), cudaMemcpyDeviceToHost));
  GDP_CUDA_CHECK(cudaMemcpy(b.moves_at.data(), a.moves_at, pairs * sizeof(long long), cudaMemcpyDeviceToHost));
  GDP_CUDA_CHECK(cudaMemcpy(&used, a.moves_used, sizeof used, cudaMemcpyDeviceToHost));
  b.moves.resize(used);
  GDP_CUDA_CHECK(cudaMemcpy(b.moves.data(), a.moves, used, cudaMemcpyDeviceToHost));
}

// Each pair's alignment from its end and walk, re-scored.
void finish(const HostBatch& b, const std::vector<Residues>& queries, const std::vector<Residues>& targets,
            const ScoringScheme& scheme, const Shape& shape, int threads) {
  parallel_for(static_cast<std::int64_t>(b.hits.size()), threads, [&](std::int64_t x) {
    const auto p = static_cast<std::size_t>(x);
    const int* r = b.result.data() + inter::kAlignResult * p;
    Hit& h = *b.hits[p];
    Alignment al;
    al.score = r[0];
    al.has_begin = true;
    if (!(shape.local && r[0] == 0)) {  // else nothing scores above zero: the empty alignment
      al.query_end = r[1], al.target_end = r[2];
      const bool stopped = r[6] != 0;
      if (r[7] != GotohCell<true>::in_h && !stopped)
        throw std::logic_error("GPU traceback ran a gap into the matrix boundary");
      long long i = r[4], j = r[5];
      const char* walk = b.moves.data() + b.moves_at[p];
      // The path from its start: the global boundary's gap run, then the
      // walk's moves, which it wrote from the end back.
      if (!stopped && !shape.local && !(shape.free_top && i == 0)) {
        push_run(al.cigar, Op::deletion, static_cast<std::int64_t>(j));
        push_run(al.cigar, Op::insertion, static_cast<std::int64_t>(i));
        i = j = 0;
      }
      al.query_begin = i, al.target_begin = j;
      std::size_t runs = 2;
      for (int k = r[3] - 1; k > 0; --k) runs += walk[k] != walk[k - 1];
      al.cigar.reserve(runs);
      for (int k = r[3] - 1; k >= 0; --k) push_run(al.cigar, static_cast<Op>(walk[k]), 1);
      const int score = rescore(al, queries[h.query], targets[h.target], scheme);
      if (score != al.score)
        throw std::logic_error("GPU traceback scores " + std::to_string(score) + ", not " + std::to_string(al.score));
    }
    h.alignment = std::move(al);
  });
}

}  // namespace

bool batch_can_align_cuda(const ScoringScheme& scheme) { return scheme.dim >= 1 && scheme.dim <= kMaxAlignDim; }

std::vector<Hit*> batch_align_cuda(std::span<Hit* const> hits, const std::vector<Residues>& queries,
                                   const std::vector<Residues>& targets, const ScoringScheme& scheme, Mode mode,
                                   int device, int threads, Progress* progress, std::size_t batch_bytes,
                                   BatchAlignTimes& times) {
  GDP_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t budget = batch_bytes > 0 ? batch_bytes : std::min(kMaxBatchBytes, free_bytes / 2);
  // The pairs it takes, largest first, so that the last warps' pairs are
  // the smallest; the others are left.
  std::vector<std::pair<std::size_t, Hit*>> sized;
  std::vector<Hit*> taken, left;
  for (Hit* h : hits) {
    const std::size_t m = queries[h->query].size(), n = targets[h->target].size();
    if (m > 0 && n > 0 && pair_bytes(m, n) <= budget / kMinPairsABatch)
      sized.emplace_back(pair_bytes(m, n), h);
    else
      left.push_back(h);
  }
  std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [bytes, h] : sized) taken.push_back(h);
  const Shape shape = shape_of(mode, scheme);
  // Batches of pairs, largest first, each within the budget.
  std::vector<std::size_t> starts{0};
  for (std::size_t k = 0, bytes = 0; k < sized.size(); ++k) {
    if (bytes + sized[k].first > budget) starts.push_back(k), bytes = 0;
    bytes += sized[k].first;
  }
  starts.push_back(sized.size());
  const std::size_t batches = taken.empty() ? 0 : starts.size() - 1;
  auto hits_of = [&](std::size_t b) {
    return std::span<Hit* const>(taken).subspan(starts[b], starts[b + 1] - starts[b]);
  };
  auto cells_of = [&](const HostBatch& b) {
    std::uint64_t cells = 0;
    for (const Hit* h : b.hits) cells += 2 * queries[h->query].size() * targets[h->target].size();
    return cells;
  };
  // While batch b's kernel runs, batch b - 1 is finished and b + 1 packed
  // on the CPU threads.
  AlignWorkspace w;
  const AlignLaunch l = batches > 0 ? prepare(scheme, shape, device, w) : AlignLaunch{};
  HostBatch host[2];
  Timer timer;
  if (batches > 0) pack(host[0], hits_of(0), queries, targets, threads);
  times.pack += timer.seconds();
  for (std::size_t b = 0; b < batches; ++b) {
    HostBatch& now = host[b % 2];
    HostBatch& other = host[(b + 1) % 2];
    timer.restart();
    cuda::KernelTimer kernel_timer;
    const AlignParams a = launch(now, l, w, kernel_timer);
    times.upload += timer.seconds();
    if (b > 0) {
      timer.restart();
      finish(other, queries, targets, scheme, shape, threads);
      times.finish += timer.seconds();
      if (progress) progress->add(cells_of(other));  // a full alignment counts twice its cells
    }
    if (b + 1 < batches) {
      timer.restart();
      pack(other, hits_of(b + 1), queries, targets, threads);
      times.pack += timer.seconds();
    }
    const double kernel_seconds = kernel_timer.seconds();
    add_gpu_kernel_time(kernel_seconds, true);
    times.kernel += kernel_seconds;
    timer.restart();
    download(now, a);
    times.download += timer.seconds();
  }
  if (batches > 0) {
    timer.restart();
    finish(host[(batches - 1) % 2], queries, targets, scheme, shape, threads);
    times.finish += timer.seconds();
    if (progress) progress->add(cells_of(host[(batches - 1) % 2]));
  }
  times.pairs += taken.size();
  times.batches += batches;
  return left;
}

}  // namespace gdp::pairwise
