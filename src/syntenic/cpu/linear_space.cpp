// A syntenic alignment in linear memory: Myers and Miller's divide and
// conquer extended to the four states, as Huang and Chao's GAP3 does.
//
// A part of the matrix is entered at its top-left corner in one of four
// ways and left at its bottom-right corner in one of four. A forward pass
// to the middle row i* and a pass over the reversed sequences from the end
// meet on row i*; the optimal path's last point on that row is (i*, j),
// and from there its next move goes down, so the path joins there in one
// of three ways:
//   clean:  S forward + S backward;
//   a vertical gap run crosses: D forward + D backward + alpha (opened once);
//   a block crosses:            H forward + H backward + d (charged once).
// The two halves are aligned the same way, left in and entered by the
// crossing's state. With two GPUs or more (Options::devices), the forward
// pass runs on the first and the backward pass on the second, side by side.
// On several threads, the small parts are set aside as the division
// reaches them, in the path's order, and aligned side by side once it is
// done, each on one thread (its passes on the GPU where it has one); their
// steps join in that order, and their scores add up to the alignment's. Small parts go through a full matrix of direction
// bits, whose borders are cells of the same recurrence with minus infinity
// outside the matrix.
#include <algorithm>
#include <functional>
#include <future>
#include <memory>
#include <vector>

#include "core/parallel_for.hpp"
#include "core/progress.hpp"
#include "core/worker_thread.hpp"
#include "syntenic/cpu/passes.hpp"
#include "syntenic/cuda/gpu_pass.hpp"

namespace gdp::syntenic {
namespace {

// How a part is left: the alignment's own end, anyhow (S), at the end of a
// vertical gap column (D), inside a block (H).
enum class Exit { end, any, gap, block };

Entry reversed(Exit x) {
  switch (x) {
    case Exit::end: return Entry::start;
    case Exit::any: return Entry::clean;
    case Exit::gap: return Entry::gap;
    case Exit::block: return Entry::block;
  }
  return Entry::clean;
}

// A part's passes on the GPU from this many cells, where the pair is on
// the GPU (its context and memory are up already), or from the options'
// min_gpu_cells where that is less; smaller ones on the CPU.
constexpr std::int64_t kGpuPartCells = 4'000'000;

bool on_gpu(std::int64_t m, std::int64_t n, const Options& o) {
  return o.backend == Backend::gpu && m * n >= std::min(o.min_gpu_cells, kGpuPartCells);
}

// Parts of at least this many cells that are not for the GPU take the CPU
// threads' tiles; smaller ones one thread.
constexpr std::int64_t kTiledCells = 4'000'000;

// Parts of fewer cells are set aside for the threads (above): on the CPU,
// those that one thread aligns faster alone than the tiles do; with the
// GPU, those whose passes leave most of it idle (a strip a warp, a few
// hundred strips at most), their kernels then sharing it, each thread's
// ring of boundary columns a few MiB.
std::int64_t set_aside_below(const Options& o) {
  return o.backend == Backend::gpu ? std::int64_t{1} << 28 : kTiledCells;
}

// S, D, H of the part's last row, entered by `entry`: on the GPU `device`
// where the part is large enough and the options have one, else on the
// CPU threads. Its cells are added to o.progress, if set.
std::vector<Down> last_row(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c, Entry entry,
                           const Options& o, int device) {
  const Borders borders = borders_of(entry, a.size(), b.size(), c);
  const std::int64_t cells = static_cast<std::int64_t>(a.size()) * static_cast<std::int64_t>(b.size());
  if (on_gpu(static_cast<std::int64_t>(a.size()), static_cast<std::int64_t>(b.size()), o))
    return last_row_gpu(a, b, scheme, c, borders, device, o.tuning, o.progress);
  if (o.backend != Backend::cpu_scalar && o.threads > 1 && cells >= kTiledCells)
    return last_row_tiled(a, b, scheme, c, borders, o.threads, o.progress);
  std::vector<Down> row = borders.top;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diag = row[0].s;
    row[0] = borders.left_down(i);
    Edge edge = borders.left[i];
    const int* sub = scheme.row(a[i - 1]);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j].s;
      update_cell(diag, sub[b[j - 1]], row[j], edge, c);
      diag = above;
    }
    if (o.progress) o.progress->add(b.size());
  }
  return row;
}

std::vector<std::uint8_t> reverse_of(Residues r) { return {r.rbegin(), r.rend()}; }

int value_of(const Down& x, Exit exit, const Costs& c) {
  switch (exit) {
    case Exit::end: return final_score(c, x.s, x.h);
    case Exit::any: return x.s;
    case Exit::gap: return x.d;
    case Exit::block: return x.h;
  }
  return x.s;
}

class Aligner {
 public:
  Aligner(const ScoringScheme& scheme, const Costs& c, const Options& o, std::int64_t base_cells)
      : scheme_(scheme), c_(c), o_(o), base_cells_(base_cells), progress_(o.progress) {
    // The second GPU's passes on one thread for the whole alignment: its
    // device memory (thread_device_local) kept from one pass to the next.
    if (o.devices.size() > 1)
      second_ = std::make_unique<WorkerThread<std::function<void()>>>([](auto& passes) {
        for (auto& pass : passes) pass();
      });
  }

  // The steps of an optimal path through a and b, entered and left as
  // asked, and its score.
  int align_whole(Residues a, Residues b, Entry entry, Exit exit) {
    const int score = align(a, b, entry, exit);
    if (set_aside_.empty()) return score;
    parallel_for(static_cast<std::int64_t>(set_aside_.size()), o_.threads, [&](std::int64_t k) {
      Part& part = set_aside_[static_cast<std::size_t>(k)];
      Options one = o_;
      if (o_.backend != Backend::gpu) one.backend = Backend::cpu_scalar;
      one.threads = 1, one.devices.clear();
      if (!o_.devices.empty()) one.device = o_.devices[static_cast<std::size_t>(k) % o_.devices.size()];
      Aligner alone(scheme_, c_, one, base_cells_);
      part.score = alone.align(part.a, part.b, part.entry, part.exit);
      part.steps = std::move(alone.steps);
    });
    int total = score;  // the parts not set aside add nothing of their own
    for (Part& part : set_aside_) {
      total += part.score;
      steps.insert(steps.end(), part.steps.begin(), part.steps.end());
    }
    return total;
  }

  std::vector<Step> steps;

 private:
  // Appends the steps of an optimal path through a x b, entered and left
  // as asked, and returns its score; or sets the part aside (its steps and
  // score come from align_whole).
  int align(Residues a, Residues b, Entry entry, Exit exit) {
    const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
    if (o_.threads > 1 && m * n < set_aside_below(o_)) {
      set_aside_.push_back({a, b, entry, exit, 0, {}});
      return 0;
    }
    if (m <= 1 || (m + 1) * (n + 1) <= base_cells_) return full_matrix(a, b, entry, exit);
    const std::int64_t mid = m / 2;
    const std::vector<std::uint8_t> ra = reverse_of(a.subspan(static_cast<std::size_t>(mid))), rb = reverse_of(b);
    const auto pass = [&](Residues x, Residues y, Entry e, int device) { return last_row(x, y, scheme_, c_, e, o_, device); };
    std::vector<Down> forward, backward;
    const int first = o_.devices.empty() ? o_.device : o_.devices[0];
    if (second_ && on_gpu(m - mid, n, o_)) {
      std::promise<void> done;
      second_->push([&] {
        try {
          backward = pass(ra, rb, reversed(exit), o_.devices[1]);
          done.set_value();
        } catch (...) {
          done.set_exception(std::current_exception());
        }
      });
      std::exception_ptr failure;
      try {
        forward = pass(a.first(static_cast<std::size_t>(mid)), b, entry, first);
      } catch (...) {
        failure = std::current_exception();
      }
      done.get_future().get();  // the backward pass ends (or throws) before the forward one's failure is passed on
      if (failure) std::rethrow_exception(failure);
    } else {
      forward = pass(a.first(static_cast<std::size_t>(mid)), b, entry, first);
      backward = pass(ra, rb, reversed(exit), first);
    }

    const int alpha = c_.open_extend - c_.extend;
    Exit cut = Exit::any;
    std::int64_t best_j = 0;
    long long best = static_cast<long long>(neg_inf) * 4;
    for (std::int64_t j = 0; j <= n; ++j) {
      const Down& f = forward[static_cast<std::size_t>(j)];
      const Down& r = backward[static_cast<std::size_t>(n - j)];
      const long long terms[3] = {static_cast<long long>(f.s) + r.s, static_cast<long long>(f.d) + r.d + alpha,
                                  static_cast<long long>(f.h) + r.h + c_.block};
      const Exit kinds[3] = {Exit::any, Exit::gap, Exit::block};
      for (int k = 0; k < 3; ++k)
        if (terms[k] > best) best = terms[k], best_j = j, cut = kinds[k];
    }
    const Entry resume = cut == Exit::any ? Entry::clean : cut == Exit::gap ? Entry::gap : Entry::block;
    const std::size_t j = static_cast<std::size_t>(best_j), i = static_cast<std::size_t>(mid);
    // The lower half is entered inside the run or block the upper half
    // paid for: their scores add up.
    const int top = align(a.first(i), b.first(j), entry, cut);
    return top + align(a.subspan(i), b.subspan(j), resume, exit);
  }

  int full_matrix(Residues a, Residues b, Entry entry, Exit exit) {
    const std::size_t m = a.size(), n = b.size(), w = n + 1;
    std::vector<std::uint8_t> dirs((m + 1) * w);
    const Origin o = origin_of(entry, c_);
    std::vector<Down> row(n + 1);
    row[0] = {o.s, o.d, o.h};
    Edge edge{o.s, o.i, o.h, 0};
    for (std::size_t j = 1; j <= n; ++j) dirs[j] = static_cast<std::uint8_t>(border_top(row[j], edge, c_));
    for (std::size_t i = 1; i <= m; ++i) {
      int diag = row[0].s;
      dirs[i * w] = static_cast<std::uint8_t>(border_left(row[0], edge, c_));
      const int* sub = scheme_.row(a[i - 1]);
      for (std::size_t j = 1; j <= n; ++j) {
        const int above = row[j].s;
        dirs[i * w + j] = static_cast<std::uint8_t>(update_cell(diag, sub[b[j - 1]], row[j], edge, c_));
        diag = above;
      }
    }
    if (progress_) progress_->add(static_cast<std::uint64_t>(m * n));
    const Down& last = row[n];
    int state = exit == Exit::gap ? in_d
                : exit == Exit::block || (exit == Exit::end && c_.charged && last.h > last.s - c_.block) ? in_h
                                                                                                       : in_s;
    // The steps of this part, last first; the borders are cells like the
    // others here.
    std::vector<Step> back;
    std::int64_t i = static_cast<std::int64_t>(m), j = static_cast<std::int64_t>(n);
    while (i > 0 || j > 0)
      take_step(step_back(state, dirs[static_cast<std::size_t>(i) * w + static_cast<std::size_t>(j)]), back, i, j);
    // A block the path is in at the origin opened there, unless the part
    // was entered inside it.
    if (state == in_h && entry != Entry::block && !back.empty()) back.back().starts = true;
    steps.insert(steps.end(), back.rbegin(), back.rend());
    return value_of(last, exit, c_);
  }

  const ScoringScheme& scheme_;
  Costs c_;
  const Options& o_;
  std::int64_t base_cells_;
  Progress* progress_;
  std::unique_ptr<WorkerThread<std::function<void()>>> second_;  // with two GPUs or more
  // A part set aside for one CPU thread, and what aligning it gave.
  struct Part {
    Residues a, b;
    Entry entry;
    Exit exit;
    int score = 0;
    std::vector<Step> steps;
  };
  std::vector<Part> set_aside_;  // in the path's order
};

}  // namespace

Alignment align_linear(Residues a, Residues b, const ScoringScheme& scheme, const Costs& c, const Options& o,
                       std::int64_t base_cells) {
  Alignment out;
  out.query_end = static_cast<std::int64_t>(a.size());
  out.target_end = static_cast<std::int64_t>(b.size());
  if (a.empty() && b.empty()) {  // the empty alignment: no block, both charges
    out.score = c.charged ? -2 * c.block : 0;
    return out;
  }
  Aligner aligner(scheme, c, o, base_cells);
  out.score = aligner.align_whole(a, b, Entry::start, Exit::end);
  out.regions = regions_of(aligner.steps, a, b, scheme, c);
  return out;
}

}  // namespace gdp::syntenic
