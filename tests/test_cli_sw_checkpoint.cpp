// End-to-end tests of gpu-sw --checkpoint and --stop-after: the options'
// rules (no GPU needed), and on the GPU a long pair's score pass stopped
// after each piece and taken up again, run after run, to the CPU's result.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "gpu_test.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

std::string fasta(const std::string& id, const std::string& residues) { return ">" + id + "\n" + residues + "\n"; }

std::string random_dna(std::mt19937& rng, std::size_t n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() % 4];
  return s;
}

// A copy with about one substitution in `every` letters.
std::string substituted(std::mt19937& rng, std::string s, unsigned every) {
  for (char& c : s)
    if (rng() % every == 0) c = "ACGT"[(std::string("ACGT").find(c) + 1 + rng() % 3) % 4];
  return s;
}

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("cli-ckpt") {}
  gdp::test::RunResult run(const std::vector<std::string>& args) const {
    return gdp::test::run_program(GPU_SW_EXE, args, dir());
  }
};

void check_bad_input(const gdp::test::RunResult& r, const std::string& mentions) {
  gdp::test::check_error_line(r, "gpu-sw", mentions);
}

}  // namespace

TEST_CASE("gpu-sw --checkpoint and --stop-after: what they need is said in one line", "[cli]") {
  Sandbox box;
  std::mt19937 rng(8);
  const std::string q = box.write("q.fa", fasta("q", random_dna(rng, 60)));
  const std::string t = box.write("t.fa", fasta("t", random_dna(rng, 90)));
  const std::string two = box.write("two.fa", fasta("a", random_dna(rng, 40)) + fasta("b", random_dna(rng, 40)));
  const std::string ckpt = box.path("pass.ckpt");
  const std::vector<std::string> saved = {"--cpu", "--score-only", "--strand", "plus", "--checkpoint", ckpt};
  auto with = [&](std::vector<std::string> args, const std::vector<std::string>& files) {
    args.insert(args.end(), files.begin(), files.end());
    return box.run(args);
  };

  SECTION("--stop-after without --checkpoint") {
    check_bad_input(with({"--cpu", "--score-only", "--stop-after", "60"}, {q, t}), "--stop-after needs --checkpoint");
  }
  SECTION("a full alignment") {
    check_bad_input(with({"--cpu", "--strand", "plus", "--checkpoint", ckpt}, {q, t}), "--score-only");
  }
  SECTION("semiglobal") {
    auto args = saved;
    args.insert(args.end(), {"--mode", "semiglobal"});
    check_bad_input(with(args, {q, t}), "--mode local or global");
  }
  SECTION("both strands, DNA's default") {
    check_bad_input(with({"--cpu", "--score-only", "--checkpoint", ckpt}, {q, t}), "one strand");
  }
  SECTION("two queries") { check_bad_input(with(saved, {two, t}), "one query, one target"); }
  SECTION("a negative time") {
    auto args = saved;
    args.insert(args.end(), {"--stop-after", "-5"});
    const auto r = with(args, {q, t});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("--stop-after"));
  }
  SECTION("on the CPU: a warning, the CPU's result, no file left") {
    const auto plain = with({"--cpu", "--score-only", "--strand", "plus", "--format", "tsv"}, {q, t});
    REQUIRE(plain.status == 0);
    auto args = saved;
    args.insert(args.end(), {"--format", "tsv"});
    const auto r = with(args, {q, t});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out == plain.out);
    CHECK_THAT(r.err, Contains("gpu-sw: warning: --checkpoint: the pass runs on the CPU"));
    CHECK_FALSE(fs::exists(ckpt));
  }
}

TEST_CASE("gpu-sw --checkpoint on the GPU: stopped after each piece, taken up again, the CPU's result", "[cli][gpu]") {
  if (gdp::test::skip_without_gpu()) return;
  Sandbox box;
  std::mt19937 rng(9);
  struct Case {
    const char* what;
    std::size_t m, n;
    unsigned every;  // one substitution in `every` letters of the target's copy; 0: unrelated
    const char* mode;
  };
  // One long pair runs in the strip engine: 1,500 x 40,000 cells are past
  // the GPU's 2^24 and under the database search's 2^26; a target of more
  // than 65,536 letters is past what the database search takes. The
  // similar pair scores past 32,767, so its 16-bit pass escalates to the
  // rebased kernel between two of the runs.
  for (const Case& c : {Case{"random, local", 1500, 40000, 0, "local"}, Case{"random, global", 1500, 40000, 0, "global"},
                        Case{"similar, local, past 32,767", 17000, 70000, 100, "local"}}) {
    INFO(c.what);
    const std::string query = random_dna(rng, c.m);
    const std::string target =
        c.every ? substituted(rng, query, c.every) + random_dna(rng, c.n - c.m) : random_dna(rng, c.n);
    const std::string q = box.write("q.fa", fasta("q", query)), t = box.write("t.fa", fasta("t", target));
    const std::string ckpt = box.path("pass.ckpt"), out = box.path("out.tsv");
    fs::remove(out);
    const std::vector<std::string> common = {"--score-only", "--strand", "plus", "--mode", c.mode, "--format", "tsv"};

    auto args = common;
    args.insert(args.end(), {"--cpu", q, t});
    const auto cpu = box.run(args);
    REQUIRE(cpu.status == 0);

    args = common;
    const std::string report = box.path("report.json");
    args.insert(args.end(), {"--checkpoint", ckpt, "--stop-after", "0", "--tune", "piece_columns=4096", "--report", report,
                             "-o", out, q, t});
    int stops = 0;
    for (;;) {
      const auto r = box.run(args);
      INFO(r.err);
      if (r.status == 0) break;
      REQUIRE(r.status == 75);
      CHECK_THAT(r.err, Contains("gpu-sw: warning: stopped at column") && Contains("run the same command again"));
      CHECK(fs::exists(ckpt));
      CHECK_FALSE(fs::exists(out));  // nothing written until the pass is done
      // The report of each stopped run: where it went on from and stopped.
      const std::string json = gdp::test::read_text(report);
      CHECK_THAT(json, Contains("\"stopped_at_column\": ") && !Contains("\"stopped_at_column\": 0\n"));
      if (stops > 0) CHECK_THAT(json, !Contains("\"resumed_from_column\": 0,"));
      REQUIRE(++stops < 20);
    }
    CHECK(stops >= 4);  // every piece but the last stopped
    CHECK(gdp::test::read_text(out) == cpu.out);
    CHECK_FALSE(fs::exists(ckpt));  // the pass done and written
  }

  // A file that is not a checkpoint of this pass is refused and left alone.
  const std::string q = box.write("q.fa", fasta("q", random_dna(rng, 1500)));
  const std::string t = box.write("t.fa", fasta("t", random_dna(rng, 40000)));
  const std::string other = box.write("other.ckpt", ">not a checkpoint\nACGT\n");
  check_bad_input(box.run({"--score-only", "--strand", "plus", "--checkpoint", other, q, t}),
                  other + ": not a gpu-sw checkpoint");
  CHECK(gdp::test::read_text(other) == ">not a checkpoint\nACGT\n");
}
