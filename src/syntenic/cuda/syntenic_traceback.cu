// gpu-syntenic's alignment on the GPU: the chunked traceback (dissertation
// section 6.3, CHUNKED2D), in bounded device memory.
//
// Phase 1 is the score pass run as a kept pass (syntenic_score.cu): every
// strip's right edge (S, I, H down its last column) and a checkpoint row
// (S, D, H) every 128 rows stay on the device, O(m*n/128) cells. The
// walk (pairwise/cuda/chunk_walk.cuh) then starts at (m, n) in the state
// the end rule chose, recomputes the chunks on the path with the syntenic
// cell's direction bits, four at a time, and records a character a move
// until the path reaches row 0 or column 0; the host finishes it along the
// border as the full matrix does, and turns the moves into regions.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/cuda_shared_limit.hpp"
#include "core/error.hpp"
#include "pairwise/cuda/chunk_walk.cuh"
#include "pairwise/cuda/strip_progress.cuh"
#include "syntenic/cuda/gpu_pass.hpp"
#include "syntenic/syntenic_cell.hpp"

namespace gdp::syntenic {

using namespace pairwise::striped;

std::optional<Alignment> chunked_alignment(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c,
                                           int device, Progress* score_progress, Progress* traceback) {
  const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size());
  if (m == 0 || n == 0) return std::nullopt;
  if (m >= (1LL << 31) - kLanes || n >= (1LL << 31) - kMaxStripWidth) return std::nullopt;
  GDP_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Kept edges beyond half the free memory: the linear-space alignment instead.
  if (kept_bytes(m, n) > static_cast<long long>(free_bytes / 2)) return std::nullopt;

  Kept<CellTypes> kept;
  const LastCell last = striped_score(a, b, scheme, c, device, {}, nullptr, nullptr, &kept, score_progress);
  Alignment out;
  out.score = final_score(c, last.s, last.h);
  out.query_end = m;
  out.target_end = n;

  WalkParams<CellTypes> tp{};
  tp.p.q = kept.q;
  tp.p.t = kept.t;
  tp.p.m = static_cast<int>(m);
  tp.p.n = static_cast<int>(n);
  tp.p.sub = kept.sub;
  tp.p.dim = scheme.dim;
  tp.p.rows = scheme.dim;
  tp.p.costs = GpuCosts{c, nullptr};
  tp.kept = kept;
  tp.end_i = static_cast<int>(m);
  tp.end_j = static_cast<int>(n);
  // Ends in a block when that scores more than ending with the end's charge.
  tp.start_state = c.charged && last.h > last.s - c.block ? in_h : in_s;
  cuda::DeviceArray<char> ops;
  cuda::DeviceArray<int> result;
  tp.ops = ops.reserve(static_cast<std::size_t>(m + n + 1));
  tp.result = result.reserve(5);

  const std::size_t shared = walk_shared_bytes<SyntenicCell>(scheme.dim);
  auto kernel = chunked_walk<SyntenicCell>;
  cuda::allow_dynamic_shared(kernel, static_cast<int>(shared));
  WalkProgress progress(traceback, tp);
  cuda::KernelTimer timer;
  timer.start();
  kernel<<<1, kWalkChunks * kLanes, shared>>>(tp);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_stats(0, timer.stop_seconds(), 0);
  progress.stop();

  int r[5] = {};
  GDP_CUDA_CHECK(cudaMemcpy(r, tp.result, sizeof r, cudaMemcpyDeviceToHost));
  std::vector<char> recorded(static_cast<std::size_t>(r[0]));
  GDP_CUDA_CHECK(cudaMemcpy(recorded.data(), tp.ops, recorded.size(), cudaMemcpyDeviceToHost));
  std::vector<Step> back;  // the path's steps, last first
  back.reserve(recorded.size() + static_cast<std::size_t>(std::max(r[1], r[2])));
  for (const char op : recorded) back.push_back(step_of_op(op));
  // The border: a leading gap run, or a leading block, as the full matrix
  // finishes it (cpu/full_matrix.cpp).
  const long long i = r[1], j = r[2], rest = std::max(i, j);
  const int state = r[4];
  const bool gap_run = state == in_d || state == in_i || (state == in_s && leading_gap(c, rest) >= -c.block);
  for (long long x = 0; x < rest; ++x)
    back.push_back({j == 0 ? (gap_run ? Step::query_gap : Step::block_query) : (gap_run ? Step::target_gap : Step::block_target)});
  if (rest > 0 && !gap_run) back.back().starts = true;
  out.regions = regions_of({back.rbegin(), back.rend()}, a, b, scheme, c);

  Options o;
  o.ends = c.charged ? Ends::charged : Ends::plain;
  o.block_penalty = c.block;
  const int score = rescore(out, a, b, scheme, o);
  if (score != out.score)
    throw std::logic_error("GPU traceback scores " + std::to_string(score) + ", not " + std::to_string(out.score));
  return out;
}

}  // namespace gdp::syntenic
