// rebased16.hpp's 16-bit cells with a lane's 32-bit base against the 32-bit
// oracle, on pairs whose scores cross 32,767 many times over: lanes of Cols
// columns sweep the rows as a kernel's would (a row at a time here), each
// handing its row's last H and es to the next with its bases, each
// rebased every plan().rows rows. The low half aligns the query with one
// target, the high half with another. Local passes, and global ones (row 0
// and column 0 gap costs, the floor the reach below the bases, as the
// rebased kernel's global shapes have: striped_score16.cu), whose row m's
// H and F are checked.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/rebased16.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

// `value`, offsets from (from_lo, from_hi), as offsets from (to_lo, to_hi),
// no lower than -reach: what a lane hands the next.
unsigned receive(unsigned value, int from_lo, int from_hi, int to_lo, int to_hi, int reach) {
  const long long lo = static_cast<long long>(low(value)) + from_lo - to_lo;
  const long long hi = static_cast<long long>(high(value)) + from_hi - to_hi;
  return pair(static_cast<int>(std::max<long long>(lo, -reach)), static_cast<int>(std::max<long long>(hi, -reach)));
}

struct Lane {
  int base[2] = {0, 0};
  unsigned floor = 0;
  std::vector<unsigned> h, fs;
};

// Each half's score and end cell (the first in row-major order among ties),
// and its row m's H and F at columns 1..n.
struct Swept {
  std::vector<PassResult> best = std::vector<PassResult>(2);
  std::vector<int> last_h[2], last_f[2];
};

template <int Cols>
Swept sweep(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& ta,
            const std::vector<std::uint8_t>& tb, const ScoringScheme& s, const Shape& shape) {
  const rebased16::Plan plan = rebased16::plan(s.gap_open + s.gap_extend, s.max_abs_score(), Cols + 1);
  REQUIRE(plan.rows > 0);
  const std::size_t n = ta.size(), lanes = (n + Cols - 1) / Cols;
  REQUIRE(tb.size() == n);
  const GapCosts g = gap_costs(s);
  const unsigned minus_oe = pair(-(s.gap_open + s.gap_extend), -(s.gap_open + s.gap_extend));
  const unsigned minus_extend = pair(-s.gap_extend, -s.gap_extend);
  const unsigned global_floor = pair(-plan.reach, -plan.reach);
  std::vector<Lane> lane(lanes);
  for (std::size_t L = 0; L < lanes; ++L) {
    // Row 0 from a base at the column before the lane's first; fs(1, j) = H(0, j).
    Lane& l = lane[L];
    const int base = top_h_of(shape, g, static_cast<std::int64_t>(L * Cols));
    l.base[0] = l.base[1] = base;
    if (!shape.local) l.floor = global_floor;
    for (int c = 0; c < Cols; ++c) {
      const int h0 = top_h_of(shape, g, static_cast<std::int64_t>(L * Cols) + c + 1) - base;
      l.h.push_back(pair(h0, h0)), l.fs.push_back(pair(h0, h0));
    }
  }
  Swept out;
  for (auto& row : out.last_h) row.assign(n, 0);
  for (auto& row : out.last_f) row.assign(n, 0);
  std::vector<PassResult>& best = out.best;
  // What each lane handed on: H of its last column in the row before, es
  // into the next lane in this row, each with the bases it had then.
  struct Handed {
    unsigned value = 0;
    int base[2] = {0, 0};
  };
  std::vector<Handed> last_h(lanes);
  for (std::size_t L = 0; L < lanes; ++L) {  // row 0's last H of each lane
    const int h0 = top_h_of(shape, g, static_cast<std::int64_t>((L + 1) * Cols));
    last_h[L] = {0, {h0, h0}};
  }
  const std::size_t m = q.size();
  for (std::size_t i = 1; i <= m; ++i) {
    // Column 0: es(i, 1) = H(i, 0), and the diagonal H(i - 1, 0), as bases.
    const int left = left_h_of(shape, g, static_cast<std::int64_t>(i)), above = left_h_of(shape, g, static_cast<std::int64_t>(i) - 1);
    Handed es_in{0, {left, left}};
    Handed diag_in{0, {above, above}};
    for (std::size_t L = 0; L < lanes; ++L) {
      Lane& l = lane[L];
      const int reach = plan.reach;
      unsigned es = receive(es_in.value, es_in.base[0], es_in.base[1], l.base[0], l.base[1], reach);
      const unsigned diag =
          receive(diag_in.value, diag_in.base[0], diag_in.base[1], l.base[0], l.base[1], reach);
      unsigned h[Cols], fs[Cols], sub[Cols];
      for (int c = 0; c < Cols; ++c) {
        const std::size_t j = L * Cols + static_cast<std::size_t>(c);
        h[c] = l.h[static_cast<std::size_t>(c)], fs[c] = l.fs[static_cast<std::size_t>(c)];
        // Columns past the targets' end score as the worst mismatch.
        sub[c] = j < n ? pair(s.score(q[i - 1], ta[j]), s.score(q[i - 1], tb[j])) : pair(-128, -128);
      }
      diag_in = last_h[L];  // the next lane's diagonal: this lane's last H of row i - 1
      for (int c = 0; c < Cols && i == m; ++c)  // F(m, j): fs before row m, less open + extend
        if (const std::size_t j = L * Cols + static_cast<std::size_t>(c); j < n)
          for (int half = 0; half < 2; ++half)
            out.last_f[half][j] = l.base[half] + (half ? high(fs[c]) : low(fs[c])) - g.open_extend;
      rebased16::lane_row<Cols>(h, fs, sub, es, diag, l.floor, minus_oe, minus_extend);
      for (int c = 0; c < Cols; ++c) {
        const std::size_t j = L * Cols + static_cast<std::size_t>(c);
        if (j >= n) break;
        const int v[2] = {l.base[0] + low(h[c]), l.base[1] + high(h[c])};
        if (i == m) out.last_h[0][j] = v[0], out.last_h[1][j] = v[1];
        for (int half = 0; half < 2; ++half)
          if (v[half] > best[static_cast<std::size_t>(half)].score)
            best[static_cast<std::size_t>(half)] = {v[half], static_cast<std::int64_t>(i), static_cast<std::int64_t>(j + 1)};
      }
      es_in = {es, {l.base[0], l.base[1]}};
      last_h[L] = {h[Cols - 1], {l.base[0], l.base[1]}};
      if (i % static_cast<std::size_t>(plan.rows) == 0) {
        const int lo = low(h[0]), hi = high(h[0]);
        l.base[0] += lo, l.base[1] += hi;
        l.floor = shape.local ? rebased16::floor_of(l.base[0], l.base[1], reach) : global_floor;
        rebased16::rebase<Cols>(h, fs, lo, hi, l.floor);
      }
      for (int c = 0; c < Cols; ++c) l.h[static_cast<std::size_t>(c)] = h[c], l.fs[static_cast<std::size_t>(c)] = fs[c];
    }
  }
  return out;
}

// Returns the oracle's best score of the two halves (local), or the
// largest |H| of their row m (global).
template <int Cols>
int check(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& ta, const std::vector<std::uint8_t>& tb,
          const ScoringScheme& s, Mode mode = Mode::local) {
  const Shape shape = shape_of(mode, s);
  const Swept got = sweep<Cols>(q, ta, tb, s, shape);
  const std::vector<std::uint8_t>* targets[2] = {&ta, &tb};
  int largest = 0;
  for (int half = 0; half < 2; ++half) {
    INFO("Cols " << Cols << ", half " << half << ", mode " << to_string(mode));
    std::vector<int> h(ta.size() + 1), f(ta.size() + 1);
    const PassResult want = score_pass_scalar(q, *targets[half], s, shape, LastRow{h.data(), f.data()});
    if (shape.local) {
      CHECK(got.best[static_cast<std::size_t>(half)].score == want.score);
      CHECK(got.best[static_cast<std::size_t>(half)].end_i == want.end_i);
      CHECK(got.best[static_cast<std::size_t>(half)].end_j == want.end_j);
      largest = std::max(largest, want.score);
    } else {
      CHECK(std::equal(h.begin() + 1, h.end(), got.last_h[half].begin()));
      CHECK(std::equal(f.begin() + 1, f.end(), got.last_f[half].begin()));
      for (std::size_t j = 1; j < h.size(); ++j) largest = std::max(largest, std::abs(h[j]));
    }
  }
  return largest;
}

// 2,000 random letters, a copy of them with 5% changed (2,100 letters),
// and unrelated letters as long: the pairs scored in hundreds below.
struct ThreeSequences {
  std::vector<std::uint8_t> q, ta, tb;
};
ThreeSequences similar_beside_unrelated(std::mt19937& rng) {
  ThreeSequences x;
  x.q = test::random_ranks(rng, 2000, 4);
  x.ta = test::mutate(rng, x.q, 4, 0.05);
  x.ta.resize(2100, 1);
  x.tb = test::random_ranks(rng, x.ta.size(), 4);
  return x;
}

}  // namespace

TEST_CASE("rebased 16-bit lanes of global shapes equal the 32-bit oracle's row m far beyond +-32,767", "[recurrence][rebased16]") {
  std::mt19937 rng(22);
  SECTION("DNA scored in hundreds: a similar pair (about 170,000) beside an unrelated one (far below)") {
    const ScoringScheme s = test::dna_scheme(100, -100, 100, 20);
    const auto [q, ta, tb] = similar_beside_unrelated(rng);
    for (const Mode mode : {Mode::global, Mode::semiglobal}) {
      CHECK(check<8>(q, ta, tb, s, mode) > 3 * 32767);
      check<32>(q, tb, ta, s, mode);
    }
  }
  SECTION("protein, BLOSUM62, and a short plan") {
    const ScoringScheme s = test::protein_scheme();
    const auto q = test::random_ranks(rng, 6000, 20);
    auto ta = test::mutate(rng, q, 20, 0.02);
    ta.resize(6000, 3);
    CHECK(check<16>(q, ta, test::random_ranks(rng, 6000, 20), s, Mode::global) > 32767);
    const ScoringScheme large_gaps = test::dna_scheme(120, -120, 100, 27);
    const auto r = test::random_ranks(rng, 800, 4);
    auto tr = test::mutate(rng, r, 4, 0.08);
    tr.resize(900, 2);
    check<32>(r, tr, test::random_ranks(rng, tr.size(), 4), large_gaps, Mode::global);
  }
}

TEST_CASE("rebased 16-bit lanes equal the 32-bit oracle on scores far above 32,767", "[recurrence][rebased16]") {
  std::mt19937 rng(21);
  SECTION("DNA scored in hundreds: a similar pair (about 170,000) beside an unrelated one") {
    const ScoringScheme s = test::dna_scheme(100, -100, 100, 20);
    const auto [q, ta, tb] = similar_beside_unrelated(rng);
    CHECK(check<8>(q, ta, tb, s) > 5 * 32767);
    check<32>(q, ta, tb, s);
    // The two halves swapped, and both similar: bases far apart in the two halves.
    check<8>(q, tb, ta, s);
    auto tc = test::mutate(rng, q, 4, 0.1);
    tc.resize(ta.size(), 0);
    check<16>(q, ta, tc, s);
  }
  SECTION("a short plan: large gaps, a rebase every few dozen rows") {
    const ScoringScheme s = test::dna_scheme(120, -120, 100, 27);
    REQUIRE(rebased16::plan(127, 120, 33).rows < 110);
    const auto q = test::random_ranks(rng, 1200, 4);
    auto ta = test::mutate(rng, q, 4, 0.08);
    ta.resize(1300, 2);
    CHECK(check<32>(q, ta, test::random_ranks(rng, ta.size(), 4), s) > 3 * 32767);
  }
  SECTION("protein, BLOSUM62: a similar pair above 32,767, and random pairs where the floor binds") {
    const ScoringScheme s = test::protein_scheme();
    const auto q = test::random_ranks(rng, 6000, 20);
    auto ta = test::mutate(rng, q, 20, 0.02);
    ta.resize(6000, 3);
    CHECK(check<16>(q, ta, test::random_ranks(rng, 6000, 20), s) > 32767);
    const auto r = test::random_ranks(rng, 300, 20);
    check<8>(r, test::random_ranks(rng, 500, 20), test::random_ranks(rng, 500, 20), s);
  }
}
