// Myers & Miller (1988), "Optimal alignments in linear space", in the
// maximising form: split the query at its middle row, find where an optimal
// path crosses that row from a forward pass over the top half and a reverse
// pass over the bottom half, recurse on the two corners. A vertical gap may
// span the middle row ("type 2"); tb and te are the open costs of a vertical
// gap at the sub-problem's top and bottom edge (0 where it continues a gap of
// the caller's). A sub-problem goes whole to a faster aligner where one
// takes it (the GPU's chunked traceback, once its kept edges fit).
#include <algorithm>
#include <vector>

#include "pairwise/cpu/passes.hpp"

namespace gdp::pairwise {
namespace {

class MyersMiller {
 public:
  MyersMiller(const ScoringScheme& s, const Options& options, const WholeAligner& whole, Cigar& out)
      : s_(s), g_(gap_costs(s)), open_(s.gap_open), options_(options), whole_(whole), out_(out) {}

  void run(Residues a, Residues b, int tb, int te) {
    const std::int64_t M = static_cast<std::int64_t>(a.size()), N = static_cast<std::int64_t>(b.size());
    if (N == 0) return push_run(out_, Op::insertion, M);
    if (M == 0) return push_run(out_, Op::deletion, N);
    if (M == 1) return one_row(a[0], b, tb, te);
    if (whole_ && whole_(a, b, GapEnds{tb, te}, out_)) return;

    const std::int64_t mid = M / 2;
    std::vector<int> cc(static_cast<std::size_t>(N + 1)), dd(cc.size()), rr(cc.size()), ss(cc.size());
    pass(a.first(static_cast<std::size_t>(mid)), b, tb, cc, dd);
    std::vector<std::uint8_t> ra(a.rbegin(), a.rend() - mid), rb(b.rbegin(), b.rend());
    pass(ra, rb, te, rr, ss);

    // Type 1: the path crosses row mid at (mid, j). Type 2: a vertical gap
    // spans it, its open charged in both halves, so one open is added back.
    std::int64_t best = static_cast<std::int64_t>(cc[0]) + rr[N], best_j = 0;
    bool spanning = false;
    for (std::int64_t j = 0; j <= N; ++j) {
      const std::int64_t through = static_cast<std::int64_t>(cc[j]) + rr[N - j];
      const std::int64_t span = static_cast<std::int64_t>(dd[j]) + ss[N - j] + open_;
      if (through > best) best = through, best_j = j, spanning = false;
      if (span > best) best = span, best_j = j, spanning = true;
    }
    const std::size_t j = static_cast<std::size_t>(best_j);
    const std::size_t mi = static_cast<std::size_t>(mid);
    if (!spanning) {
      run(a.first(mi), b.first(j), tb, open_);
      run(a.subspan(mi), b.subspan(j), open_, te);
    } else {
      run(a.first(mi - 1), b.first(j), tb, 0);
      push_run(out_, Op::insertion, 2);
      run(a.subspan(mi + 1), b.subspan(j), 0, te);
    }
  }

 private:
  void pass(Residues a, Residues b, int left_open, std::vector<int>& h, std::vector<int>& f) {
    const Shape shape{false, false, left_open, End::corner};
    run_pass(a, b, s_, shape, options_, LastRow{h.data(), f.data()});
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
  const Options& options_;
  const WholeAligner& whole_;
  Cigar& out_;
};

}  // namespace

int align_linear_global(Residues q, Residues t, const ScoringScheme& scheme, const Options& options, Cigar& cigar,
                        const WholeAligner& whole) {
  Cigar local;
  MyersMiller(scheme, options, whole, local).run(q, t, scheme.gap_open, scheme.gap_open);
  Alignment a;
  a.query_end = static_cast<std::int64_t>(q.size());
  a.target_end = static_cast<std::int64_t>(t.size());
  a.cigar = local;
  for (const auto& r : local) push_run(cigar, r.op, r.length);
  return rescore(a, q, t, scheme);
}

}  // namespace gdp::pairwise
