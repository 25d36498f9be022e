// A GPU score pass saved to a checkpoint file (pass_checkpoint.hpp), run as
// a batch job that keeps hitting its time limit: each run does one piece of
// the target and stops, the next goes on from the file. The last run's
// result is the oracle's, whichever kernel saved which piece. Tagged [gpu].
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>

#include "core/error.hpp"
#include "gpu_test.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"
#include "temp_dir.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

struct Resumed {
  PassResult result;
  int runs = 0;
};

// Runs the pass with its stop time already past, so that each run does its
// first piece only, until one finishes.
Resumed run_to_end(Residues q, Residues t, const ScoringScheme& s, const Shape& shape, const GpuTuning& tuning,
                   const std::string& path) {
  const PassCheckpoint checkpoint{path, std::chrono::steady_clock::now()};
  for (int runs = 1;; ++runs) {
    try {
      return {score_pass_gpu(q, t, s, shape, 0, {}, tuning, nullptr, &checkpoint), runs};
    } catch (const Stopped&) {
      REQUIRE(std::filesystem::exists(path));
    }
    REQUIRE(runs < 200);
  }
}

void require_same_end(const PassResult& got, const PassResult& want) {
  REQUIRE(got.score == want.score);
  REQUIRE(got.end_i == want.end_i);
  REQUIRE(got.end_j == want.end_j);
}

}  // namespace

TEST_CASE("a saved GPU pass stopped after every piece ends at the oracle's result", "[gpu][pairwise][checkpoint]") {
  if (test::skip_without_gpu()) return;
  test::TempDir dir("checkpoint-gpu");
  std::mt19937 rng(21);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  int round = 0;
  for (Mode mode : {Mode::local, Mode::global})
    for (bool related : {false, true})
      for (bool protein : {false, true}) {
        const ScoringScheme& s = protein ? blosum : dna;
        const int alphabet = protein ? 20 : 4;
        const auto q = test::random_ranks(rng, 900 + 37 * round++, alphabet);
        auto t = test::random_ranks(rng, 11000, alphabet);
        if (related) {  // a changed copy at the start, an exact one at the end
          const auto copy = test::mutate(rng, q, alphabet, 0.05);
          t.insert(t.begin(), copy.begin(), copy.end());
          t.insert(t.end(), q.begin(), q.end());
        }
        const Shape shape = shape_of(mode, s);
        const PassResult want = score_pass_scalar(q, t, s, shape, {});
        for (Kernel16 kernel : {Kernel16::diagonal, Kernel16::rows, Kernel16::rebased})
          for (int bits : {16, 32})
            for (long long piece : {1000LL, 2600LL}) {
              if (bits == 32 && kernel != Kernel16::diagonal) continue;
              GpuTuning tuning{.lane_columns = 8};
              tuning.kernel16 = kernel, tuning.bits = bits, tuning.piece_columns = piece;
              const std::string path = dir.path("pass-" + std::to_string(round) + "-" + std::to_string(piece) + "-" +
                                                std::to_string(bits) + "-" + std::to_string(static_cast<int>(kernel)));
              INFO(to_string(mode) << (related ? ", related" : ", random") << (protein ? ", protein" : ", DNA")
                                   << ", kernel " << static_cast<int>(kernel) << ", " << bits << " bits, piece "
                                   << piece);
              const Resumed r = run_to_end(q, t, s, shape, tuning, path);
              require_same_end(r.result, want);
              CHECK(r.runs >= 3);
            }
      }
}

TEST_CASE("a saved 16-bit GPU pass that overflows goes on from its checkpoint in the rebased kernel",
          "[gpu][pairwise][checkpoint]") {
  if (test::skip_without_gpu()) return;
  test::TempDir dir("checkpoint-gpu");
  std::mt19937 rng(22);
  const ScoringScheme dna = test::dna_scheme();
  const Shape local = shape_of(Mode::local, dna);
  // 16,400 matches score 32,800, the range's top reached in the last piece;
  // the similar 60,000-letter pair reaches it at about a quarter, so later
  // pieces are saved by the rebased kernel and taken up by it.
  struct Case {
    const char* what;
    std::vector<std::uint8_t> q, t;
  };
  const auto same = test::random_ranks(rng, 16400, 4), base = test::random_ranks(rng, 60000, 4);
  const Case cases[] = {{"identical, 16,400 letters", same, same},
                        {"1% changed, 60,000 letters", base, test::mutate(rng, base, 4, 0.01)}};
  for (const Case& c : cases) {
    const PassResult want = score_pass_tiled(c.q, c.t, dna, local, 4);
    REQUIRE(want.score > 32767);
    for (Kernel16 kernel : {Kernel16::diagonal, Kernel16::rows}) {
      INFO(c.what << ", kernel " << static_cast<int>(kernel));
      GpuTuning tuning{.lane_columns = 8};
      tuning.kernel16 = kernel, tuning.piece_columns = 4096;
      const int reruns_before = gpu_stats().overflow_reruns;
      const std::string path = dir.path("high-" + std::to_string(c.q.size()) + "-" + std::to_string(static_cast<int>(kernel)));
      const Resumed r = run_to_end(c.q, c.t, dna, local, tuning, path);
      require_same_end(r.result, want);
      CHECK(r.runs >= static_cast<int>(c.t.size() / 4096));
      CHECK(gpu_stats().overflow_reruns - reruns_before == 1);  // once: later runs start in the rebased kernel
    }
  }
}

TEST_CASE("a saved GPU pass whose ring slots hold a window of rows goes on from its checkpoint",
          "[gpu][pairwise][checkpoint]") {
  // A query too long for slots of whole columns (strip_plan.hpp:
  // GridPlan::ring_rows), its pieces of one wave, forced on a small pair.
  if (test::skip_without_gpu()) return;
  test::TempDir dir("checkpoint-gpu");
  std::mt19937 rng(24);
  const ScoringScheme dna = test::dna_scheme();
  const auto q = test::random_ranks(rng, 3000, 4);
  auto t = test::mutate(rng, q, 4, 0.05);
  const auto tail = test::random_ranks(rng, 9000, 4);
  t.insert(t.end(), tail.begin(), tail.end());
  for (Mode mode : {Mode::local, Mode::global}) {
    const Shape shape = shape_of(mode, dna);
    const PassResult want = score_pass_scalar(q, t, dna, shape, {});
    for (int bits : {16, 32}) {
      GpuTuning tuning{.lane_columns = 8};
      tuning.bits = bits, tuning.ring_rows = 64, tuning.piece_columns = 2048;
      INFO(to_string(mode) << ", " << bits << " bits");
      const Resumed r =
          run_to_end(q, t, dna, shape, tuning, dir.path("window-" + std::to_string(bits) + std::string(to_string(mode))));
      require_same_end(r.result, want);
      CHECK(r.runs >= 5);
    }
  }
}

TEST_CASE("a checkpoint of another pass is refused by the GPU pass", "[gpu][pairwise][checkpoint]") {
  if (test::skip_without_gpu()) return;
  test::TempDir dir("checkpoint-gpu");
  std::mt19937 rng(23);
  const ScoringScheme dna = test::dna_scheme();
  const auto q = test::random_ranks(rng, 2000, 4), t = test::random_ranks(rng, 12000, 4);
  const std::string path = dir.path("pass");
  GpuTuning tuning;
  tuning.piece_columns = 3000;
  const PassCheckpoint checkpoint{path, std::chrono::steady_clock::now()};
  REQUIRE_THROWS_AS(score_pass_gpu(q, t, dna, shape_of(Mode::local, dna), 0, {}, tuning, nullptr, &checkpoint), Stopped);
  REQUIRE_THROWS_AS(score_pass_gpu(q, t, dna, shape_of(Mode::global, dna), 0, {}, tuning, nullptr, &checkpoint),
                    InputError);
  auto other = t;
  other[5] = static_cast<std::uint8_t>((other[5] + 1) % 4);
  REQUIRE_THROWS_AS(score_pass_gpu(q, other, dna, shape_of(Mode::local, dna), 0, {}, tuning, nullptr, &checkpoint),
                    InputError);
}
