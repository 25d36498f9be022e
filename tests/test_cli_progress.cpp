// End-to-end tests of what a long run shows and when: progress on stderr
// when it is a terminal (a pseudo-terminal, script(1)), and output written
// as it is done.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace {

using gdp::test::read_text;
using gdp::test::run_on_terminal;
using gdp::test::run_program;
using gdp::test::shell_quote;

std::string random_dna(std::mt19937& rng, std::size_t n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() % 4];
  return s;
}

// One letter in `every` changed: a similar sequence.
std::string mutated(std::mt19937& rng, std::string s, std::size_t every) {
  for (std::size_t i = 0; i < s.size(); i += every) s[i] = "ACGT"[rng() % 4];
  return s;
}

// The percentages a progress line showed, in order ("TOOL:  37.5%  2 s").
std::vector<double> percentages(const std::string& terminal, const std::string& tool) {
  std::vector<double> shown;
  const std::regex drawn(tool + ": +([0-9]+\\.[0-9])%");
  for (auto it = std::sregex_iterator(terminal.begin(), terminal.end(), drawn); it != std::sregex_iterator(); ++it)
    shown.push_back(std::stod((*it)[1].str()));
  return shown;
}

// A progress line that moved steadily to the end: several draws, never
// backwards, and at 100% at most once, at the end (not through a phase it
// did not count), erased when the run ended.
void check_progress(const gdp::test::RunResult& r, const std::string& tool) {
  INFO("terminal: " << r.err);
  REQUIRE(r.status == 0);
  const std::vector<double> shown = percentages(r.err, tool);
  REQUIRE(shown.size() >= 3);
  CHECK(std::is_sorted(shown.begin(), shown.end()));
  CHECK(std::count_if(shown.begin(), shown.end(), [](double p) { return p >= 99.95; }) <= 1);
  CHECK(r.err.substr(r.err.rfind('\r', r.err.size() - 2)).find_first_not_of(" \r") == std::string::npos);
}

// A full alignment on one thread, on a terminal, of two similar DNA
// sequences of `length` letters, "q" and "t": a few seconds.
gdp::test::RunResult align_similar_pair(const gdp::test::TempDir& box, const std::string& exe,
                                        std::size_t length = 22000) {
  std::mt19937 rng(3);
  const std::string q = random_dna(rng, length);
  const std::string query = box.write("q.fa", ">q\n" + q + "\n"), target = box.write("t.fa", ">t\n" + mutated(rng, q, 50) + "\n");
  return run_on_terminal(exe, {"--cpu", "--threads", "1", "--format", "tsv", query, target}, box.dir());
}

}  // namespace

TEST_CASE("gpu-sw on a terminal: progress goes on through the traceback", "[cli][progress]") {
  gdp::test::TempDir box("progress");
  // The score pass takes a quarter of the run, the traceback (the begin
  // cell's pass and Myers-Miller's) the rest.
  const auto r = align_similar_pair(box, GPU_SW_EXE);
  check_progress(r, "gpu-sw");
  const std::vector<double> shown = percentages(r.err, "gpu-sw");
  CHECK(std::any_of(shown.begin(), shown.end(), [](double p) { return p > 50 && p < 99.95; }));
  CHECK(r.out.find("q\tt\t") != std::string::npos);
}

TEST_CASE("gpu-sw writes each query's results as soon as they are done", "[cli][progress]") {
  gdp::test::TempDir box("streaming");
  std::mt19937 rng(4);
  // 64 short queries (two runs of pairs on one thread, both strands), then
  // a long one that takes a while: the short ones' lines come out before it
  // is done.
  std::string queries;
  for (int i = 0; i < 64; ++i) queries += ">s" + std::to_string(i) + "\n" + random_dna(rng, 20) + "\n";
  queries += ">long\n" + random_dna(rng, 16000) + "\n";
  const std::string query = box.write("q.fa", queries), target = box.write("t.fa", ">t\n" + random_dna(rng, 16000) + "\n");
  const std::string first = box.path("first"), last = box.path("last");
  const std::string script =
      shell_quote(GPU_SW_EXE) + " --cpu --threads 1 --score-only --format tsv " + shell_quote(query) + " " +
      shell_quote(target) + " | { n=0; while IFS= read -r line; do n=$((n+1)); [ $n -eq 129 ] && date +%s.%N > " +
      shell_quote(first) + "; echo \"$line\"; done; date +%s.%N > " + shell_quote(last) + "; }";
  const auto r = run_program("sh", {"-c", script}, box.dir());
  REQUIRE(r.status == 0);
  // The header, 64 short queries' lines (both strands), then the long one's.
  REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 2 * 65);
  const double gap = std::stod(read_text(last)) - std::stod(read_text(first));
  INFO("the 64th query's line came " << gap << " s before the end");
  CHECK(gap > 0.2);
  // The same bytes as a run that writes a file.
  const auto to_file = run_program(GPU_SW_EXE, {"--cpu", "--score-only", "--format", "tsv", "-o", box.path("out.tsv"), query, target}, box.dir());
  REQUIRE(to_file.status == 0);
  CHECK(read_text(box.path("out.tsv")) == r.out);
}

TEST_CASE("gpu-fold on a terminal: progress through a long record's fill", "[cli][progress]") {
  gdp::test::TempDir box("progress");
  std::mt19937 rng(5);
  std::string rna = random_dna(rng, 3200);  // about 3 s: progress shows from 1 s on, every 0.25 s
  std::replace(rna.begin(), rna.end(), 'T', 'U');
  const std::string input = box.write("rna.fa", ">r\n" + rna + "\n");
  const auto r = run_on_terminal(GPU_FOLD_EXE, {"--cpu", "--engine", "cpu2", "--threads", "1", input}, box.dir());
  check_progress(r, "gpu-fold");
  CHECK(r.out.find(">r") == 0);
}

TEST_CASE("gpu-mm on a terminal: progress through every algorithm and the check", "[cli][progress]") {
  gdp::test::TempDir box("progress");
  const auto r =
      run_on_terminal(GPU_MM_EXE, {"--cpu", "--threads", "1", "--n", "1000", "--algo", "all", "--check"}, box.dir());
  check_progress(r, "gpu-mm");
  CHECK(r.out.find("winograd") != std::string::npos);
}

TEST_CASE("gpu-syntenic on a terminal: progress through the linear-space alignment", "[cli][progress]") {
  gdp::test::TempDir box("progress");
  const auto r = align_similar_pair(box, GPU_SYNTENIC_EXE, 26000);  // about 3 s
  check_progress(r, "gpu-syntenic");
  CHECK(r.out.find("q\tt\t") != std::string::npos);
}

TEST_CASE("gpu-align3 on a terminal: progress through the division's passes", "[cli][progress]") {
  gdp::test::TempDir box("progress");
  std::mt19937 rng(7);
  const std::string a = random_dna(rng, 560);
  const std::string trio = box.write("trio.fa", ">a\n" + a + "\n>b\n" + mutated(rng, a, 9) + "\n>c\n" + mutated(rng, a, 7) + "\n");
  const auto r = run_on_terminal(GPU_ALIGN3_EXE, {"--cpu", "--threads", "2", trio}, box.dir());
  check_progress(r, "gpu-align3");
  CHECK(r.out.find(">a") == 0);
}
