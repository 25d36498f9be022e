// One pair's local score pass over several GPUs (spread_pass.hpp): the
// ranges (no GPU), and the pass against the oracle where each range's fresh
// run stands and where it must be computed again ([gpu]: GPU 0 listed two
// and three times, a host thread and a range each).
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "gpu_test.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/spread_pass.hpp"
#include "pairwise/strip_plan.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

TEST_CASE("spread_ranges: the target's columns in one range a device, the work about even", "[pairwise][spread]") {
  for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{4}, std::size_t{8}}) {
    REQUIRE_THROWS_AS(spread_ranges(spread_min_columns(k) - 1, k), std::invalid_argument);
    for (const std::int64_t n : {spread_min_columns(k), spread_min_columns(k) + 12345, std::int64_t{100000007}}) {
      INFO(k << " devices, " << n << " columns");
      const auto ranges = spread_ranges(n, k);
      REQUIRE(ranges.size() == k);
      REQUIRE(ranges.front().begin == 0);
      REQUIRE(ranges.back().end == n);
      std::vector<std::int64_t> load;
      for (std::size_t d = 0; d < k; ++d) {
        const SpreadRange& r = ranges[d];
        if (d > 0) {
          REQUIRE(r.begin == ranges[d - 1].end);
          REQUIRE(r.begin < r.probe);
        }
        REQUIRE(r.probe < r.end);
        // A device's columns: its range, and the next range's first part.
        load.push_back(r.end - r.begin + (d + 1 < k ? ranges[d + 1].probe - ranges[d + 1].begin : 0));
        for (const std::int64_t cut : {r.begin, r.probe, r.end})
          if (cut != n) REQUIRE(cut % striped::kMaxStripWidth == 0);
      }
      const auto [least, most] = std::minmax_element(load.begin(), load.end());
      REQUIRE(*most - *least <= 2 * striped::kMaxStripWidth);
    }
  }
  const Shape local = shape_of(Mode::local, test::dna_scheme());
  REQUIRE(spread_pass_takes(local, {}, 2 * kSpreadColumns, 2));
  REQUIRE_FALSE(spread_pass_takes(local, {}, 2 * kSpreadColumns - 1, 2));
  REQUIRE_FALSE(spread_pass_takes(local, {}, 2 * kSpreadColumns, 1));
  REQUIRE_FALSE(spread_pass_takes(shape_of(Mode::global, test::dna_scheme()), {}, 2 * kSpreadColumns, 2));
  REQUIRE_FALSE(spread_pass_takes(shape_of(Mode::semiglobal, test::dna_scheme()), {}, 2 * kSpreadColumns, 2));
}

namespace {

// The spread pass equals the oracle on GPU 0 listed k times; returns how
// many ranges' fresh runs stood.
int require_oracle(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& t, const ScoringScheme& s,
                   std::size_t k) {
  const Shape shape = shape_of(Mode::local, s);
  const PassResult want = score_pass_scalar(q, t, s, shape);
  std::atomic<int> stood{0};
  const PassResult got = spread_pass(q, t, s, shape, std::vector<int>(k, 0), {}, nullptr, &stood);
  INFO(k << " ranges, " << q.size() << " x " << t.size() << ", score " << want.score);
  REQUIRE(got.score == want.score);
  REQUIRE(got.end_i == want.end_i);
  REQUIRE(got.end_j == want.end_j);
  return stood.load();
}

}  // namespace

TEST_CASE("a local score pass spread over GPU 0 twice and three times equals the oracle",
          "[gpu][pairwise][spread][devices]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(31);
  const ScoringScheme dna = test::dna_scheme(), high = test::dna_scheme(100, -90, 50, 20);
  for (const std::size_t k : {std::size_t{2}, std::size_t{3}}) {
    // Unrelated across the cuts: every fresh run stands.
    const auto q = test::random_ranks(rng, 300, 4), t = test::random_ranks(rng, 60000, 4);
    REQUIRE(require_oracle(q, t, dna, k) == static_cast<int>(k - 1));
    // A copy of a long query across each cut, reaching past its range's
    // first part (4,096 columns here): those ranges are computed again. In
    // 16 bits' reach, and past it (edges of high scores: the rebased kernel
    // or 32 bits).
    const auto ranges = spread_ranges(60000, k);
    const auto long_q = test::random_ranks(rng, 6000, 4);
    auto across = test::random_ranks(rng, 60000, 4);
    for (std::size_t d = 1; d < k; ++d) {
      const auto copy = test::mutate(rng, long_q, 4);
      const auto at = static_cast<std::size_t>(ranges[d].begin - 300);
      std::copy_n(copy.begin(), std::min(copy.size(), across.size() - at), across.begin() + static_cast<std::ptrdiff_t>(at));
    }
    REQUIRE(require_oracle(long_q, across, dna, k) < static_cast<int>(k - 1));
    require_oracle(long_q, across, high, k);
    // Ties: repeats score the same in many cells, across the cuts too.
    std::vector<std::uint8_t> rq, rt;
    for (int x = 0; x < 120; ++x) rq.push_back(static_cast<std::uint8_t>(x % 2));
    for (int x = 0; x < 60000; ++x) rt.push_back(static_cast<std::uint8_t>((x / 3) % 2));
    require_oracle(rq, rt, test::dna_scheme(1, -1, 1, 1), k);
  }
}
