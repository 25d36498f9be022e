// End-to-end tests of gpu-syntenic: the real binary through the shell, in a
// fresh temporary directory, with --cpu so that no message depends on the
// machine's GPUs (the one test without --cpu expects no GPU, as gpu-sw's).
//
// The pair, worked out by hand with the DNA defaults (match 2, mismatch -3,
// a gap of k letters costs 5 + 2k): the query is X Y (80 letters), the
// target X R Y' (110): R is 30 letters of G and T, Y' is Y with one
// substitution. R starts with neither Y's first letter nor ends with X's
// last, so no other placement of R ties.
//   X against X: 40 identical, 80; Y against Y': 39 identical and one
//   substitution, 75. R is a difference block of D, or a gap of 5 + 60 = 65.
//   With k matching regions, every letter of the query in a column, and at
//   most one of them a substitution, no alignment beats these:
//     plain:   one region, R a gap:   155 - 65      = 90
//              two regions, R a block: 155 - D      (better when D < 65)
//     charged: (k+1)*D in all:         155 - 3D     (40: 35)
//              one block, nothing aligned: -D       (1000: -1000)
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "syntenic/syntenic.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using gdp::test::lines_of;
using gdp::test::split;

const std::string X = "GCTAAAGACAATTACATAACATACACGTCAGCACGAAACA";
const std::string Y = "CTTGTTGGCCCAGTGTGAATCGCTTAAGGGTTAAGTAAGT";
const std::string R = "TTTGTTGGTGGTGGTTTGGTTTGTTTTTGG";
const std::string Y2 = "CTTGTTGGCCCAGTGTGAATTGCTTAAGGGTTAAGTAAGT";  // Y, its 21st letter C -> T
const std::string query_seq = X + Y, target_seq = X + R + Y2;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The data rows of TSV output, split into columns ('#' lines skipped).
std::vector<std::vector<std::string>> tsv_rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& l : lines_of(out))
    if (l.empty() || l[0] != '#') rows.push_back(split(l, '\t'));
  return rows;
}

// The integer after `"key":` in a JSON line.
long long json_int(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  const auto at = line.find(k);
  REQUIRE(at != std::string::npos);
  return std::stoll(line.substr(at + k.size()));
}

std::string fasta(const std::string& id, const std::string& residues) { return ">" + id + "\n" + residues + "\n"; }

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("syntenic") {
    query = write("q.fa", fasta("q", query_seq));
    target = write("t.fa", fasta("t", target_seq));
  }
  std::string query, target;

  gdp::test::RunResult run(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") const {
    return gdp::test::run_program(GPU_SYNTENIC_EXE, args, dir(), stdin_path);
  }
  gdp::test::RunResult run_cpu(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return run(args);
  }
  // The test pair with `extra` options, in `format`; must succeed quietly.
  std::string output(const std::string& format, std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {"--format", format, query, target});
    const auto r = run_cpu(extra);
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    return r.out;
  }
  // The score of the test pair (JSON).
  long long score(std::vector<std::string> extra = {}) const {
    const auto lines = lines_of(output("json", extra));
    REQUIRE(lines.size() == 1);
    return json_int(lines[0], "score");
  }
};

// Exit status 2, nothing on stdout, one line on stderr naming the problem.
void check_bad_input(const gdp::test::RunResult& r, const std::string& mentions) {
  gdp::test::check_error_line(r, "gpu-syntenic", mentions);
}

// Letters of the query (=, X, I) and of the target (=, X, D) a CIGAR takes,
// its columns and its '=' columns; each =/X column checked against the
// letters from (i, j).
struct CigarWalk {
  std::int64_t query = 0, target = 0, columns = 0, identical = 0;
};
CigarWalk walk(const std::string& cigar, std::int64_t i, std::int64_t j) {
  CigarWalk w;
  const std::regex op("([0-9]+)([=XID])");
  for (auto it = std::sregex_iterator(cigar.begin(), cigar.end(), op); it != std::sregex_iterator(); ++it) {
    const std::int64_t n = std::stoll((*it)[1]);
    const char c = (*it)[2].str()[0];
    for (std::int64_t k = 0; k < n; ++k) {
      if (c == '=' || c == 'X') {
        INFO("column at query " << i + 1 << ", target " << j + 1);
        CHECK((query_seq.at(static_cast<std::size_t>(i)) == target_seq.at(static_cast<std::size_t>(j))) == (c == '='));
      }
      i += c != 'D', j += c != 'I';
    }
    w.query += c != 'D' ? n : 0, w.target += c != 'I' ? n : 0, w.columns += n, w.identical += c == '=' ? n : 0;
  }
  return w;
}

}  // namespace

TEST_CASE("gpu-syntenic listing (the default): parameters, score, regions in order", "[cli][syntenic]") {
  Sandbox box;
  const auto r = box.run_cpu({box.query, box.target});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const std::string& out = r.out;
  for (const char* line : {"# Program:  gpu-syntenic\n", "# Scoring:  match 2, mismatch -3\n",
                           "# Gaps:     open 5, extend 2 (a gap of length k costs open + k*extend)\n",
                           "# Blocks:   penalty 40 each\n", "# Ends:     charged", "# 1: q (80)\n", "# 2: t (110)\n",
                           "# Score:       35\n", "# Regions:     2 matching regions (155), 1 block (-40)\n",
                           "# End charges: -80\n"})
    CHECK_THAT(out, Contains(line));
  const auto match1 = out.find("# Match 1: query 1-40 (40 letters), target 1-40 (40 letters)\n#   score 80, identity 40/40 (100.0%)\n");
  const auto block1 = out.find("# Block 1: query - (0 letters, after 40), target 41-70 (30 letters)\n#   score -40\n");
  const auto match2 = out.find("# Match 2: query 41-80 (40 letters), target 71-110 (40 letters)\n#   score 75, identity 39/40 (97.5%)\n");
  REQUIRE(match1 != std::string::npos);
  REQUIRE(block1 != std::string::npos);
  REQUIRE(match2 != std::string::npos);
  CHECK((match1 < block1 && block1 < match2));
  // The columns, as gpu-sw's pair format writes them.
  CHECK_THAT(out, Contains("q                 41 " + Y + "      80\n" + std::string(21, ' ') + std::string(20, '|') + "." +
                           std::string(19, '|') + "\nt                 71 " + Y2 + "     110\n"));
}

TEST_CASE("gpu-syntenic listing with --score-only: the score, no regions", "[cli][syntenic]") {
  Sandbox box;
  const auto r = box.run_cpu({"--score-only", box.query, box.target});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("# Score:       35\n"));
  CHECK(r.out.find("# Match 1") == std::string::npos);
}

TEST_CASE("gpu-syntenic PAF: 12 + 3 columns a matching region, consistent with the sequences", "[cli][syntenic]") {
  Sandbox box;
  const auto lines = lines_of(box.output("paf"));
  REQUIRE(lines.size() == 2);
  const std::vector<std::vector<std::string>> expected_heads = {{"q", "80", "0", "40", "+", "t", "110", "0", "40", "40", "40", "255"},
                                                                {"q", "80", "40", "80", "+", "t", "110", "70", "110", "39", "40", "255"}};
  const std::vector<std::string> scores = {"AS:i:80", "AS:i:75"};
  for (std::size_t k = 0; k < lines.size(); ++k) {
    INFO(lines[k]);
    const auto f = split(lines[k], '\t');
    REQUIRE(f.size() == 15);
    CHECK(std::vector<std::string>(f.begin(), f.begin() + 12) == expected_heads[k]);
    CHECK(f[12] == "tp:A:P");
    CHECK(f[13] == scores[k]);
    REQUIRE_THAT(f[14], StartsWith("cg:Z:"));
    const std::int64_t qs = std::stoll(f[2]), qe = std::stoll(f[3]), ts = std::stoll(f[7]), te = std::stoll(f[8]);
    const CigarWalk w = walk(f[14].substr(5), qs, ts);
    CHECK(w.query == qe - qs);
    CHECK(w.target == te - ts);
    CHECK(w.identical == std::stoll(f[9]));
    CHECK(w.columns == std::stoll(f[10]));
  }
}

TEST_CASE("gpu-syntenic TSV: a row a region, 1-based inclusive; --score-only a row a pair", "[cli][syntenic]") {
  Sandbox box;
  SECTION("regions") {
    const std::string out = box.output("tsv");
    CHECK_THAT(out, StartsWith("#query\ttarget\tkind\tquery_start\tquery_end\ttarget_start\ttarget_end\tscore\tidentity\tcigar\n"));
    const auto rows = tsv_rows(out);
    REQUIRE(rows.size() == 3);
    using V = std::vector<std::string>;
    CHECK(rows[0] == V{"q", "t", "match", "1", "40", "1", "40", "80", "100.00", "40="});
    CHECK(rows[1] == V{"q", "t", "block", "41", "40", "41", "70", "-40", "-", "-"});
    CHECK(rows[2] == V{"q", "t", "match", "41", "80", "71", "110", "75", "97.50", "20=1X19="});
    for (const auto& row : rows)
      if (row[2] == "match") {
        const CigarWalk w = walk(row[9], std::stoll(row[3]) - 1, std::stoll(row[5]) - 1);
        CHECK(w.query == std::stoll(row[4]) - std::stoll(row[3]) + 1);
        CHECK(w.target == std::stoll(row[6]) - std::stoll(row[5]) + 1);
      }
  }
  SECTION("--score-only") {
    CHECK(box.output("tsv", {"--score-only"}) == "#query\ttarget\tscore\tquery_end\ttarget_end\nq\tt\t35\t80\t110\n");
  }
  SECTION("every query against every target, grouped by query; the scores of --score-only") {
    const std::string q = box.write("q2.fa", fasta("q1", query_seq) + fasta("q2", X)),
                      t = box.write("t2.fa", fasta("t1", target_seq) + fasta("t2", query_seq));
    const auto full = box.run_cpu({"--format", "json", q, t}), only = box.run_cpu({"--score-only", "--format", "tsv", q, t});
    REQUIRE(full.status == 0);
    REQUIRE(only.status == 0);
    const auto json = lines_of(full.out);
    const auto rows = tsv_rows(only.out);
    REQUIRE(json.size() == 4);
    REQUIRE(rows.size() == 4);
    const std::vector<std::pair<std::string, std::string>> order = {{"q1", "t1"}, {"q1", "t2"}, {"q2", "t1"}, {"q2", "t2"}};
    for (std::size_t k = 0; k < 4; ++k) {
      INFO(json[k]);
      CHECK(std::make_pair(rows[k][0], rows[k][1]) == order[k]);
      CHECK_THAT(json[k], StartsWith("{\"query\":\"" + order[k].first + "\",\"target\":\"" + order[k].second + "\""));
      CHECK(std::stoll(rows[k][2]) == json_int(json[k], "score"));
    }
    CHECK(rows[0][2] == "35");
    CHECK(rows[1][2] == std::to_string(2 * 80 - 2 * 40));  // identical: one region, both ends charged
  }
}

TEST_CASE("gpu-syntenic JSON: an object a line with the parameters and the regions", "[cli][syntenic]") {
  Sandbox box;
  const auto lines = lines_of(box.output("json"));
  REQUIRE(lines.size() == 1);
  const std::string& j = lines[0];
  CHECK_THAT(j, StartsWith("{\"query\":\"q\",\"target\":\"t\",\"query_length\":80,\"target_length\":110,\"score\":35,"));
  CHECK(j.back() == '}');
  CHECK(json_int(j, "block_penalty") == 40);
  CHECK(json_int(j, "gap_open") == 5);
  CHECK(json_int(j, "gap_extend") == 2);
  CHECK_THAT(j, Contains("\"ends\":\"charged\""));
  CHECK(count_of(j, "{\"kind\":\"match\"") == 2);
  CHECK(count_of(j, "{\"kind\":\"block\"") == 1);
  CHECK_THAT(j, Contains("{\"kind\":\"block\",\"query_start\":41,\"query_end\":40,\"target_start\":41,\"target_end\":70,"
                         "\"score\":-40,\"identity\":null,\"cigar\":null}"));
  CHECK_THAT(j, Contains("\"identity\":97.5,\"cigar\":\"20=1X19=\"}"));

  const auto only = lines_of(box.output("json", {"--score-only"}));
  REQUIRE(only.size() == 1);
  CHECK(json_int(only[0], "score") == 35);
  CHECK_THAT(only[0], Contains("\"regions\":null}"));

  SECTION("protein: BLOSUM62, gaps 11/1, block penalty 50 by default") {
    const std::string p = box.write("p.fa", fasta("p", "MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF"));
    const auto r = box.run_cpu({"--format", "json", p, p});
    REQUIRE(r.status == 0);
    CHECK(json_int(r.out, "block_penalty") == gdp::syntenic::default_block_penalty_protein);
    CHECK(json_int(r.out, "gap_open") == 11);
    CHECK(json_int(r.out, "gap_extend") == 1);
  }
}

TEST_CASE("gpu-syntenic --ends: charged pays D at each end that is not a block", "[cli][syntenic]") {
  Sandbox box;
  CHECK(box.score() == 35);
  CHECK(box.score({"--ends", "charged"}) == 35);
  CHECK(box.score({"--ends", "plain"}) == 115);  // both ends are matching regions: 2D more
  CHECK_THAT(box.output("json", {"--ends", "plain"}), Contains("\"ends\":\"plain\""));
  CHECK_THAT(box.output("listing", {"--ends", "plain"}), Contains("# Ends:     plain"));
}

TEST_CASE("gpu-syntenic --block-penalty: a block where it costs less than the gap", "[cli][syntenic]") {
  Sandbox box;
  using V = std::vector<std::string>;
  SECTION("plain ends: R is a block while D < 65, a gap beyond") {
    CHECK(box.score({"--ends", "plain", "--block-penalty", "64"}) == 155 - 64);
    const auto block = tsv_rows(box.output("tsv", {"--ends", "plain", "--block-penalty", "64"}));
    REQUIRE(block.size() == 3);
    CHECK(block[1][2] == "block");
    CHECK(box.score({"--ends", "plain", "--block-penalty", "66"}) == 90);
    const auto gap = tsv_rows(box.output("tsv", {"--ends", "plain", "--block-penalty", "66"}));
    REQUIRE(gap.size() == 1);
    CHECK(gap[0] == V{"q", "t", "match", "1", "80", "1", "110", "90", "71.82", "40=30D20=1X19="});
  }
  SECTION("charged ends, a huge penalty: one block of everything") {
    const auto rows = tsv_rows(box.output("tsv", {"--block-penalty", "1000"}));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0] == V{"q", "t", "block", "1", "80", "1", "110", "-1000", "-", "-"});
    CHECK(box.score({"--block-penalty", "1000"}) == -1000);
  }
  SECTION("0 is allowed") { CHECK(box.run_cpu({"--block-penalty", "0", box.query, box.target}).status == 0); }
}

TEST_CASE("gpu-syntenic reads FASTQ, gzip and standard input", "[cli][syntenic]") {
  Sandbox box;
  const std::string fq = box.write("q.fq", "@q read\n" + query_seq + "\n+\n" + std::string(query_seq.size(), 'I') + "\n");
  const auto r = box.run_cpu({"--format", "tsv", "--score-only", fq, box.target});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(tsv_rows(r.out) == std::vector<std::vector<std::string>>{{"q", "t", "35", "80", "110"}});
  const std::string gzip = "gzip -c " + gdp::test::shell_quote(box.target) + " > " + gdp::test::shell_quote(box.target + ".gz");
  REQUIRE(std::system(gzip.c_str()) == 0);
  const auto gz = box.run_cpu({"--format", "tsv", "--score-only", box.query, box.target + ".gz"});
  CHECK(gz.out == r.out);
  const auto in = box.run({"--cpu", "--format", "tsv", "--score-only", "-", box.target}, box.query);
  CHECK(in.out == r.out);
}

TEST_CASE("gpu-syntenic output files and the timing report", "[cli][syntenic]") {
  Sandbox box;
  const std::string out = box.path("out.paf"), report = box.path("report.json");
  SECTION("-o FILE and --report FILE") {
    const auto r = box.run_cpu({"-o", out, "--report", report, "--format", "paf", box.query, box.target});
    REQUIRE(r.status == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
    CHECK(gdp::test::read_text(out) == box.output("paf"));
    CHECK(box.files_starting_with("out.paf.tmp").empty());
    const std::string json = gdp::test::read_text(report);
    CHECK_THAT(json, Contains("\"tool\": \"gpu-syntenic\""));
    CHECK_THAT(json, Contains("\"backend\": \"cpu-"));
    CHECK_THAT(json, Contains("\"query_residues\""));
    CHECK_THAT(json, Contains("\"gcups\""));
  }
  SECTION("bad input leaves neither the output nor a temporary behind") {
    const std::string bad = box.write("bad.fa", ">q\nAC1T\n");
    check_bad_input(box.run_cpu({"-o", out, "--format", "paf", bad, box.target}), "bad.fa:2: ");
    CHECK(!fs::exists(out));
    CHECK(box.files_starting_with("out.paf.tmp").empty());
  }
}

TEST_CASE("gpu-syntenic rejects bad input with one line and exit status 2", "[cli][syntenic]") {
  Sandbox box;
  const std::string t = box.target;
  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::string mentions;
  };
  fs::create_directory(box.path("dir"));
  const std::string empty = box.write("empty.fa", "");
  const std::string junk = box.write("junk.bin", std::string("\x00\x01\x02\xff\xfe\x89PNG\r\n\x1a\n\x00", 13));
  const std::string dna_e = box.write("e.fa", ">a\nACGT\nACGE\n");
  const std::string prot_j = box.write("j.fa", ">p\nMVLSPADK\nGAHJAGEY\n");
  const std::vector<Case> cases = {
      {"a missing file", {box.path("missing.fa"), t}, box.path("missing.fa") + ": cannot open"},
      {"an empty file", {empty, t}, empty + ": empty file"},
      {"a directory", {box.path("dir"), t}, box.path("dir") + ": cannot read: is a directory"},
      {"binary junk", {junk, t}, junk + ":1: not FASTA or FASTQ"},
      {"a protein letter in DNA", {"--alphabet", "dna", dna_e, t}, dna_e + ":3: letter 'E'"},
      {"a letter outside BLOSUM62", {prot_j, prot_j}, prot_j + ":3: letter 'J'"},
      {"a negative --block-penalty", {"--block-penalty", "-1", box.query, t}, "--block-penalty must be 0 to"},
      {"a --block-penalty too large", {"--block-penalty", "2000000", box.query, t}, "--block-penalty must be 0 to"},
      {"--score-only with paf", {"--score-only", "--format", "paf", box.query, t}, "--format paf needs an alignment"},
      {"an unknown --ends", {"--ends", "free", box.query, t}, "unknown ends rule 'free' (use charged or plain)"},
      {"an unknown --format", {"--format", "sam", box.query, t}, "unknown format 'sam'"},
      {"--match with protein", {"--match", "3", prot_j, prot_j}, "--match"},
      {"both inputs on standard input", {"-", "-"}, "standard input"},
      {"a missing input", {box.query}, "target"},
      {"an unknown --tune key", {"--tune", "bogus=1", box.query, t}, "--tune: unknown key 'bogus'"},
      {"--devices with --cpu", {"--devices", "0", box.query, t}, "--cpu and --devices cannot be used together"},
  };
  for (const Case& c : cases) DYNAMIC_SECTION(c.name) { check_bad_input(box.run_cpu(c.args), c.mentions); }
}

TEST_CASE("gpu-syntenic --help and --version", "[cli][syntenic]") {
  Sandbox box;
  const auto help = box.run({"--help"});
  CHECK(help.status == 0);
  CHECK(help.err.empty());
  CHECK_THAT(help.out, Contains("OPEN + k*EXTEND"));
  CHECK_THAT(help.out, Contains("Examples:"));
  CHECK_THAT(help.out, Contains("block penalty " + std::to_string(gdp::syntenic::default_block_penalty_nucleotide)));
  CHECK_THAT(help.out, Contains("block penalty " + std::to_string(gdp::syntenic::default_block_penalty_protein)));
  for (const char* option : {"--block-penalty", "--ends", "--score-only", "--format", "--matrix", "--gap-open",
                             "--gap-extend", "--cpu", "--threads", "--device", "--output", "--report"})
    CHECK_THAT(help.out, Contains(option));
  const auto version = box.run({"--version"});
  CHECK(version.status == 0);
  CHECK(std::regex_search(version.out, std::regex("^gpu-syntenic [0-9]+\\.[0-9]+\\.[0-9]+ \\(")));
}

TEST_CASE("gpu-syntenic without a GPU says so once and runs on the CPU", "[cli][syntenic]") {
  Sandbox box;
  if (fs::exists("/dev/nvidia0")) {
    WARN("this machine has a GPU; the no-GPU behaviour is not checked");
    return;
  }
  const auto r = box.run({"--format", "tsv", "--score-only", box.query, box.target});
  CHECK(r.status == 0);
  const auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], StartsWith("gpu-syntenic: info: "));
  CHECK(tsv_rows(r.out).size() == 1);
  check_bad_input(box.run({"--device", "0", box.query, box.target}), "--device");
}
