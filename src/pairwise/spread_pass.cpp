// spread_pass.hpp: the ranges, one host thread a device, and the hand-over
// of exact edges from each range to the next.
#include "pairwise/spread_pass.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <future>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "core/log.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise {

std::int64_t spread_min_columns(std::size_t devices) { return 4 * striped::kMaxStripWidth * static_cast<std::int64_t>(devices); }

std::vector<SpreadRange> spread_ranges(std::int64_t n, std::size_t devices) {
  if (devices == 0 || n < spread_min_columns(devices)) throw std::invalid_argument("spread_ranges: too few columns");
  const auto k = static_cast<std::int64_t>(devices);
  // Cuts on whole strips of any width (powers of two up to kMaxStripWidth),
  // where a pass's right edge is its last strip's.
  const std::int64_t unit = striped::kMaxStripWidth;
  const auto nearest = [&](std::int64_t x) { return (x + unit / 2) / unit * unit; };
  // Device d < k - 1 computes its range of w - part columns and the next
  // range's first part (part columns); the last, its range of w.
  const std::int64_t part = std::max(unit, n / (32 * k) / unit * unit);
  const std::int64_t w = (n + (k - 1) * part) / k;
  std::vector<SpreadRange> ranges(devices);
  for (std::int64_t d = 0; d < k; ++d) {
    SpreadRange& r = ranges[static_cast<std::size_t>(d)];
    r.begin = d == 0 ? 0 : ranges[static_cast<std::size_t>(d - 1)].end;
    r.probe = d == 0 ? r.begin : r.begin + part;
    r.end = d + 1 == k ? n : std::max(r.probe + unit, nearest((d + 1) * (w - part)));
  }
  return ranges;
}

bool spread_pass_takes(const Shape& shape, LastRow last_row, std::int64_t n, std::size_t devices) {
  return devices > 1 && shape.local && shape.end == End::anywhere && !last_row.h && !last_row.f &&
         n >= kSpreadColumns * static_cast<std::int64_t>(devices);
}

namespace {

using Edge = std::vector<std::int32_t>;

// A range's runs, and what waits on them.
struct RangeState {
  // The fresh run: its first part's best and edge at probe; its second
  // part's best and right edge.
  std::optional<PassResult> fresh_first, fresh_second;
  Edge fresh_probe_edge, fresh_right_edge;
  // The exact run: its best and right edge.
  std::optional<PassResult> exact;
  Edge exact_right_edge;
};

class Board {
 public:
  explicit Board(std::size_t ranges) : ranges_(ranges) {}
  template <class Ready>
  void wait(Ready&& ready) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || ready(); });
    if (failed_) throw Abandoned{};
  }
  template <class Change>
  void post(Change&& change) {
    {
      const std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }
  void fail() {
    post([&] { failed_ = true; });
  }
  // What a device waiting on a failed one throws.
  struct Abandoned {};
  std::vector<RangeState>& ranges() { return ranges_; }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool failed_ = false;
  std::vector<RangeState> ranges_;
};

PassResult shifted(PassResult r, std::int64_t columns) {
  if (r.score > 0) r.end_j += columns;
  return r;
}

}  // namespace

PassResult spread_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                       const std::vector<int>& devices, const GpuTuning& tuning, Progress* progress,
                       std::atomic<int>* fresh_stood) {
  const auto n = static_cast<std::int64_t>(t.size());
  const std::vector<SpreadRange> ranges = spread_ranges(n, devices.size());
  const std::size_t k = ranges.size();
  Board board(k);
  auto& state = board.ranges();
  const auto columns = [&](std::int64_t a, std::int64_t b) { return t.subspan(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a)); };
  const auto pass = [&](std::size_t d, std::int64_t a, std::int64_t b, const Edge* left, Edge* right, Progress* counted) {
    return shifted(score_pass_gpu_between(q, columns(a, b), scheme, shape, devices[d], tuning, counted, {left, right}), a);
  };
  auto work = [&](std::size_t d) {
    const SpreadRange& r = ranges[d];
    const bool last = d + 1 == k;
    if (d == 0) {
      Edge right;
      const PassResult exact = pass(d, r.begin, r.end, nullptr, last ? nullptr : &right, progress);
      board.post([&] { state[0].exact = exact, state[0].exact_right_edge = std::move(right); });
    } else {
      Edge probe_edge, right;
      const PassResult first = pass(d, r.begin, r.probe, nullptr, &probe_edge, progress);
      board.post([&] { state[d].fresh_first = first, state[d].fresh_probe_edge = std::move(probe_edge); });
      const PassResult second = pass(d, r.probe, r.end, &state[d].fresh_probe_edge, last ? nullptr : &right, progress);
      board.post([&] { state[d].fresh_second = second, state[d].fresh_right_edge = std::move(right); });
    }
    if (last) return;
    // Range d + 1 made exact, from range d's exact right edge.
    const std::size_t next = d + 1;
    const SpreadRange& nr = ranges[next];
    board.wait([&] { return state[d].exact.has_value() && state[next].fresh_first.has_value(); });
    Edge probe_edge;
    PassResult exact = pass(d, nr.begin, nr.probe, &state[d].exact_right_edge, &probe_edge, nullptr);
    Edge right;
    const bool stands = probe_edge == state[next].fresh_probe_edge;
    spdlog::debug("GPU {}: range {} of the target ({} columns from {}){} from column {}", devices[d], next + 1,
                  nr.end - nr.begin, nr.begin, stands ? ": its fresh run stands" : " computed again", nr.probe);
    if (stands) {  // the same from here on: the fresh second part stands
      if (fresh_stood) ++*fresh_stood;
      board.wait([&] { return state[next].fresh_second.has_value(); });
      keep_better(exact, *state[next].fresh_second);
      right = state[next].fresh_right_edge;
    } else {
      keep_better(exact, pass(d, nr.probe, nr.end, &probe_edge, next + 1 == k ? nullptr : &right, nullptr));
    }
    board.post([&] { state[next].exact = exact, state[next].exact_right_edge = std::move(right); });
  };
  std::vector<std::future<void>> runs;
  for (std::size_t d = 0; d < k; ++d)
    runs.push_back(std::async(std::launch::async, [&, d] {
      try {
        work(d);
      } catch (...) {
        board.fail();
        throw;
      }
    }));
  // Every device done before the first failure (not a device that gave up
  // waiting on it) is rethrown.
  std::exception_ptr failure;
  for (auto& r : runs) {
    try {
      r.get();
    } catch (const Board::Abandoned&) {
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  PassResult best{0, 0, 0};
  for (const RangeState& s : state) keep_better(best, *s.exact);
  return best;
}

}  // namespace gdp::pairwise
