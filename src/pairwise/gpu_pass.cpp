// The GPU entry points: the .cu files' functions where this build has CUDA;
// without it, the pass says so and the traceback declines.
#include "pairwise/cuda/gpu_pass.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "core/build.hpp"
#include "core/error.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise {

Locked<GpuStats>& gpu_stats_counters() {
  static Locked<GpuStats> s;
  return s;
}

GpuStats gpu_stats() { return gpu_stats_counters().get(); }

PassResult score_pass_gpu(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                          LastRow last_row, GpuTuning tuning, Progress* progress, const PassCheckpoint* checkpoint) {
  if constexpr (have_cuda)
    return striped_pass(q, t, scheme, shape, device, last_row, tuning, nullptr, progress, checkpoint);
  else
    throw RunError(no_cuda_message);
}

PassResult score_pass_gpu_between(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape, int device,
                                  const GpuTuning& tuning, Progress* progress, const PassEdges& edges) {
  if constexpr (have_cuda) {
    GpuTuning chosen = tuning;
    const int bound = overflow_bound16(scheme);
    if (edges.left && std::any_of(edges.left->begin(), edges.left->end(), [&](std::int32_t v) { return v >= bound; })) {
      if (striped::rebase16_of(gap_costs(scheme).open_extend, scheme.max_abs_score(), 8).interval > 0)
        chosen.kernel16 = Kernel16::rebased;
      else
        chosen.bits = 32;
    }
    return striped_pass_between(q, t, scheme, shape, device, chosen, progress, edges);
  } else {
    throw RunError(no_cuda_message);
  }
}

bool chained_pass_takes(const Shape& shape, LastRow last_row, std::int64_t n, std::size_t places) {
  const bool end_known = (shape.local && shape.end == End::anywhere) || (!shape.local && shape.end == End::corner);
  return places > 1 && end_known && !last_row.h && !last_row.f &&
         n >= kChainColumns * static_cast<std::int64_t>(places);
}

std::optional<PassResult> chained_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                       const std::vector<int>& devices, GpuTuning tuning, Progress* progress,
                                       SavedRows* saved) {
  if constexpr (have_cuda) {
    std::vector<long long> cuts;
    auto r = chained_striped_pass(q, t, scheme, shape, devices, tuning, progress, saved, &cuts);
    if (r)
      spdlog::debug("score pass of {} x {} chained over GPUs {}: {} pieces, of {} columns first and {} last", q.size(),
                    t.size(), fmt::join(devices, ","), cuts.size() - 1, cuts[1], cuts.back() - cuts[cuts.size() - 2]);
    return r;
  } else {
    throw RunError(no_cuda_message);
  }
}

std::optional<PassResult> score_pass_gpu_saving(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                                int device, GpuTuning tuning, Progress* progress, SavedRows& saved,
                                                const std::vector<int>& devices) {
  if constexpr (have_cuda) {
    if (!std::has_single_bit(static_cast<std::uint64_t>(saved.every)) || saved.every > static_cast<std::int64_t>(q.size()))
      return std::nullopt;
    if (chained_pass_takes(shape, {}, static_cast<std::int64_t>(t.size()), devices.size()))
      return chained_pass(q, t, scheme, shape, devices, tuning, progress, &saved);
    const PassResult r = striped_pass(q, t, scheme, shape, device, {}, tuning, nullptr, progress, nullptr, &saved);
    if (saved.every == 0) return std::nullopt;  // declined
    return r;
  } else {
    return std::nullopt;
  }
}

std::optional<Alignment> align_gpu_chunked(Residues q, Residues t, const ScoringScheme& scheme, Mode mode,
                                           int device, std::int64_t max_bytes, Progress* score, Progress* traceback,
                                           const GpuTuning& tuning) {
  if constexpr (have_cuda)
    return chunked_alignment(q, t, scheme, mode, device, max_bytes, score, traceback, tuning);
  else
    return std::nullopt;
}

std::optional<PartStart> align_gpu_chunked_part(const Part& part, const ScoringScheme& scheme, int device,
                                                std::int64_t max_bytes, Progress* progress, Cigar& cigar,
                                                const GpuTuning& tuning) {
  if constexpr (have_cuda)
    return chunked_part(part, scheme, device, max_bytes, progress, cigar, tuning);
  else
    return std::nullopt;
}

}  // namespace gdp::pairwise
