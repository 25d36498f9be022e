// BPMax's GPU engine, its host side: the memory check, the S tables, the
// fill on the device (cuda/bpmax_gpu.cu), then the CPU engines' traceback
// (cpu/bpmax_tables.hpp) reading F through a cache of 128 x 128 tiles
// copied from the device as it asks for them, so the structure is theirs.
// Built only with CUDA.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "fold/bpmax.hpp"
#include "fold/cuda/bpmax_device.hpp"

namespace gdp::fold {
namespace {

using bpmax_cpu::Strands;

// F's cells as the traceback reads them (within the window's band): each
// tile copied from the device the first time one of its cells is read.
class TileCache {
 public:
  TileCache(const BpmaxDeviceTables& device, const Strands& s)
      : device_(device), m_(s.m), blocks_(bpmax_padded_length(s.n) / kBpmaxTile),
        band_(bpmax_band_blocks(s.n, s.span2)),
        tiles_(static_cast<std::size_t>(s.intervals() * blocks_ * (band_ + 1))) {}
  int operator()(long long i1, long long j1, long long i2, long long j2) const {
    const long long I = i2 / kBpmaxTile, J = j2 / kBpmaxTile, matrix = bpmax_interval(m_, i1, j1);
    std::unique_ptr<int[]>& tile = tiles_[static_cast<std::size_t>((matrix * blocks_ + I) * (band_ + 1) + J - I)];
    if (!tile) {
      tile = std::make_unique<int[]>(static_cast<std::size_t>(kBpmaxTile * kBpmaxTile));
      device_.copy_tile(i1, j1, I, J, tile.get());
      ++copied_;
    }
    return tile[static_cast<std::size_t>(i2 % kBpmaxTile * kBpmaxTile + j2 % kBpmaxTile)];
  }
  long long copied() const { return copied_; }

 private:
  const BpmaxDeviceTables& device_;
  long long m_, blocks_, band_;
  mutable std::vector<std::unique_ptr<int[]>> tiles_;  // (matrix, I, J - I); empty until read
  mutable long long copied_ = 0;
};

Interaction on_device(std::string_view one, std::string_view two, const PairWeights& weights,
                      const InteractionWindow& window, int device, InteractionTiming& timing, Progress* progress,
                      std::uint64_t share) {
  Timer total;
  const auto m = static_cast<long long>(one.size()), n = static_cast<long long>(two.size());
  const std::size_t free_bytes = bpmax_device_free_bytes(device);
  const double need = interaction_gpu_bytes(m, n, window);
  if (need > static_cast<double>(free_bytes)) {
    char text[160];
    std::snprintf(text, sizeof text, "%.3g GB of GPU memory, and %.3g GB are free", need / 1e9,
                  static_cast<double>(free_bytes) / 1e9);
    throw InputError("strands of " + std::to_string(m) + " and " + std::to_string(n) + " bases need " + text);
  }
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Strands s(one, two, weights, window, bpmax_cpu::SingleFill::diagonals, threads);
  const BpmaxDeviceTables tables(s, device, progress, share);
  const BpmaxFillTiming& fill = tables.timing();
  timing.fill_seconds = fill.fill_seconds;
  timing.product_seconds = fill.product_seconds;
  timing.finish_seconds = fill.finish_seconds;
  timing.product_terms = fill.product_terms;
  Timer trace;
  const std::vector<int> longest = tables.longest();
  const bpmax_cpu::Item start = bpmax_cpu::best_window(s, [&](long long i1, long long i2) {
    return longest[static_cast<std::size_t>(i1 * (n - s.span2) + i2)];
  });
  const TileCache f(tables, s);
  Interaction out = bpmax_cpu::result_from(s, f, start);
  timing.trace_seconds = trace.seconds();
  timing.traced_tiles = f.copied();
  timing.total_seconds = total.seconds();
  return out;
}

}  // namespace

Interaction interact_gpu(std::string_view s1, std::string_view s2, const PairWeights& weights, int device,
                         InteractionTiming* timing, const InteractionWindow& window, Progress* progress,
                         std::uint64_t share) {
  InteractionTiming ignored;
  return bpmax_cpu::shorter_strand_first(s1, s2, window, [&](std::string_view one, std::string_view two,
                                                             const InteractionWindow& w) {
    return on_device(one, two, weights, w, device, timing ? *timing : ignored, progress, share);
  });
}

}  // namespace gdp::fold
