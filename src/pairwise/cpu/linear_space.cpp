// Myers & Miller (1988), "Optimal alignments in linear space", in the
// maximising form: split the query at its middle row, find where an optimal
// path crosses that row from a forward pass over the top half and a reverse
// pass over the bottom half, recurse on the two corners. A vertical gap may
// span the middle row ("type 2"); tb and te are the open costs of a vertical
// gap at the sub-problem's top and bottom edge (0 where it continues a gap of
// the caller's). A sub-problem goes whole to a faster aligner where one
// takes it (the GPU's chunked traceback, once its kept edges fit).
#include <algorithm>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/task_pool.hpp"
#include "pairwise/cpu/band_start.hpp"
#include "pairwise/cpu/passes.hpp"

namespace gdp::pairwise {
namespace {

// The GPUs that a split's parts run on (Options::devices, else
// Options::device alone): each part on the one that runs the fewest parts
// when it starts.
class PartDevices {
 public:
  explicit PartDevices(const Options& o)
      : options_(o), running_(std::max<std::size_t>(o.devices.size(), 1), 0) {}

  // f(options), options.device the chosen GPU's.
  template <class F>
  void run(F&& f) {
    if (options_.devices.size() < 2) return f(options_);
    std::size_t k = 0;
    {
      const std::lock_guard lock(mutex_);
      k = static_cast<std::size_t>(std::min_element(running_.begin(), running_.end()) - running_.begin());
      ++running_[k];
    }
    struct Done {
      PartDevices& d;
      std::size_t k;
      ~Done() {
        const std::lock_guard lock(d.mutex_);
        --d.running_[k];
      }
    } done{*this, k};
    Options on = options_;
    on.device = options_.devices[k];
    f(on);
  }

 private:
  const Options& options_;
  std::mutex mutex_;
  std::vector<int> running_;
};

class MyersMiller {
 public:
  MyersMiller(const ScoringScheme& s, const Options& options, const WholeAligner& whole, Cigar& out)
      : s_(s),
        g_(gap_costs(s)),
        open_(s.gap_open),
        best_substitution_(std::max(0, *std::max_element(s.scores.begin(), s.scores.end()))),
        options_(options),
        whole_(whole),
        out_(out) {}

  void run(Residues a, Residues b, int tb, int te) {
    const std::int64_t M = static_cast<std::int64_t>(a.size()), N = static_cast<std::int64_t>(b.size());
    if (N == 0) return push_run(out_, Op::insertion, M);
    if (M == 0) return push_run(out_, Op::deletion, N);
    if (M == 1) return one_row(a[0], b, tb, te);
    if (whole_ && whole_(Part{a, b, GapEnds{tb, te}, false}, options_, out_)) return;

    const std::int64_t mid = M / 2;
    Rows top(N), bottom(N);
    pass(a.first(static_cast<std::size_t>(mid)), b, Shape{false, false, tb, End::corner}, top);
    reverse_pass(a.subspan(static_cast<std::size_t>(mid)), b, te, End::corner, bottom);
    const Crossing c = crossing(top, bottom);
    const std::size_t j = static_cast<std::size_t>(c.j);
    const std::size_t mi = static_cast<std::size_t>(mid);
    if (!c.spanning) {
      run(a.first(mi), b.first(j), tb, open_);
      run(a.subspan(mi), b.subspan(j), open_, te);
    } else {
      run(a.first(mi - 1), b.first(j), tb, 0);
      push_run(out_, Op::insertion, 2);
      run(a.subspan(mi + 1), b.subspan(j), 0, te);
    }
  }

  // The best path from anywhere in a x b to its last cell, whose vertical
  // gap into that cell opens at te: the top half's local pass and the
  // bottom half's reverse pass say where it crosses the middle row, or
  // that it starts in the bottom half (where the reverse pass's best is).
  // Returns where it starts.
  PartStart run_local(Residues a, Residues b, int te) {
    const std::int64_t M = static_cast<std::int64_t>(a.size()), N = static_cast<std::int64_t>(b.size());
    if (M == 0 || N == 0) return {M, N};  // a local alignment ending on the border is empty
    if (whole_)
      if (auto start = whole_(Part{a, b, GapEnds{0, te}, true}, options_, out_)) return *start;

    const std::int64_t mid = M == 1 ? 0 : M / 2;
    Rows top(N), bottom(N);
    if (mid > 0) pass(a.first(static_cast<std::size_t>(mid)), b, Shape{true, true, 0, End::corner}, top);
    const PassResult from = reverse_pass(a.subspan(static_cast<std::size_t>(mid)), b, te, End::anywhere, bottom);
    const Crossing c = mid > 0 ? crossing(top, bottom) : Crossing{};
    if (mid == 0 || from.score >= c.score) {  // it starts in the bottom half
      const PartStart start{M - from.end_i, N - from.end_j};
      run(a.subspan(static_cast<std::size_t>(start.i)), b.subspan(static_cast<std::size_t>(start.j)), open_, te);
      return start;
    }
    const std::size_t j = static_cast<std::size_t>(c.j);
    const std::size_t mi = static_cast<std::size_t>(mid);
    if (!c.spanning) {
      const PartStart start = run_local(a.first(mi), b.first(j), open_);
      run(a.subspan(mi), b.subspan(j), open_, te);
      return start;
    }
    const PartStart start = run_local(a.first(mi - 1), b.first(j), 0);
    push_run(out_, Op::insertion, 2);
    run(a.subspan(mi + 1), b.subspan(j), 0, te);
    return start;
  }

  // align_by_saved_rows: the crossings of the saved rows from the end up
  // (each row's H and F are the forward pass's, which a pass over any
  // part from a's and b's first letters would give), and the parts between
  // them, each aligned as soon as its crossing is known, on `part_threads`
  // threads while the bands above go on. `score`: the best path's to the
  // last cell. Returns where the path starts.
  PartStart run_saved(Residues a, Residues b, bool local, const SavedRows& saved, int score, SavedRowsSplit& split,
                      int part_threads) {
    struct Piece {
      std::int64_t i0, j0, i1, j1;  // a[i0, i1) x b[j0, j1)
      int tb, te;
      bool gap_above = false;  // a vertical gap spans the row above: two query letters before it
    };
    std::vector<Piece> pieces;  // from the end up
    std::deque<Cigar> paths;    // theirs (a deque: the tasks hold references)
    Cigar top_path;             // the part above the highest crossing's
    PartStart top_start;
    PartDevices devices(options_);
    TaskPool parts(part_threads);
    const auto align_piece = [&](const Piece& p) {
      pieces.push_back(p);
      Cigar& path = paths.emplace_back();
      parts.push([this, p, a, b, &path, &devices] {
        devices.run([&](const Options& on) {
          MyersMiller(s_, on, whole_, path).run(span(a, p.i0, p.i1), span(b, p.j0, p.j1), p.tb, p.te);
        });
      });
    };

    std::int64_t end_i = static_cast<std::int64_t>(a.size()), end_j = static_cast<std::int64_t>(b.size());
    int te = open_;
    long long need = score;  // the best path's to (end_i, end_j), whose gap into it opens at te
    std::optional<PartStart> start;  // a local start found in a band
    for (std::int64_t k = saved.rows(); k >= 1 && !start && end_i > 0 && !parts.failed(); --k) {
      const std::int64_t r = k * saved.every;
      if (r >= end_i) continue;
      const std::span<const int> row_h = saved.h(k), row_f = saved.f(k);
      std::int64_t j0 = band_start(row_h, row_f, end_j, end_i - r, need, best_substitution_, open_, g_.extend);
      PassResult from;
      Crossing c;
      for (;;) {  // the band's columns from j0; all of them where the best path was not found there
        Rows top(end_j - j0), bottom(end_j - j0);
        std::copy(row_h.begin() + j0, row_h.begin() + end_j + 1, top.h.begin());
        std::copy(row_f.begin() + j0, row_f.begin() + end_j + 1, top.f.begin());
        from = reverse_pass(span(a, r, end_i), span(b, j0, end_j), te, local ? End::anywhere : End::corner, bottom);
        c = crossing(top, bottom);
        c.j += j0;
        ++split.bands, split.cells += (end_i - r) * (end_j - j0);
        if (std::max(c.score, local ? static_cast<std::int64_t>(from.score) : c.score) >= need || j0 == 0) break;
        j0 = 0, ++split.widened;
      }
      if (local && from.score >= c.score) {  // it starts in the band
        start = PartStart{end_i - from.end_i, end_j - from.end_j};
        align_piece({start->i, start->j, end_i, end_j, open_, te});
      } else if (!c.spanning) {
        align_piece({r, c.j, end_i, end_j, open_, te});
        end_i = r, end_j = c.j, te = open_;
        need = row_h[static_cast<std::size_t>(c.j)];
      } else {
        align_piece({r + 1, c.j, end_i, end_j, 0, te, true});
        end_i = r - 1, end_j = c.j, te = 0;
        // F(r, j) = max(H(r - 1, j) - open, F(r - 1, j)) - extend: the best
        // path to (r - 1, j) whose gap into it opens free, less open + extend.
        need = static_cast<long long>(row_f[static_cast<std::size_t>(c.j)]) + g_.open_extend;
      }
    }
    if (!start && !parts.failed())
      parts.push([&, end_i, end_j, te] {
        devices.run([&](const Options& on) {
          MyersMiller above(s_, on, whole_, top_path);
          if (local)
            top_start = above.run_local(span(a, 0, end_i), span(b, 0, end_j), te);
          else
            above.run(span(a, 0, end_i), span(b, 0, end_j), open_, te);
        });
      });
    parts.finish();

    for (const auto& run : top_path) push_run(out_, run.op, run.length);
    for (std::size_t k = pieces.size(); k-- > 0;) {
      if (pieces[k].gap_above) push_run(out_, Op::insertion, 2);
      for (const auto& run : paths[k]) push_run(out_, run.op, run.length);
    }
    return start ? *start : top_start;
  }

 private:
  static Residues span(Residues x, std::int64_t from, std::int64_t to) {
    return x.subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
  }

  // H and F of a pass's last row.
  struct Rows {
    explicit Rows(std::int64_t n) : h(static_cast<std::size_t>(n + 1)), f(h.size()) {}
    std::vector<int> h, f;
  };
  struct Crossing {
    std::int64_t score = std::numeric_limits<std::int64_t>::min(), j = 0;
    bool spanning = false;
  };

  PassResult pass(Residues a, Residues b, const Shape& shape, Rows& rows) {
    return run_pass(a, b, s_, shape, options_, LastRow{rows.h.data(), rows.f.data()});
  }
  // A pass over a and b reversed, from their last cell; its gap down
  // column 0 (into that cell) opens at left_open.
  PassResult reverse_pass(Residues a, Residues b, int left_open, End end, Rows& rows) {
    const std::vector<std::uint8_t> ra(a.rbegin(), a.rend()), rb(b.rbegin(), b.rend());
    return pass(ra, rb, Shape{false, false, left_open, end}, rows);
  }

  // Where the path crosses the row between the passes. Type 1: it leaves
  // the top half at (mid, j). Type 2: a vertical gap spans the row, its
  // open charged in both halves, so one open is added back.
  Crossing crossing(const Rows& top, const Rows& bottom) const {
    const std::int64_t N = static_cast<std::int64_t>(top.h.size()) - 1;
    Crossing c{static_cast<std::int64_t>(top.h[0]) + bottom.h[N], 0, false};
    for (std::int64_t j = 0; j <= N; ++j) {
      const std::int64_t through = static_cast<std::int64_t>(top.h[j]) + bottom.h[N - j];
      const std::int64_t span = static_cast<std::int64_t>(top.f[j]) + bottom.f[N - j] + open_;
      if (through > c.score) c = {through, j, false};
      if (span > c.score) c = {span, j, true};
    }
    return c;
  }

  long long gap(std::int64_t k) const { return k > 0 ? s_.gap_cost(k) : 0; }

  // One query residue against b: either it meets one b_j, or it faces a gap
  // (joining the caller's vertical gap on the cheaper side).
  void one_row(std::uint8_t x, Residues b, int tb, int te) {
    const std::int64_t N = static_cast<std::int64_t>(b.size());
    long long best = -(std::min(tb, te) + g_.extend) - gap(N);
    std::int64_t best_j = 0;
    for (std::int64_t j = 1; j <= N; ++j) {
      const long long c = -gap(j - 1) + s_.score(x, b[j - 1]) - gap(N - j);
      if (c > best) best = c, best_j = j;
    }
    if (best_j == 0) {
      if (tb <= te) {
        push_run(out_, Op::insertion, 1);
        push_run(out_, Op::deletion, N);
      } else {
        push_run(out_, Op::deletion, N);
        push_run(out_, Op::insertion, 1);
      }
      return;
    }
    push_run(out_, Op::deletion, best_j - 1);
    push_run(out_, x == b[best_j - 1] ? Op::match : Op::mismatch, 1);
    push_run(out_, Op::deletion, N - best_j);
  }

  const ScoringScheme& s_;
  GapCosts g_;
  int open_;
  long long best_substitution_;  // at least 0
  const Options& options_;
  const WholeAligner& whole_;
  Cigar& out_;
};

}  // namespace

namespace {

// Appends the path from `start` to the last cell of q x t to cigar and
// returns its score.
int append_rescored(Residues q, Residues t, const ScoringScheme& scheme, PartStart start, Cigar path, Cigar& cigar) {
  Alignment a;
  a.query_begin = start.i, a.target_begin = start.j;
  a.query_end = static_cast<std::int64_t>(q.size());
  a.target_end = static_cast<std::int64_t>(t.size());
  for (const auto& r : path) push_run(cigar, r.op, r.length);
  a.cigar = std::move(path);
  return rescore(a, q, t, scheme);
}

}  // namespace

int align_linear_global(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                        const WholeAligner& whole) {
  Cigar path;
  MyersMiller(scheme, options, whole, path).run(q, t, scheme.gap_open, scheme.gap_open);
  return append_rescored(q, t, scheme, PartStart{}, std::move(path), cigar);
}

int align_linear_local_end(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                           PartStart& start, const WholeAligner& whole) {
  Cigar path;
  start = MyersMiller(scheme, options, whole, path).run_local(q, t, scheme.gap_open);
  return append_rescored(q, t, scheme, start, std::move(path), cigar);
}

int align_by_saved_rows(Residues q, Residues t, const ScoringScheme& scheme, bool local, const SavedRows& saved,
                        int score, const Options& options, Cigar& cigar, PartStart& start, const WholeAligner& whole,
                        SavedRowsSplit* split, int part_threads) {
  Cigar path;
  SavedRowsSplit counted;
  start = MyersMiller(scheme, options, whole, path)
              .run_saved(q, t, local, saved, score, split ? *split : counted, part_threads);
  return append_rescored(q, t, scheme, start, std::move(path), cigar);
}

}  // namespace gdp::pairwise
