// The kernels' rewritten forms of the affine cell (recurrence.hpp) against
// the plain form the oracle runs, on rows of random cells.
#include <catch2/catch.hpp>

#include <random>

#include "pairwise/gotoh_cell.hpp"
#include "pairwise/recurrence.hpp"

namespace gdp::pairwise {
namespace {

constexpr int kCols = 16;

// A row of kCols cells by the plain form: H of the row, E after each cell,
// and F of the row and of the row below.
struct PlainRow {
  int h[kCols], e[kCols], f[kCols], f_below[kCols];
};

template <bool Local>
PlainRow plain_row(const int (&h_above)[kCols], const int (&f_above)[kCols], const int (&sub)[kCols], int diag,
                   int left_h, int e_in, GapCosts g) {
  PlainRow r{};
  int e = e_in, left = left_h;
  for (int c = 0; c < kCols; ++c) {
    int f = f_above[c];
    r.h[c] = update_cell<Local>(diag, h_above[c], left, sub[c], e, f, g);
    r.e[c] = e;
    r.f[c] = f;
    r.f_below[c] = max2(f - g.extend, r.h[c] - g.open_extend);
    diag = h_above[c];
    left = r.h[c];
  }
  return r;
}

template <bool Local>
void check_from_a(std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-5000, 5000), score(-1000, 1000), open(0, 40), extend(0, 20), coin(0, 7);
  const int gap_open = open(rng), gap_extend = extend(rng);
  const GapCosts g{gap_open + gap_extend, gap_extend};
  int h_above[kCols], f_above[kCols], sub[kCols];
  for (int c = 0; c < kCols; ++c) {
    h_above[c] = Local ? std::abs(value(rng)) : value(rng);
    f_above[c] = coin(rng) == 0 ? neg_inf : value(rng);
    sub[c] = score(rng);
  }
  const int diag = Local ? std::abs(value(rng)) : value(rng), left_h = Local ? std::abs(value(rng)) : value(rng);
  const int e_in = coin(rng) == 0 ? neg_inf : value(rng);
  const PlainRow want = plain_row<Local>(h_above, f_above, sub, diag, left_h, e_in, g);

  // The rewrite carries F(i, c) in, from the row above's update.
  int e = e_in, e_open = left_h - g.open_extend, d = diag;
  for (int c = 0; c < kCols; ++c) {
    int f = max2(f_above[c] - g.extend, h_above[c] - g.open_extend);
    REQUIRE(f == want.f[c]);
    const int h = update_cell_from_a<Local>(d, sub[c], e, e_open, f, g);
    REQUIRE(h == want.h[c]);
    REQUIRE(e == want.e[c]);
    REQUIRE(f == want.f_below[c]);
    d = h_above[c];
  }
}

TEST_CASE("the E-from-A rewrite equals the plain cell on random rows", "[recurrence]") {
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    check_from_a<true>(rng);
    check_from_a<false>(rng);
  }
}

// Two independent local rows at once, one a 16-bit half, each against the
// plain form: values as large as the kernels let them grow before they
// rerun in 32 bits, 8-bit substitution scores.
TEST_CASE("the 16-bit pair forms equal the plain cell on random local rows", "[recurrence]") {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> value(0, 30000), score(-128, 127), open(0, 40), extend(0, 20), coin(0, 7);
  for (int round = 0; round < 2000; ++round) {
    const int gap_open = open(rng), gap_extend = extend(rng);
    const GapCosts g{gap_open + gap_extend, gap_extend};
    const unsigned minus_oe = pair(-g.open_extend, -g.open_extend), minus_ext = pair(-g.extend, -g.extend);
    PlainRow want[2];
    unsigned fs[kCols], sub[kCols], h_above[kCols], es = 0, diag = 0;
    int hs[2][kCols], fa[2][kCols], sb[2][kCols], e_first[2];
    for (int half = 0; half < 2; ++half) {
      for (int c = 0; c < kCols; ++c) {
        hs[half][c] = coin(rng) == 0 ? 0 : value(rng);
        fa[half][c] = value(rng) - g.open_extend;  // fs >= 0: F is never below -oe in local alignment
        sb[half][c] = score(rng);
      }
      const int d = value(rng), left_h = value(rng), e_in = value(rng) - g.open_extend;
      want[half] = plain_row<true>(hs[half], fa[half], sb[half], d, left_h, e_in, g);
      e_first[half] = want[half].e[0];
      diag = half ? (diag & 0xffffu) | pair(0, d) : pair(d, 0);
    }
    for (int c = 0; c < kCols; ++c) {
      fs[c] = pair(want[0].f[c] + g.open_extend, want[1].f[c] + g.open_extend);
      sub[c] = pair(sb[0][c], sb[1][c]);
      h_above[c] = pair(hs[0][c], hs[1][c]);
    }
    es = pair(e_first[0] + g.open_extend, e_first[1] + g.open_extend);
    const unsigned es_in = es;
    unsigned a[kCols];
    for (int c = 0; c < kCols; ++c) {
      a[c] = a_s16x2(diag, sub[c], fs[c], minus_oe);
      unsigned es_whole = es, fs_whole = fs[c], es_chain = es, fs_chain = fs[c];
      const unsigned h_whole = update_cell_s16x2(diag, sub[c], es_whole, fs_whole, minus_oe, minus_ext);
      const unsigned h_chain =
          update_cell_s16x2_from_diag(diag_s16x2(diag, sub[c]), es_chain, fs_chain, minus_oe, minus_ext);
      REQUIRE(h_chain == h_whole);
      REQUIRE(es_chain == es_whole);
      REQUIRE(fs_chain == fs_whole);
      const unsigned h = finish_s16x2(a[c], es, fs[c], minus_oe, minus_ext);
      REQUIRE(h == h_whole);
      REQUIRE(es == es_whole);
      REQUIRE(fs[c] == fs_whole);
      REQUIRE(low(h) == want[0].h[c]);
      REQUIRE(high(h) == want[1].h[c]);
      REQUIRE(low(fs[c]) == want[0].f_below[c] + g.open_extend);
      REQUIRE(high(fs[c]) == want[1].f_below[c] + g.open_extend);
      if (c + 1 < kCols) {
        REQUIRE(low(es) == want[0].e[c + 1] + g.open_extend);
        REQUIRE(high(es) == want[1].e[c + 1] + g.open_extend);
      }
      diag = h_above[c];
    }
    // The row kernel's per-lane term: es out of the run from any es in.
    const unsigned decay = pair(-kCols * g.extend, -kCols * g.extend);
    REQUIRE(es == add_max_s16x2(es_in, decay, es_out_s16x2<kCols>(a, minus_ext)));
  }
}

// The strip engine's Gotoh cell policy: a lane's row of cells, its
// boundary's Down going in and coming out, and the traceback's direction
// bits, each by its definition in the plain form.
template <bool Local>
void check_cell_policy(std::mt19937& rng) {
  using Cell = GotohCell<Local>;
  std::uniform_int_distribution<int> value(-5000, 5000), score(-1000, 1000), open(0, 40), extend(0, 20), coin(0, 7);
  const int gap_open = open(rng), gap_extend = extend(rng);
  const GapCosts g{gap_open + gap_extend, gap_extend};
  const GotohCosts costs{gap_open, g.open_extend, g.extend, 0, gap_open};
  auto cell_value = [&] { return coin(rng) == 0 ? 0 : Local ? std::abs(value(rng)) : value(rng); };
  int h_above[kCols], f_above[kCols], sub[kCols];
  typename Cell::Down d[kCols];
  for (int c = 0; c < kCols; ++c) {
    h_above[c] = cell_value();
    f_above[c] = coin(rng) == 0 ? neg_inf : value(rng);
    sub[c] = score(rng);
    d[c] = {h_above[c], max2(f_above[c] - g.extend, h_above[c] - g.open_extend)};
  }
  const int diag = cell_value(), left_h = cell_value(), e_in = coin(rng) == 0 ? neg_inf : value(rng);
  const PlainRow want = plain_row<Local>(h_above, f_above, sub, diag, left_h, e_in, g);

  // Two lanes of 8 columns (the kept pass's), the second taking the
  // first's edge and diagonal, as lane 1 takes lane 0's.
  constexpr int kLane = kCols / 2;
  typename Cell::Edge edge{left_h, e_in};
  unsigned long long dirs = 0;
  int seen = 0, lane_diag = diag;
  for (int lane = 0; lane < 2; ++lane) {
    typename Cell::Down lane_d[kLane];
    int lane_sub[kLane];
    for (int c = 0; c < kLane; ++c) lane_d[c] = d[lane * kLane + c], lane_sub[c] = sub[lane * kLane + c];
    typename Cell::TraceCarry carry = Cell::carry_of(lane_d, costs);
    typename Cell::DirWord word = 0;
    Cell::template row<kLane, true>(
        lane_d, lane_sub, edge, lane_diag, costs,
        [&](int c, const GotohDown& before, const GotohDown& after) {
          const int col = lane * kLane + c;
          REQUIRE(col == seen++);
          REQUIRE(before.h == h_above[col]);
          REQUIRE(before.f == want.f[col]);
          REQUIRE(after.h == want.h[col]);
          REQUIRE(after.f == want.f_below[col]);
        },
        &word, &carry);
    REQUIRE(Cell::carry_of(lane_d, costs).f_open == carry.f_open);
    dirs |= static_cast<unsigned long long>(word) << (32 * lane);
    lane_diag = h_above[lane * kLane + kLane - 1];
  }
  REQUIRE(seen == kCols);
  REQUIRE(edge.h == want.h[kCols - 1]);
  REQUIRE(edge.e == want.e[kCols - 1]);
  for (int c = 0; c < kCols; ++c) {
    const unsigned bits = static_cast<unsigned>(dirs >> (Cell::kDirBits * c)) & 15u;
    const int h = want.h[c], d_in = c == 0 ? diag : h_above[c - 1], h_left = c == 0 ? left_h : want.h[c - 1];
    const unsigned from = Local && h == 0 ? Cell::kFromZero : h == d_in + sub[c] ? Cell::kFromDiag
                          : h == want.e[c]                  ? Cell::kFromE
                                                            : Cell::kFromF;
    REQUIRE((bits & 3u) == from);
    REQUIRE(((bits & Cell::kEOpen) != 0) == (want.e[c] == h_left - g.open_extend));
    REQUIRE(((bits & Cell::kFOpen) != 0) == (want.f[c] == h_above[c] - g.open_extend));
  }
}

TEST_CASE("the Gotoh cell policy's row equals the plain cell, direction bits included", "[recurrence]") {
  std::mt19937 rng(13);
  for (int round = 0; round < 2000; ++round) {
    check_cell_policy<true>(rng);
    check_cell_policy<false>(rng);
  }
}

TEST_CASE("the Gotoh cell policy's boundaries are the oracle's", "[recurrence]") {
  const GotohCosts k{5, 7, 2, 0, 4};
  REQUIRE(GotohCell<false>::top(k, 0).h == 0);
  REQUIRE(GotohCell<false>::top(k, 3).h == -(5 + 3 * 2));
  REQUIRE(GotohCell<false>::top(k, 3).f == -(5 + 3 * 2) - 7);
  REQUIRE(GotohCell<true>::top(k, 3).h == 0);
  REQUIRE(GotohCell<false>::top(GotohCosts{5, 7, 2, 1, 4}, 3).h == 0);  // semiglobal: a free top row
  REQUIRE(GotohCell<false>::left(k, 3).h == -(4 + 3 * 2));
  REQUIRE(GotohCell<false>::left(k, 3).e == neg_inf);
  REQUIRE(GotohCell<true>::left(k, 3).h == 0);
}

}  // namespace
}  // namespace gdp::pairwise
