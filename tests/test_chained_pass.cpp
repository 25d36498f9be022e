// One pair's score pass chained over several GPUs (gpu_pass.hpp:
// chained_pass): the pieces' plan (no GPU), and the pass against the
// oracle, its saved rows and the alignment split at them against one GPU's
// ([gpu]: GPU 0 listed two and three times, a host thread and a place
// each, stands for several GPUs where the machine has one; with two or
// more, 0,1 runs too, the edges written into the other GPU's memory).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "core/device.hpp"
#include "gpu_test.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"
#include "random_inputs.hpp"
#include "same_rows.hpp"

using namespace gdp;
using namespace gdp::pairwise;

TEST_CASE("chained_cuts: full waves, then the last round's strips divided among the places", "[pairwise][chain]") {
  const long long w = 2048;
  for (const int places : {2, 3, 4})
    for (const long long widest : {w, 3 * w, 500 * w, 1000 * w + 17})
      for (const long long n : {4 * w, 10 * w + 5, 1000003LL, 100000000LL}) {
        INFO(places << " places, widest " << widest << ", n " << n);
        const std::vector<long long> cuts = striped::chained_cuts(n, w, widest, places);
        REQUIRE(cuts.front() == 0);
        REQUIRE(cuts.back() == n);
        const long long most = std::max(w, widest / w * w), pieces = static_cast<long long>(cuts.size()) - 1;
        const long long rounds = (pieces + places - 1) / places;
        for (long long k = 0; k < pieces; ++k) {
          const long long width = cuts[k + 1] - cuts[k];
          REQUIRE(width > 0);
          REQUIRE(width <= most);
          if (k + 1 < pieces) REQUIRE(width % w == 0);
          if (k < (rounds - 1) * places) REQUIRE(width == most);  // full waves first
        }
        // The fewest rounds: all but the last are full.
        REQUIRE((rounds - 1) * places * most < n);
        // The last round: the strips left divided, a piece a place at most.
        const long long first_last = (rounds - 1) * places, strips_left = (n - cuts[first_last] + w - 1) / w;
        REQUIRE(pieces - first_last <= places);
        for (long long k = first_last; k < pieces; ++k)
          REQUIRE(cuts[k + 1] - cuts[k] <= (strips_left + places - 1) / places * w);
      }
  // The plan: a piece no wider than one wave of the device over the places
  // that share it.
  const striped::DeviceLimits h100{.sms = 132, .shared_per_block = 232448};
  striped::PassRequest r{.m = 1000000, .n = 100000000, .max_abs_score = 3, .open_extend = 5, .profile_rows = 4,
                         .local = true, .anywhere = true};
  r.chained = 2;
  const GpuTuning rebased{.kernel16 = Kernel16::rebased};
  const striped::KernelPlan k = striped::plan_kernel(r, rebased, h100);
  for (const int sharing : {1, 2}) {
    r.sharing = sharing;
    const striped::GridPlan g = striped::plan_grid(r, k, rebased, h100, 2, std::size_t{78} << 30);
    REQUIRE(g.piece == 132LL * g.blocks_per_sm * striped::kWarpsPerBlock * k.strip_width / sharing);  // full waves
    REQUIRE(g.blocks * striped::kWarpsPerBlock >= g.strips);
    REQUIRE(g.piece % k.strip_width == 0);
  }

  const Shape local = shape_of(Mode::local, test::dna_scheme()), global = shape_of(Mode::global, test::dna_scheme());
  REQUIRE(chained_pass_takes(local, {}, 2 * kChainColumns, 2));
  REQUIRE(chained_pass_takes(global, {}, 3 * kChainColumns, 3));
  REQUIRE_FALSE(chained_pass_takes(local, {}, 2 * kChainColumns - 1, 2));
  REQUIRE_FALSE(chained_pass_takes(local, {}, 2 * kChainColumns, 1));
  REQUIRE_FALSE(chained_pass_takes(shape_of(Mode::semiglobal, test::dna_scheme()), {}, 2 * kChainColumns, 2));
  std::vector<int> h(3);
  REQUIRE_FALSE(chained_pass_takes(global, LastRow{h.data(), nullptr}, 2 * kChainColumns, 2));
}

namespace {

struct ChainCase {
  const char* what;
  ScoringScheme scheme;
  int alphabet;
  std::size_t m;
  double rate;  // the query's copy in the target, this much changed (1: none, a random target)
};

}  // namespace

TEST_CASE("GPU pass chained over several places equals the oracle, saved rows too", "[gpu][pairwise][chain]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(2222);
  const ChainCase cases[] = {
      {"DNA, random", test::dna_scheme(), 4, 700, 1.0},
      {"two letters, random: ties", test::dna_scheme(1, -1, 2, 1), 2, 300, 1.0},
      {"DNA, 5% changed", test::dna_scheme(2, -3, 6, 1), 4, 1500, 0.05},
      {"DNA scored in forties, past 32,767", test::dna_scheme(40, -40, 25, 10), 4, 2000, 0.01},
      {"protein, BLOSUM62", test::protein_scheme(), 20, 600, 0.1},
  };
  const long long n = 3 * kChainColumns + 777;
  for (const ChainCase& c : cases) {
    const auto q = test::random_ranks(rng, c.m, c.alphabet);
    auto t = test::random_ranks(rng, static_cast<std::size_t>(n), c.alphabet);
    if (c.rate < 1) {  // the copy across a cut of 6,144-column pieces, and the last place's
      const auto copy = test::mutate(rng, q, c.alphabet, c.rate);
      std::copy(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(std::min(copy.size(), q.size())),
                t.begin() + 5 * 6144 - 400);
    }
    for (const Mode mode : {Mode::local, Mode::global}) {
      const Shape shape = shape_of(mode, c.scheme);
      SavedRows want_rows;
      want_rows.every = 64;
      const PassResult want = score_pass_scalar(q, t, c.scheme, shape, {}, nullptr, &want_rows);
      for (const auto& devices : test::device_lists())
        for (const long long piece : {0LL, 6144LL}) {
          INFO(c.what << ", " << to_string(mode) << ", " << devices.size() << " places (" << devices[1]
                      << " second), pieces of at most " << piece);
          const GpuTuning tuning{.piece_columns = piece};
          const auto got = chained_pass(q, t, c.scheme, shape, devices, tuning, nullptr);
          REQUIRE(got.has_value());
          REQUIRE(got->score == want.score);
          REQUIRE(got->end_i == want.end_i);
          REQUIRE(got->end_j == want.end_j);
          SavedRows rows;
          rows.every = 64;
          const auto saving = chained_pass(q, t, c.scheme, shape, devices, tuning, nullptr, &rows);
          REQUIRE(saving.has_value());
          REQUIRE(saving->score == want.score);
          REQUIRE(saving->end_i == want.end_i);
          REQUIRE(saving->end_j == want.end_j);
          REQUIRE(test::same_rows(rows, want_rows));
        }
    }
  }
}

TEST_CASE("A long pair's alignment over several places: the chained pass, its parts spread, one GPU's bytes",
          "[gpu][pairwise][chain]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(2323);
  const ScoringScheme dna = test::dna_scheme(2, -3, 6, 1);
  const auto q = test::random_ranks(rng, 3000, 4);
  auto t = test::random_ranks(rng, static_cast<std::size_t>(2 * kChainColumns + 5000), 4);
  const auto copy = test::mutate(rng, q, 4, 0.05);
  std::copy(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(std::min(copy.size(), q.size())),
            t.begin() + 3 * 6144 - 1000);
  for (const Mode mode : {Mode::local, Mode::global}) {
    Options o{.mode = mode, .backend = Backend::gpu, .threads = 2};
    o.min_gpu_cells = 0;
    o.tuning.piece_columns = 6144;
    // The kept edges do not fit: the score pass saves rows, the split aligns at them.
    o.tuning.traceback_bytes = striped::kept_bytes(3000, static_cast<long long>(t.size()), true) / 3;
    const Alignment one = align(q, t, dna, o);
    REQUIRE(rescore(one, q, t, dna) == one.score);
    for (const auto& devices : test::device_lists()) {
      INFO(to_string(mode) << ", " << devices.size() << " places (" << devices[1] << " second)");
      Options spread = o;
      spread.devices = devices;
      const Alignment a = align(q, t, dna, spread);
      REQUIRE(a.score == one.score);
      REQUIRE(a.query_begin == one.query_begin);
      REQUIRE(a.target_begin == one.target_begin);
      REQUIRE(a.query_end == one.query_end);
      REQUIRE(a.target_end == one.target_end);
      REQUIRE(cigar_string(a.cigar) == cigar_string(one.cigar));
      if (mode == Mode::global) {  // a global score pass is chained too
        spread.score_only = true;
        const Alignment scored = align(q, t, dna, spread);
        REQUIRE(scored.score == one.score);
        REQUIRE(scored.query_end == one.query_end);
        REQUIRE(scored.target_end == one.target_end);
      }
    }
  }
}
