// gpu-sw's local scores against ssearch36's (Debian's fasta3: the exact
// Smith-Waterman database search on the CPU), every query against every
// target, protein and DNA. Skipped where ssearch36 is not installed.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"
#include "random_letters.hpp"
#include "temp_dir.hpp"

namespace {

using gdp::test::lines_of;
using gdp::test::split;
using Scores = std::map<std::pair<std::string, std::string>, int>;

// (query, target) -> score from ssearch36's "best scores" lists, one a query
// ("  1>>>q0 - 120 aa", then "t3   ( 230)  648 208.8 7.6e-58", with "[f]"
// before the score for DNA).
Scores ssearch_scores(const std::string& out) {
  static const std::regex query_line(R"(^\s*\d+>>>(\S+))"), score_line(R"(^(\S+).*\(\s*\d+\)\s+(?:\[[fr]\]\s+)?(-?\d+)\s)");
  Scores m;
  std::string query;
  bool listing = false;
  for (const auto& l : lines_of(out)) {
    std::smatch g;
    if (std::regex_search(l, g, query_line)) {
      query = g[1], listing = false;
    } else if (l.find("The best scores are:") != std::string::npos) {
      listing = true;
    } else if (listing && std::regex_search(l, g, score_line)) {
      m[{query, g[1]}] = std::stoi(g[2]);
    } else {
      listing = false;
    }
  }
  return m;
}

// gpu-sw's TSV: query, target, score, ...
Scores tsv_scores(const std::string& out) {
  Scores m;
  for (const auto& l : lines_of(out)) {
    const auto c = split(l, '\t');
    if (c.size() >= 3 && c[0][0] != '#') m[{c[0], c[1]}] = std::stoi(c[2]);
  }
  return m;
}

// Every pair ssearch36 scored has gpu-sw's score, and no other pair.
void check_equal(const Scores& mine, const Scores& theirs) {
  CHECK(mine.size() == theirs.size());
  for (const auto& [pair, score] : theirs) {
    INFO(pair.first << " against " << pair.second);
    const auto it = mine.find(pair);
    REQUIRE(it != mine.end());
    CHECK(it->second == score);
  }
}

}  // namespace

TEST_CASE("gpu-sw's scores equal ssearch36's on every pair, protein and DNA (fasta3)", "[cli][peer]") {
  if (!gdp::test::have_program("ssearch36")) {
    WARN("skipped: ssearch36 not found (Debian package fasta3)");
    return;
  }
  gdp::test::TempDir box("ssearch");
  gdp::test::Letters rnd{11};
  const std::string aa = "ACDEFGHIKLMNPQRSTVWY", nt = "ACGT";
  std::string pq, pt, dq, dt;
  std::vector<std::string> proteins, genes;
  for (int i = 0; i < 3; ++i) {
    proteins.push_back(rnd.random(aa, 90 + 80 * static_cast<std::size_t>(i)));
    pq += ">pq" + std::to_string(i) + " query\n" + proteins.back() + "\n";
    genes.push_back(rnd.random(nt, 250 + 150 * static_cast<std::size_t>(i)));
    dq += ">dq" + std::to_string(i) + "\n" + genes.back() + "\n";
  }
  // Targets of many lengths, every third one a mutated copy of a query
  // inside random flanks.
  for (int i = 0; i < 60; ++i) {
    const auto k = static_cast<std::size_t>(i);
    pt += ">pt" + std::to_string(i) + "\n" +
          (i % 3 == 0 ? rnd.random(aa, k) + rnd.mutate(proteins[k / 3 % 3], aa, 2 + i / 12) + rnd.random(aa, 20)
                      : rnd.random(aa, 20 + k * 11)) + "\n";
    dt += ">dt" + std::to_string(i) + "\n" +
          (i % 3 == 0 ? rnd.random(nt, 3 * k) + rnd.mutate(genes[k / 3 % 3], nt, 3 + i / 12) + rnd.random(nt, 50)
                      : rnd.random(nt, 60 + k * 23)) + "\n";
  }
  const std::string pqf = box.write("pq.fa", pq), ptf = box.write("pt.fa", pt);
  const std::string dqf = box.write("dq.fa", dq), dtf = box.write("dt.fa", dt);
  // Every target's score listed (-b, -E), no alignments (-d 0) or histogram
  // (-H); gaps of length k cost open + k * extend in both programs.
  const std::vector<std::string> list_all{"-q", "-H", "-d", "0", "-b", "1000", "-E", "1e9"};
  auto ssearch = [&](std::vector<std::string> args) {
    args.insert(args.begin(), list_all.begin(), list_all.end());
    const auto r = gdp::test::run_program("ssearch36", args, box.dir());
    REQUIRE(r.status == 0);
    return ssearch_scores(r.out);
  };
  auto ours = [&](std::vector<std::string> args) {
    const std::vector<std::string> common{"--cpu", "--score-only", "--format", "tsv"};
    args.insert(args.begin(), common.begin(), common.end());
    const auto r = gdp::test::run_program(GPU_SW_EXE, args, box.dir());
    REQUIRE(r.status == 0);
    return tsv_scores(r.out);
  };

  SECTION("protein: BLOSUM62, gaps 11 + k") {
    const Scores theirs = ssearch({"-s", "BL62", "-f", "-11", "-g", "-1", pqf, ptf});
    const Scores mine = ours({"--matrix", "BLOSUM62", "--gap-open", "11", "--gap-extend", "1", pqf, ptf});
    CHECK(theirs.size() == 3 * 60);
    check_equal(mine, theirs);
  }
  SECTION("DNA, the plus strand: +2/-3, gaps 5 + 2k (gpu-sw's defaults)") {
    const Scores theirs = ssearch({"-n", "-3", "-r", "+2/-3", "-f", "-5", "-g", "-2", dqf, dtf});
    const Scores mine = ours({"--strand", "plus", dqf, dtf});
    CHECK(theirs.size() == 3 * 60);
    check_equal(mine, theirs);
  }
}
