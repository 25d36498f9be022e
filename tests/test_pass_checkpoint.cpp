// The checkpoint file of a saved GPU score pass (pass_checkpoint.hpp):
// what is saved is what is loaded, and a file of another pass, a damaged
// one or no checkpoint at all is refused, never taken up.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/error.hpp"
#include "pairwise/pass_checkpoint.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"
#include "temp_dir.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

CheckpointState some_state(std::int64_t m, std::mt19937& rng) {
  CheckpointState s;
  s.next_column = 4096, s.escalation = 1, s.best = {12345, 77, 4000};
  std::uniform_int_distribution<std::int32_t> value(-2000000, 2000000);
  for (std::int64_t k = 0; k < 2 * m; ++k) s.edge.push_back(value(rng));
  return s;
}

}  // namespace

TEST_CASE("a saved pass loads back as it was saved", "[checkpoint]") {
  test::TempDir dir("checkpoint");
  std::mt19937 rng(3);
  const auto q = test::random_ranks(rng, 500, 4), t = test::random_ranks(rng, 9000, 4);
  const ScoringScheme s = test::dna_scheme();
  const Shape shape = shape_of(Mode::local, s);
  const std::uint64_t fp = pass_fingerprint(q, t, s, shape);
  const std::string path = dir.path("pass.ckpt");

  REQUIRE_FALSE(load_checkpoint(path, fp, 500).has_value());
  REQUIRE(saved_at(path, fp, 500).escalation == 0);
  REQUIRE(saved_at(path, fp, 500).next_column == 0);

  const CheckpointState saved = some_state(500, rng);
  save_checkpoint(path, fp, saved);
  REQUIRE_FALSE(std::filesystem::exists(path + ".tmp"));
  REQUIRE(saved_at(path, fp, 500).escalation == 1);
  REQUIRE(saved_at(path, fp, 500).next_column == 4096);
  const auto loaded = load_checkpoint(path, fp, 500);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->next_column == saved.next_column);
  REQUIRE(loaded->escalation == saved.escalation);
  REQUIRE(loaded->best.score == saved.best.score);
  REQUIRE(loaded->best.end_i == saved.best.end_i);
  REQUIRE(loaded->best.end_j == saved.best.end_j);
  REQUIRE(loaded->edge == saved.edge);

  // A later save replaces it whole.
  CheckpointState later = some_state(500, rng);
  later.next_column = 8192, later.escalation = 2;
  save_checkpoint(path, fp, later);
  REQUIRE(load_checkpoint(path, fp, 500)->edge == later.edge);
  REQUIRE(load_checkpoint(path, fp, 500)->next_column == 8192);
}

TEST_CASE("a checkpoint is taken up only by the pass that made it", "[checkpoint]") {
  test::TempDir dir("checkpoint");
  std::mt19937 rng(4);
  const auto q = test::random_ranks(rng, 300, 4), t = test::random_ranks(rng, 5000, 4);
  const ScoringScheme s = test::dna_scheme();
  const Shape local = shape_of(Mode::local, s), global = shape_of(Mode::global, s);
  const std::uint64_t fp = pass_fingerprint(q, t, s, local);
  const std::string path = dir.path("pass.ckpt");
  save_checkpoint(path, fp, some_state(300, rng));

  // Any change of pair, letters, scores or shape changes the fingerprint.
  auto other_t = t;
  other_t[2500] = static_cast<std::uint8_t>((other_t[2500] + 1) % 4);
  const ScoringScheme other_scores = test::dna_scheme(1, -3, 5, 2);
  REQUIRE(pass_fingerprint(q, other_t, s, local) != fp);
  REQUIRE(pass_fingerprint(t, q, s, local) != fp);
  REQUIRE(pass_fingerprint(q, t, other_scores, shape_of(Mode::local, other_scores)) != fp);
  REQUIRE(pass_fingerprint(q, t, s, global) != fp);
  REQUIRE(pass_fingerprint(q, t, s, local) == fp);

  REQUIRE_THROWS_AS(load_checkpoint(path, pass_fingerprint(q, other_t, s, local), 300), InputError);
  REQUIRE_THROWS_AS(saved_at(path, pass_fingerprint(q, t, s, global), 300), InputError);
  REQUIRE_THROWS_AS(load_checkpoint(path, fp, 301), InputError);
}

TEST_CASE("a damaged checkpoint or another file is refused", "[checkpoint]") {
  test::TempDir dir("checkpoint");
  std::mt19937 rng(5);
  const auto q = test::random_ranks(rng, 200, 4), t = test::random_ranks(rng, 3000, 4);
  const ScoringScheme s = test::dna_scheme();
  const std::uint64_t fp = pass_fingerprint(q, t, s, shape_of(Mode::local, s));

  const std::string fasta = dir.path("not.ckpt");
  std::ofstream(fasta) << ">seq\nACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGT\n";
  REQUIRE_THROWS_AS(load_checkpoint(fasta, fp, 200), InputError);
  REQUIRE_THROWS_AS(saved_at(fasta, fp, 200), InputError);

  const std::string empty = dir.path("empty.ckpt");
  std::ofstream{empty};
  REQUIRE_THROWS_AS(load_checkpoint(empty, fp, 200), InputError);

  // Cut short, as a copy that did not finish would be.
  const std::string cut = dir.path("cut.ckpt");
  save_checkpoint(cut, fp, some_state(200, rng));
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) - 4);
  REQUIRE_THROWS_AS(load_checkpoint(cut, fp, 200), InputError);

  // A directory, and a folder that is not there to write in.
  REQUIRE_THROWS_AS(load_checkpoint(dir.dir().string(), fp, 200), InputError);
  REQUIRE_THROWS_AS(save_checkpoint(dir.path("missing/pass.ckpt"), fp, some_state(200, rng)), RunError);
}
