// rebased16.hpp's 16-bit cells with a lane's 32-bit base against the 32-bit
// oracle, on pairs whose scores cross 32,767 many times over: lanes of Cols
// columns sweep the rows as a kernel's would (a row at a time here), each
// handing its row's last H and es to the next with its bases, each
// rebased every plan().rows rows. The low half aligns the query with one
// target, the high half with another.
#include <catch2/catch.hpp>
#include <algorithm>
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

// Each half's score and end cell (the first in row-major order among ties).
template <int Cols>
std::vector<PassResult> sweep(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& ta,
                              const std::vector<std::uint8_t>& tb, const ScoringScheme& s) {
  const rebased16::Plan plan = rebased16::plan(s.gap_open + s.gap_extend, s.max_abs_score(), Cols + 1);
  REQUIRE(plan.rows > 0);
  const std::size_t n = ta.size(), lanes = (n + Cols - 1) / Cols;
  REQUIRE(tb.size() == n);
  const unsigned minus_oe = pair(-(s.gap_open + s.gap_extend), -(s.gap_open + s.gap_extend));
  const unsigned minus_extend = pair(-s.gap_extend, -s.gap_extend);
  std::vector<Lane> lane(lanes);
  for (Lane& l : lane) l.h.assign(Cols, 0), l.fs.assign(Cols, 0);
  // What each lane handed on: H of its last column in the row before, es
  // into the next lane in this row, each with the bases it had then.
  struct Handed {
    unsigned value = 0;
    int base[2] = {0, 0};
  };
  std::vector<Handed> last_h(lanes);
  std::vector<PassResult> best(2);
  for (std::size_t i = 1; i <= q.size(); ++i) {
    Handed es_in;  // column 0's: H(i, 0) = 0, es(i, 1) = 0
    Handed diag_in;  // H(i - 1, 0) = 0
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
      rebased16::lane_row<Cols>(h, fs, sub, es, diag, l.floor, minus_oe, minus_extend);
      for (int c = 0; c < Cols; ++c) {
        const std::size_t j = L * Cols + static_cast<std::size_t>(c);
        if (j >= n) break;
        const int v[2] = {l.base[0] + low(h[c]), l.base[1] + high(h[c])};
        for (int half = 0; half < 2; ++half)
          if (v[half] > best[static_cast<std::size_t>(half)].score)
            best[static_cast<std::size_t>(half)] = {v[half], static_cast<std::int64_t>(i), static_cast<std::int64_t>(j + 1)};
      }
      es_in = {es, {l.base[0], l.base[1]}};
      last_h[L] = {h[Cols - 1], {l.base[0], l.base[1]}};
      if (i % static_cast<std::size_t>(plan.rows) == 0) {
        const int lo = low(h[0]), hi = high(h[0]);
        l.base[0] += lo, l.base[1] += hi;
        l.floor = rebased16::floor_of(l.base[0], l.base[1], reach);
        rebased16::rebase<Cols>(h, fs, lo, hi, l.floor);
      }
      for (int c = 0; c < Cols; ++c) l.h[static_cast<std::size_t>(c)] = h[c], l.fs[static_cast<std::size_t>(c)] = fs[c];
    }
  }
  return best;
}

// Returns the oracle's best score of the two halves.
template <int Cols>
int check(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& ta, const std::vector<std::uint8_t>& tb,
          const ScoringScheme& s) {
  const auto got = sweep<Cols>(q, ta, tb, s);
  const Shape shape = shape_of(Mode::local, s);
  const PassResult want[2] = {score_pass_scalar(q, ta, s, shape), score_pass_scalar(q, tb, s, shape)};
  for (int half = 0; half < 2; ++half) {
    INFO("Cols " << Cols << ", half " << half);
    CHECK(got[static_cast<std::size_t>(half)].score == want[half].score);
    CHECK(got[static_cast<std::size_t>(half)].end_i == want[half].end_i);
    CHECK(got[static_cast<std::size_t>(half)].end_j == want[half].end_j);
  }
  return std::max(want[0].score, want[1].score);
}

}  // namespace

TEST_CASE("rebased 16-bit lanes equal the 32-bit oracle on scores far above 32,767", "[recurrence][rebased16]") {
  std::mt19937 rng(21);
  SECTION("DNA scored in hundreds: a similar pair (about 170,000) beside an unrelated one") {
    const ScoringScheme s = test::dna_scheme(100, -100, 100, 20);
    const auto q = test::random_ranks(rng, 2000, 4);
    auto ta = test::mutate(rng, q, 4, 0.05);
    ta.resize(2100, 1);
    const auto tb = test::random_ranks(rng, ta.size(), 4);
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
