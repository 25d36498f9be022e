// kept_cell.hpp's packed kept cells: H and its gap value read back exactly
// against any anchor within 2^19 - 1, and the anchors the chunked traceback
// gives them (kept_rows rows or columns away) within that on the oracle's
// rows of pairs that score far past 2^19, wherever the plan runs the kept
// pass in 16 bits.
#include <catch2/catch.hpp>
#include <algorithm>
#include <climits>
#include <random>
#include <vector>

#include "pairwise/cpu/passes.hpp"
#include "pairwise/kept_cell.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;
using namespace gdp::pairwise::striped;

TEST_CASE("a packed kept cell reads back H and its gap value against any anchor within 2^19 - 1", "[kept]") {
  std::mt19937 rng(20);
  std::uniform_int_distribution<int> score(-(1 << 30), 1 << 30), near(-(1 << 19) + 1, (1 << 19) - 1), open(0, 4095),
      extend(0, 1000);
  for (int k = 0; k < 200000; ++k) {
    const int h = score(rng), o = open(rng), e = extend(rng);
    const int x = h - e - std::uniform_int_distribution<int>(0, o)(rng);  // in [H - open - extend, H - extend]
    const unsigned w = kept_cell::pack(h, x, e);
    const int anchor = h - near(rng);
    INFO("h " << h << " x " << x << " open " << o << " extend " << e << " anchor " << anchor);
    REQUIRE(kept_cell::h_of(w, anchor) == h);
    REQUIRE(kept_cell::x_of(w, kept_cell::h_of(w, anchor), e) == x);
  }
  // 2^19 below H, and the low bits alone no longer say which H.
  REQUIRE(kept_cell::h_of(kept_cell::pack(5, 0, 0), 5 - (1 << 19)) != 5);
}

TEST_CASE("where the kept pass runs in 16 bits its cells pack, and the plan agrees", "[kept][plan]") {
  const DeviceLimits h100{.sms = 132, .shared_per_block = 232448};
  for (int max_score : {1, 2, 5, 11, 30, 60, 127, 128, 1000})
    for (int open : {0, 1, 3, 10, 30, 60, 100, 255, 1000})
      for (int extend : {0, 1, 2, 10, 30}) {
        const int oe = open + extend;
        INFO("max score " << max_score << " open " << open << " extend " << extend);
        const bool sixteen = kept_in_rebased16(oe, max_score, 0);
        if (sixteen) REQUIRE(kept_cell::packs(open, oe, max_score, kept_rows(4)));
        REQUIRE_FALSE(kept_in_rebased16(oe, max_score, 32));
        const PassRequest r{.m = 3000, .n = 5000, .max_abs_score = max_score, .open_extend = oe, .profile_rows = 4,
                            .local = true, .anywhere = true, .kept = true};
        REQUIRE((plan_kernel(r, {}, h100).kind == KernelKind::s16_rebased) == sixteen);
      }
}

TEST_CASE("the oracle's H within kept_rows rows or columns of an anchor reads back from packed cells", "[kept]") {
  // Scores of 60 a letter: 9,400 similar letters reach past 2^19, and the
  // cells of two checkpoint rows there are read against anchors kept_rows
  // rows and columns away, as the walk's recomputation reads them
  // (chunk_recompute.cuh).
  std::mt19937 rng(21);
  const ScoringScheme s = test::dna_scheme(60, -60, 60, 20);
  const int rows = kept_rows(4), oe = s.gap_open + s.gap_extend;
  REQUIRE(kept_cell::packs(s.gap_open, oe, s.max_abs_score(), rows));
  const auto q = test::random_ranks(rng, 9400, 4);
  const auto t = test::mutate(rng, q, 4, 0.02);
  for (Mode mode : {Mode::local, Mode::global}) {
    const Shape shape = shape_of(mode, s);
    // Rows r and r + rows of the oracle: every cell of the later row against
    // the earlier row's H of its column, and against the H rows - 1 columns
    // to its right, or at the row's end.
    std::vector<std::vector<int>> h(2, std::vector<int>(t.size() + 1)), f(2, std::vector<int>(t.size() + 1));
    for (int k = 0; k < 2; ++k) {
      const std::size_t r = static_cast<std::size_t>((35 + k) * rows);
      score_pass_scalar(Residues(q).first(r), t, s, shape, LastRow{h[k].data(), f[k].data()});
    }
    INFO("mode " << to_string(mode) << ", H at the row's end " << h[1][t.size()]);
    if (mode == Mode::local) REQUIRE(*std::max_element(h[1].begin(), h[1].end()) > (1 << 19));
    for (std::size_t j = 1; j <= t.size(); ++j) {
      const int below = std::max(f[1][j] - s.gap_extend, h[1][j] - oe);  // F of the row below
      const unsigned w = kept_cell::pack(h[1][j], below, s.gap_extend);
      REQUIRE(kept_cell::h_of(w, h[0][j]) == h[1][j]);
      const std::size_t right = std::min(t.size(), j + static_cast<std::size_t>(rows) - 1);
      REQUIRE(kept_cell::h_of(w, h[1][right]) == h[1][j]);
      REQUIRE(kept_cell::x_of(w, h[1][j], s.gap_extend) == below);
    }
  }
}
