// End-to-end tests of gpu-sw: each runs the real binary through the shell,
// in a fresh temporary directory, with stdout and stderr captured to files.
// No test needs a GPU: every run but the device tests passes --cpu, so the
// messages do not depend on the machine.
//
// Expected scores are worked out by hand with the DNA defaults (match 2,
// mismatch -3, gap of length k costs open + k*extend = 5 + 2k):
//   ACGTCATGCAGT vs ACGTCA G TGCAGT   12 matches, one 1-letter gap: 24 - 7 = 17
//   ACGTCATGCAGT vs ACGTCA GG TGCAGT  12 matches, one 2-letter gap: 24 - 9 = 15
//   GGACGT vs TTACGTTT  local ACGT = 8; semiglobal GG over TT = 8 - 6 = 2;
//                       global as semiglobal, then a 2-letter gap: 2 - 9 = -7
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using gdp::test::lines_of;
using gdp::test::split;

const std::string data_dir = GPUDP_DATA_DIR;
std::string example(const std::string& name) { return data_dir + "/" + name; }

using gdp::test::read_text;
using gdp::test::shell_quote;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct Result {
  int status = -1;
  std::string out, err;
  std::vector<std::string> err_lines() const { return lines_of(err); }
};

// A fresh directory for one test, removed afterwards; runs gpu-sw in it.
class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("cli") {}

  // Writes `content` gzip-compressed (by the gzip command) to `name`.
  std::string write_gzip(const std::string& name, const std::string& content) const {
    const std::string plain = write(name + ".plain", content);
    REQUIRE(std::system(("gzip -c " + shell_quote(plain) + " > " + shell_quote(path(name))).c_str()) == 0);
    fs::remove(plain);
    return path(name);
  }

  // Names in the directory that start with `prefix`.
  // gpu-sw ARGS, standard input from `stdin_path` (default /dev/null).
  Result run(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") const {
    const gdp::test::RunResult r = gdp::test::run_program(GPU_SW_EXE, args, dir(), stdin_path);
    return {r.status, r.out, r.err};
  }

  // The same with --cpu first, so no message depends on the machine's GPUs.
  Result run_cpu(std::vector<std::string> args, const std::string& stdin_path = "/dev/null") const {
    args.insert(args.begin(), "--cpu");
    return run(args, stdin_path);
  }
};

std::string fasta(const std::string& id, const std::string& residues) { return ">" + id + "\n" + residues + "\n"; }

// The data rows of TSV output, split into columns ('#' lines skipped).
std::vector<std::vector<std::string>> tsv_rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& l : lines_of(out))
    if (l.empty() || l[0] != '#') rows.push_back(split(l, '\t'));
  return rows;
}

// The score of the only pair of a TSV run, on the plus strand (a
// nucleotide run also writes the minus strand's).
int only_score(const Result& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> plus;
  for (const auto& row : tsv_rows(r.out)) {
    REQUIRE(row.size() == 10);
    if (row[9] == "+") plus.push_back(row);
  }
  REQUIRE(plus.size() == 1);
  return std::stoi(plus[0][2]);
}

// Aligns one query against one target (TSV), returns the score.
int score_of(const Sandbox& box, const std::string& query, const std::string& target,
             std::vector<std::string> extra = {}) {
  const std::string q = box.write("q.fa", fasta("q", query)), t = box.write("t.fa", fasta("t", target));
  extra.insert(extra.end(), {"--format", "tsv", q, t});
  return only_score(box.run_cpu(extra));
}

// Exit status 2, nothing on stdout, and exactly one line on stderr:
// "gpu-sw: error: " then a message containing `mentions`.
void check_bad_input(const Result& r, const std::string& mentions) {
  gdp::test::check_error_line(r, "gpu-sw", mentions);
}

// The usual location prefix of a message: "FILE: " or "FILE:LINE: ".
std::string at(const std::string& file) { return file + ": "; }
std::string at(const std::string& file, int line) { return file + ":" + std::to_string(line) + ": "; }

// An object per line: '{' ... '}', braces balanced outside strings.
bool is_json_object_line(const std::string& line) {
  if (line.size() < 2 || line.front() != '{' || line.back() != '}') return false;
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
    if (depth < 0 || (depth == 0 && i + 1 < line.size())) return false;
  }
  return depth == 0 && !in_string;
}

// The integer after `"key":` in a JSON line.
int json_int(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  const auto at_key = line.find(k);
  REQUIRE(at_key != std::string::npos);
  return std::stoi(line.substr(at_key + k.size()));
}

// Letters of the query a SAM CIGAR consumes (=, X, I, S).
std::int64_t query_length_of_cigar(const std::string& cigar) {
  std::int64_t n = 0;
  const std::regex op("([0-9]+)([=XIDS])");
  for (auto it = std::sregex_iterator(cigar.begin(), cigar.end(), op); it != std::sregex_iterator(); ++it)
    if ((*it)[2] != "D") n += std::stoll((*it)[1]);
  return n;
}

struct Example {
  std::string query, target;
  std::size_t pairs;  // queries x targets x strands (both for DNA, plus for protein)
  std::size_t targets;
};

const std::vector<Example>& examples() {
  static const std::vector<Example> e = {{example("dna_query.fa"), example("dna_target.fa"), 4, 2},
                                         {example("protein_query.fa"), example("protein_target.fa"), 1, 1}};
  return e;
}

// Scores of an example, in output order, from a TSV run.
std::vector<int> tsv_scores(const Sandbox& box, const Example& ex) {
  const Result r = box.run_cpu({"--format", "tsv", ex.query, ex.target});
  REQUIRE(r.status == 0);
  std::vector<int> scores;
  for (const auto& row : tsv_rows(r.out)) scores.push_back(std::stoi(row.at(2)));
  return scores;
}

// Two queries, three targets. Local scores: q1 (A8): t1 (A4) 8, t2 (C6) 0,
// t3 (A7) 14; q2 (C8): t1 0, t2 12, t3 0. Returns the query and target paths.
std::pair<std::string, std::string> write_multi_record_inputs(const Sandbox& box) {
  return {box.write("q.fa", fasta("q1", "AAAAAAAA") + fasta("q2", "CCCCCCCC")),
          box.write("t.fa", fasta("t1", "AAAA") + fasta("t2", "CCCCCC") + fasta("t3", "AAAAAAA"))};
}

// The device tests expect a machine without a GPU, like the development one.
bool machine_has_gpu() { return fs::exists("/dev/nvidia0"); }

const std::string gap_query = "ACGTCATGCAGT";
const std::string one_gap_target = "ACGTCAGTGCAGT";   // 17 with the defaults
const std::string two_gap_target = "ACGTCAGGTGCAGT";  // 15 with the defaults

}  // namespace

TEST_CASE("gpu-sw writes each format on the examples", "[cli]") {
  Sandbox box;
  for (const Example& ex : examples()) {
    DYNAMIC_SECTION(ex.query) {
      const std::vector<int> scores = tsv_scores(box, ex);
      REQUIRE(scores.size() == ex.pairs);
      auto run_format = [&](const std::string& format) {
        const Result r = box.run_cpu({"--format", format, ex.query, ex.target});
        REQUIRE(r.status == 0);
        CHECK(r.err.empty());
        return r.out;
      };

      SECTION("tsv: a '#query' header, then 10 columns a row, the last the strand") {
        const auto lines = lines_of(run_format("tsv"));
        REQUIRE(lines.size() == ex.pairs + 1);
        CHECK_THAT(lines[0], StartsWith("#query\t"));
        for (const auto& l : lines) CHECK(split(l, '\t').size() == 10);
        CHECK(split(lines[1], '\t')[9] == "+");
        CHECK(split(lines.back(), '\t')[9] == (ex.pairs > ex.targets ? "-" : "+"));
      }

      SECTION("sam: @HD, an @SQ per target, @PG, CIGARs of =XIDS, AS:i: the TSV score") {
        const auto lines = lines_of(run_format("sam"));
        REQUIRE(lines.size() == 1 + ex.targets + 1 + ex.pairs);
        CHECK_THAT(lines[0], StartsWith("@HD\t"));
        for (std::size_t i = 1; i <= ex.targets; ++i) CHECK_THAT(lines[i], StartsWith("@SQ\tSN:"));
        CHECK_THAT(lines[ex.targets + 1], StartsWith("@PG\t"));
        const std::regex cigar("([0-9]+[=XIDS])+");
        for (std::size_t k = 0; k < ex.pairs; ++k) {
          const auto f = split(lines[ex.targets + 2 + k], '\t');
          REQUIRE(f.size() >= 12);
          CHECK(std::regex_match(f[5], cigar));
          CHECK(query_length_of_cigar(f[5]) == static_cast<std::int64_t>(f[9].size()));
          CHECK(std::find(f.begin() + 11, f.end(), "AS:i:" + std::to_string(scores[k])) != f.end());
        }
      }

      SECTION("json: one object per line with the TSV score") {
        const auto lines = lines_of(run_format("json"));
        REQUIRE(lines.size() == ex.pairs);
        for (std::size_t k = 0; k < ex.pairs; ++k) {
          INFO(lines[k]);
          CHECK(is_json_object_line(lines[k]));
          for (const char* key : {"query", "target", "strand", "score", "query_start", "query_end", "cigar"})
            CHECK_THAT(lines[k], Contains("\"" + std::string(key) + "\":"));
          CHECK(json_int(lines[k], "score") == scores[k]);
        }
      }

      SECTION("paf: a line a hit with an alignment, AS:i: the TSV score") {
        const auto lines = lines_of(run_format("paf"));
        REQUIRE(lines.size() == ex.pairs);  // every example pair has a positive local score
        for (std::size_t k = 0; k < ex.pairs; ++k) {
          const auto f = split(lines[k], '\t');
          REQUIRE(f.size() == 16);
          CHECK(f[12] == (k == 0 ? "tp:A:P" : "tp:A:S"));
          CHECK(f[14] == "AS:i:" + std::to_string(scores[k]));
        }
      }

      SECTION("pair: a '# Score:' per pair, with the TSV score") {
        const std::string out = run_format("pair");
        CHECK(count_of(out, "# Score:") == ex.pairs);
        CHECK_THAT(out, Contains("# Score:      " + std::to_string(scores[0]) + "\n"));
        CHECK_THAT(out, Contains("open + k*extend"));
      }
    }
  }
}

TEST_CASE("gpu-sw's pair format is EMBOSS's: Biopython's AlignIO reads every pair back", "[cli]") {
  Sandbox box;
  if (std::system("/usr/bin/python3 -c 'import Bio' 2>/dev/null") != 0) {
    WARN("no Biopython for /usr/bin/python3 (scripts/setup.sh installs it); not checked");
    return;
  }
  // Long names (cut in the blocks, whole in the header), gaps, a pair with
  // nothing to align locally, alignments longer than a block.
  const std::string q = box.write("q.fa", fasta("query_with_a_long_name one", "ACGTACGTTTGACCAGGGATTTACCA") +
                                              fasta("q2", "GGGGGGGGGG") +
                                              fasta("q3", "TTTTACGTAGCTAGCTAGCTAGCTAGCTAGGGATCGATCGATCGATCGACTAGCTAGC"
                                                          "TAGCTAGCTAGCTAGCATCGACTAGCTAGCTAGCATCAGCTACGA"));
  const std::string t = box.write("t.fa", fasta("t1", "TTACGTACGATTGACCAGGATTTACCAGG") + fasta("t2", "CCCCCCCC") +
                                              fasta("target_three_long_name",
                                                    "TTTTACGTAGCTAGCTATCTAGCTAGCTAGGGATCGATCGGATCGATCGACTAGCTAGCTAG"
                                                    "CTAGCTAGCTAGCATCGACTAGCTAGCTAGCATCAGCTACGAGG"));
  const std::string script = box.write("read.py",
                                       "import sys\n"
                                       "from Bio import AlignIO\n"
                                       "for a in AlignIO.parse(sys.argv[1], 'emboss'):\n"
                                       "    print(a[0].id, a[1].id, int(a.annotations['score']), a.get_alignment_length(),\n"
                                       "          a[0].seq.replace('-', ''), a[1].seq.replace('-', ''))\n");
  for (const std::string mode : {"local", "global", "semiglobal"}) {
    const std::string pair = box.path(mode + ".pair");
    REQUIRE(box.run_cpu({"--mode", mode, "-o", pair, q, t}).status == 0);
    const Result tsv = box.run_cpu({"--mode", mode, "--format", "tsv", q, t});
    const auto rows = tsv_rows(tsv.out);
    REQUIRE(rows.size() == 18);  // both strands
    const auto r = gdp::test::run_program("/usr/bin/python3", {script, pair}, box.dir());
    INFO(mode << ": " << r.err);
    REQUIRE(r.status == 0);
    const auto parsed = lines_of(r.out);
    REQUIRE(parsed.size() == rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const auto f = split(parsed[k], ' ');
      INFO(parsed[k]);
      REQUIRE(f.size() >= 4);
      CHECK(f[0] == rows[k][0]);  // the whole name
      CHECK(f[1] == rows[k][1]);
      CHECK(f[2] == rows[k][2]);  // the score
    }
  }
}

TEST_CASE("gpu-sw --score-only gives the same scores without start coordinates", "[cli]") {
  Sandbox box;
  const Example& ex = examples()[0];

  SECTION("tsv shows '*' for the starts, the identity and the CIGAR") {
    const Result r = box.run_cpu({"--score-only", "--format", "tsv", ex.query, ex.target});
    REQUIRE(r.status == 0);
    const auto rows = tsv_rows(r.out);
    REQUIRE(rows.size() == ex.pairs);
    const std::vector<int> full = tsv_scores(box, ex);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      REQUIRE(rows[k].size() == 10);
      CHECK(std::stoi(rows[k][2]) == full[k]);
      CHECK(rows[k][3] == "*");
      CHECK(rows[k][4] != "*");
      CHECK(rows[k][5] == "*");
      CHECK(rows[k][6] != "*");
      CHECK(rows[k][8] == "*");
    }
  }

  SECTION("json has the alignment's keys, null where it has no value") {
    const Result full = box.run_cpu({"--format", "json", ex.query, ex.target});
    const Result score = box.run_cpu({"--score-only", "--format", "json", ex.query, ex.target});
    REQUIRE(full.status == 0);
    REQUIRE(score.status == 0);
    const auto keys_of = [](const std::string& line) {  // the keys of a flat JSON object, in order
      std::vector<std::string> keys;
      for (const std::regex key("\"([a-z_]+)\":"); const auto& m : lines_of(line)) {
        for (auto it = std::sregex_iterator(m.begin(), m.end(), key); it != std::sregex_iterator(); ++it)
          keys.push_back((*it)[1]);
      }
      return keys;
    };
    const std::string first_full = lines_of(full.out)[0], first_score = lines_of(score.out)[0];
    CHECK(keys_of(first_score) == keys_of(first_full));
    for (const char* key : {"query_start", "target_start", "length", "identical", "similar", "gaps", "identity", "cigar"})
      CHECK_THAT(first_score, Contains("\"" + std::string(key) + "\":null"));
  }

  SECTION("sam and paf are refused: they need an alignment") {
    check_bad_input(box.run_cpu({"--score-only", "--format", "sam", ex.query, ex.target}), "--score-only");
    check_bad_input(box.run_cpu({"--score-only", "--format", "paf", ex.query, ex.target}),
                    "--format paf needs an alignment");
  }
}

TEST_CASE("gpu-sw scores hand-made pairs in each mode", "[cli]") {
  Sandbox box;
  SECTION("identical sequences: 4 matches score 8 in every mode") {
    for (const char* mode : {"local", "global", "semiglobal"}) CHECK(score_of(box, "ACGT", "ACGT", {"--mode", mode}) == 8);
  }
  SECTION("the modes differ on GGACGT vs TTACGTTT") {
    CHECK(score_of(box, "GGACGT", "TTACGTTT") == 8);  // local is the default
    CHECK(score_of(box, "GGACGT", "TTACGTTT", {"--mode", "local"}) == 8);
    CHECK(score_of(box, "GGACGT", "TTACGTTT", {"--mode", "semiglobal"}) == 2);
    CHECK(score_of(box, "GGACGT", "TTACGTTT", {"--mode", "global"}) == -7);
  }
  SECTION("a gap of length k costs open + k*extend") {
    CHECK(score_of(box, gap_query, one_gap_target) == 24 - (5 + 1 * 2));
    CHECK(score_of(box, gap_query, two_gap_target) == 24 - (5 + 2 * 2));
    CHECK(score_of(box, gap_query, two_gap_target, {"--mode", "global"}) == 24 - (5 + 2 * 2));
    CHECK(score_of(box, gap_query, two_gap_target, {"--gap-open", "3", "--gap-extend", "1"}) == 24 - (3 + 2 * 1));
  }
  SECTION("--match and --mismatch") {
    CHECK(score_of(box, "ACGT", "ACGT", {"--match", "3"}) == 12);
    CHECK(score_of(box, "ACGTA", "ACCTA", {"--mode", "global", "--match", "1", "--mismatch", "-1"}) == 3);
  }
  SECTION("protein pairs score with BLOSUM62") {
    CHECK(score_of(box, "WWW", "WWW") == 33);            // W-W is 11
    CHECK(score_of(box, "AW", "RW", {"--mode", "global"}) == -1 + 11);  // A-R is -1
  }
}

TEST_CASE("gpu-sw says when one letter makes a DNA run protein", "[cli]") {
  Sandbox box;
  const std::string target = box.write("t.fa", fasta("t", one_gap_target));
  SECTION("a stray letter: the warning names it, its line and record, and the run goes on") {
    const std::string q = box.write("q.fa", ">a\nACGTACGT\n>b one stray\nACGTAC\nACQTAC\n");
    const Result r = box.run_cpu({"--format", "tsv", q, target});
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE(r.err_lines().size() == 1);
    CHECK(r.err_lines()[0] == "gpu-sw: warning: " + at(q, 5) +
                                  "letter 'Q' in record 'b' is not a nucleotide, so every pair is scored as protein; "
                                  "--alphabet dna refuses it, --alphabet protein keeps protein scoring without this warning");
    CHECK(tsv_rows(r.out).size() == 2);
  }
  SECTION("--alphabet protein keeps the choice without the warning") {
    const std::string q = box.write("q.fa", ">a\nACGTACGT\n>b\nACQTAC\n");
    const Result r = box.run_cpu({"--alphabet", "protein", "--format", "tsv", q, target});
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
  }
  SECTION("too many ambiguity codes") {
    const std::string q = box.write("q.fa", fasta("a", "ACGTACGT") + fasta("b", "RYKMSWRYKM"));
    const Result r = box.run_cpu({"--format", "tsv", q, target});
    REQUIRE(r.status == 0);
    REQUIRE(r.err_lines().size() == 1);
    CHECK(r.err_lines()[0].find("gpu-sw: warning: over a tenth of the letters are ambiguity codes") == 0);
  }
  SECTION("protein input: no warning") {
    const Result r = box.run_cpu({"--format", "tsv", example("protein_query.fa"), example("protein_target.fa")});
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
  }
  SECTION("-q silences it") {
    const std::string q = box.write("q.fa", ">a\nACGTACGT\n>b\nACQTAC\n");
    const Result r = box.run_cpu({"-q", "--format", "tsv", q, target});
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
  }
}

TEST_CASE("gpu-sw reads every input form", "[cli]") {
  Sandbox box;
  const std::string target = box.write("t.fa", fasta("t", one_gap_target));
  const int expected = 17;
  auto score = [&](const std::string& query, const std::string& stdin_path = "/dev/null") {
    return only_score(box.run_cpu({"--format", "tsv", query, target}, stdin_path));
  };

  SECTION("gzip-compressed") { CHECK(score(box.write_gzip("q.fa.gz", fasta("q", gap_query))) == expected); }
  SECTION("gzip-compressed without a .gz name") { CHECK(score(box.write_gzip("q.seq", fasta("q", gap_query))) == expected); }
  SECTION("gzip-compressed target") {
    const std::string q = box.write("q.fa", fasta("q", gap_query));
    const std::string t = box.write_gzip("t.fa.gz", fasta("t", one_gap_target));
    CHECK(only_score(box.run_cpu({"--format", "tsv", q, t})) == expected);
  }
  SECTION("FASTQ") { CHECK(score(box.write("q.fq", "@q read\n" + gap_query + "\n+\n" + std::string(12, 'I') + "\n")) == expected); }
  SECTION("standard input as '-'") { CHECK(score("-", box.write("q.fa", fasta("q", gap_query))) == expected); }
  SECTION("standard input as the target") {
    const std::string q = box.write("q.fa", fasta("q", gap_query));
    CHECK(only_score(box.run_cpu({"--format", "tsv", q, "-"}, target)) == expected);
  }
  SECTION("lower case") { CHECK(score(box.write("q.fa", fasta("q", "acgtcaTGCAGT"))) == expected); }
  SECTION("a record over several lines, CRLF line ends") {
    CHECK(score(box.write("q.fa", ">q\r\nACGTC\r\nATGC\r\nAGT\r\n")) == expected);
  }
}

TEST_CASE("gpu-sw aligns every query against every target; --top keeps the best", "[cli]") {
  Sandbox box;
  const auto [q, t] = write_multi_record_inputs(box);
  auto rows_of = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), {"--format", "tsv", q, t});
    const Result r = box.run_cpu(extra);
    REQUIRE(r.status == 0);
    std::vector<std::string> rows;
    for (const auto& row : tsv_rows(r.out))
      rows.push_back(row.at(0) + " " + row.at(1) + " " + row.at(2) + " " + row.at(9));
    return rows;
  };
  CHECK(rows_of({"--strand", "plus"}) ==
        std::vector<std::string>{"q1 t1 8 +", "q1 t2 0 +", "q1 t3 14 +", "q2 t1 0 +", "q2 t2 12 +", "q2 t3 0 +"});
  // Both strands (the default): the reverse complements T8 and G8 score 0 everywhere.
  CHECK(rows_of({}) == std::vector<std::string>{"q1 t1 8 +", "q1 t1 0 -", "q1 t2 0 +", "q1 t2 0 -", "q1 t3 14 +",
                                                "q1 t3 0 -", "q2 t1 0 +", "q2 t1 0 -", "q2 t2 12 +", "q2 t2 0 -",
                                                "q2 t3 0 +", "q2 t3 0 -"});
  CHECK(rows_of({"--top", "1"}) == std::vector<std::string>{"q1 t3 14 +", "q2 t2 12 +"});
  CHECK(rows_of({"--top", "2"}) == std::vector<std::string>{"q1 t3 14 +", "q1 t1 8 +", "q2 t2 12 +", "q2 t1 0 +"});
  // Ties at 0: target order, then plus before minus.
  CHECK(rows_of({"--top", "3"}) ==
        std::vector<std::string>{"q1 t3 14 +", "q1 t1 8 +", "q1 t1 0 -", "q2 t2 12 +", "q2 t1 0 +", "q2 t1 0 -"});
  CHECK(rows_of({"--threads", "1"}) == rows_of({"--threads", "2"}));
}

TEST_CASE("SAM: each query has one primary record, its best, and is not also unmapped", "[cli]") {
  Sandbox box;
  const auto [q, t] = write_multi_record_inputs(box);
  for (const char* top : {"0", "2"}) DYNAMIC_SECTION("--top " << top) {
    std::vector<std::string> args = {"--format", "sam", q, t};
    if (std::string(top) != "0") args.insert(args.end(), {"--top", top});
    const Result r = box.run_cpu(args);
    REQUIRE(r.status == 0);
    std::map<std::string, std::vector<std::string>> primary_targets, unmapped;
    std::map<std::string, std::pair<int, std::string>> best;  // query -> (AS, target)
    for (const auto& l : lines_of(r.out)) {
      if (l.empty() || l[0] == '@') continue;
      const auto f = split(l, '\t');
      REQUIRE(f.size() >= 12);
      const int flag = std::stoi(f[1]);
      if (flag & 4) {
        unmapped[f[0]].push_back(l);
        continue;
      }
      if (!(flag & 256)) primary_targets[f[0]].push_back(f[2]);
      const int as = std::stoi(f[11].substr(5));
      if (!best.count(f[0]) || as > best[f[0]].first) best[f[0]] = {as, f[2]};
    }
    for (const char* query : {"q1", "q2"}) {
      INFO("query " << query << "\n" << r.out);
      CHECK(primary_targets[query] == std::vector<std::string>{best[query].second});
      CHECK(unmapped[query].empty());
    }
  }
}

TEST_CASE("SAM carries a FASTQ query's qualities in QUAL", "[cli]") {
  Sandbox box;
  const std::string t = box.write("t.fa", fasta("t", "ACGTACGTACGT"));
  const std::string q = box.write("q.fq", "@mapped\nACGTACGT\n+\nABCDEFGH\n@unmapped\nNNNN\n+\n!#%'\n");
  const Result r = box.run_cpu({"--format", "sam", q, t});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> records;
  for (const auto& l : lines_of(r.out))
    if (!l.empty() && l[0] != '@') records.push_back(split(l, '\t'));
  // ACGTACGT is its own reverse complement: mapped on both strands; NNNN
  // on neither, so unmapped once.
  REQUIRE(records.size() == 3);
  CHECK(records[0][0] == "mapped");
  CHECK(records[0][1] == "0");
  CHECK(records[0][10] == "ABCDEFGH");
  CHECK(records[1][0] == "mapped");
  CHECK(records[1][1] == "272");  // secondary, reverse complemented
  CHECK(records[1][10] == "HGFEDCBA");  // QUAL reversed with SEQ
  CHECK(records[2][0] == "unmapped");
  CHECK(records[2][1] == "4");
  CHECK(records[2][10] == "!#%'");
  // FASTA has none: QUAL stays '*'.
  const std::string fa = box.write("q.fa", fasta("mapped", "ACGTACGT"));
  const Result f = box.run_cpu({"--format", "sam", fa, t});
  REQUIRE(f.status == 0);
  for (const auto& l : lines_of(f.out))
    if (!l.empty() && l[0] != '@') CHECK(split(l, '\t')[10] == "*");
}

TEST_CASE("SAM refuses two targets with one name, as samtools does", "[cli]") {
  Sandbox box;
  const std::string q = box.write("q.fa", fasta("q", "ACGTACGTAC"));
  const std::string t = box.write("t.fa", ">r1\nACGTACGTAC\n>r2\nACGTTCGTAC\n>r1 again\nACGTACGAAC\n");
  check_bad_input(box.run_cpu({"--format", "sam", q, t}),
                  at(t, 5) + "target 'r1' has the name of the target at line 1: SAM's @SQ names must be unique");
  CHECK(box.run_cpu({"--format", "tsv", q, t}).status == 0);  // other formats name records by their order too
}

TEST_CASE("CRLF input: no carriage return reaches the output", "[cli]") {
  Sandbox box;
  const std::string q = box.write("q.fa", ">q\r\nACGTC\r\nATGCAGT\r\n"), t = box.write("t.fa", ">t desc\r\nACGT\r\n");
  for (const char* format : {"tsv", "sam", "json", "pair"}) {
    const Result r = box.run_cpu({"--format", format, q, t});
    INFO("--format " << format);
    REQUIRE(r.status == 0);
    CHECK(r.out.find('\r') == std::string::npos);
    CHECK(r.out.find("\\r") == std::string::npos);  // JSON's escape of it
  }
}

TEST_CASE("gpu-sw rejects a truncated gzip input", "[cli]") {
  Sandbox box;
  const std::string whole = box.write_gzip("whole.fa.gz", fasta("q", std::string(20000, 'A') + std::string(20000, 'C')));
  std::string bytes = read_text(whole);
  const std::string cut = box.write("cut.fa.gz", bytes.substr(0, bytes.size() - 8));  // loses the CRC and length
  check_bad_input(box.run_cpu({cut, example("dna_target.fa")}), at(cut));
}

TEST_CASE("gpu-sw output files", "[cli]") {
  Sandbox box;
  const Example& ex = examples()[0];
  const std::string out = box.path("out.tsv");

  SECTION("-o FILE writes the file and nothing on stdout") {
    const Result to_stdout = box.run_cpu({"--format", "tsv", ex.query, ex.target});
    const Result to_file = box.run_cpu({"-o", out, "--format", "tsv", ex.query, ex.target});
    REQUIRE(to_file.status == 0);
    CHECK(to_file.out.empty());
    CHECK(to_file.err.empty());
    CHECK(!to_stdout.out.empty());
    CHECK(read_text(out) == to_stdout.out);
    CHECK(box.files_starting_with("out.tsv.tmp.").empty());
  }

  SECTION("--report FILE writes a JSON timing report") {
    const std::string report = box.path("report.json");
    const Result r = box.run_cpu({"--report", report, "--format", "tsv", ex.query, ex.target});
    REQUIRE(r.status == 0);
    CHECK(tsv_rows(r.out).size() == ex.pairs);
    const std::string json = read_text(report);
    CHECK_THAT(json, StartsWith("{"));
    CHECK_THAT(json, Contains("\"gcups\""));
    CHECK_THAT(json, Contains("\"tool\": \"gpu-sw\""));
  }

  SECTION("bad input leaves neither the output nor a temporary behind") {
    const std::string bad = box.write("bad.fa", ">q\nAC1T\n");
    check_bad_input(box.run_cpu({"-o", out, "--format", "tsv", bad, ex.target}), at(bad, 2));
    CHECK(!fs::exists(out));
    CHECK(box.files_starting_with("out.tsv.tmp.").empty());
  }

  SECTION("an output in a missing directory is an error") {
    check_bad_input(box.run_cpu({"-o", box.path("no/such/dir/out.tsv"), ex.query, ex.target}), "no/such/dir/out.tsv");
  }
}

TEST_CASE("gpu-sw --version and --help", "[cli]") {
  Sandbox box;
  SECTION("--version") {
    const Result r = box.run({"--version"});
    CHECK(r.status == 0);
    // The name, the version, then the build: its commit, type, and CUDA with the architectures (or CPU only).
    CHECK(std::regex_search(
        r.out, std::regex("^gpu-sw [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [^,]+, [^,]+, (CUDA [0-9.]+ for sm_[0-9]+.*|CPU only)\\)\n$")));
  }
  SECTION("--help states the gap cost convention and gives examples") {
    const Result r = box.run({"--help"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    // The help writes it "OPEN + k*EXTEND", naming the options' values.
    CHECK_THAT(lower(r.out), Contains("open + k*extend"));
    CHECK_THAT(r.out, Contains("EMBOSS"));
    CHECK_THAT(r.out, Contains("Examples:"));
    for (const char* option : {"--mode", "--format", "--strand", "paf", "--score-only", "--gap-open", "--gap-extend", "--matrix", "--top",
                               "--cpu", "--device", "--threads", "--output", "--report", "--quiet", "--verbose"})
      CHECK_THAT(r.out, Contains(option));
  }
}

// The help once converted EMBOSS's costs to "--gap-open 9.5", which gpu-sw
// rejects: --gap-open takes an integer.
TEST_CASE("every --gap-open value quoted in --help is one gpu-sw accepts", "[cli]") {
  Sandbox box;
  const std::string help = box.run({"--help"}).out;
  const std::regex quoted("--gap-open ([0-9][^ \\n]*)");  // values, not placeholders
  std::size_t seen = 0;
  for (auto it = std::sregex_iterator(help.begin(), help.end(), quoted); it != std::sregex_iterator(); ++it, ++seen) {
    const std::string value = (*it)[1];
    INFO("--help quotes: --gap-open " << value);
    CHECK(std::regex_match(value, std::regex("[0-9]+")));
  }
  CHECK(seen > 0);
}

TEST_CASE("gpu-sw rejects bad input files with one located error line", "[cli]") {
  Sandbox box;
  const std::string target = example("dna_target.fa");
  auto check_query = [&](const std::string& query, const std::string& mentions) {
    check_bad_input(box.run_cpu({query, target}), mentions);
  };

  SECTION("a missing file") { check_query(box.path("missing.fa"), at(box.path("missing.fa")) + "cannot open"); }
  SECTION("an empty file") {
    const std::string f = box.write("empty.fa", "");
    check_query(f, at(f) + "empty file");
  }
  SECTION("a file of blank lines") {
    const std::string f = box.write("blank.fa", "\n \n\n");
    check_query(f, at(f) + "empty file");
  }
  SECTION("a directory") {
    fs::create_directory(box.path("dir"));
    check_query(box.path("dir"), at(box.path("dir")) + "cannot read: is a directory");
  }
  SECTION("a record with no sequence names its header's line") {
    const std::string f = box.write("noseq.fa", ">a\nACGT\n>b\n>c\nACGT\n");
    check_query(f, at(f, 3) + "record 'b' has no sequence");
  }
  SECTION("a last record with no sequence") {
    const std::string f = box.write("noseq.fa", ">a\nACGT\n\n>b\n");
    check_query(f, at(f, 4) + "record 'b' has no sequence");
  }
  SECTION("a digit in DNA names the line of the digit") {
    const std::string f = box.write("digit.fa", ">a\nACGT\n>b desc\nACGTACGT\nACG1T\nACGT\n");
    check_query(f, at(f, 5) + "unexpected character '1'");
  }
  SECTION("a letter outside BLOSUM62 names the line of the letter") {
    const std::string f = box.write("j.fa", ">p1\nMVLSPADK\n>p2 protein\nMVLSPADKTN\nVKAAWGKV\nGAHJAGEY\nGAEALERM\n");
    check_bad_input(box.run_cpu({f, example("protein_target.fa")}), at(f, 6) + "letter 'J' in record 'p2'");
  }
  SECTION("a letter outside the matrix on a CRLF line") {
    const std::string f = box.write("j.fa", ">p\r\nMVLSPADK\r\nGAHJAGEY\r\n");
    check_bad_input(box.run_cpu({f, example("protein_target.fa")}), at(f, 3) + "letter 'J'");
  }
  SECTION("a protein letter in a DNA run (--alphabet dna)") {
    const std::string f = box.write("e.fa", ">a\nACGT\nACGE\n");
    check_bad_input(box.run_cpu({"--alphabet", "dna", "--matrix", "BLOSUM62", f, target}), at(f, 3) + "letter 'E'");
  }
  SECTION("a file that is neither FASTA nor FASTQ") {
    const std::string f = box.write("text.fa", "\nhello world\n");
    check_query(f, at(f, 2) + "not FASTA or FASTQ");
  }
  SECTION("sequence before the first header") {
    const std::string f = box.write("headless.fa", "ACGT\n>a\nACGT\n");
    check_query(f, at(f, 1) + "not FASTA or FASTQ");
  }
  SECTION("a bad letter on standard input is located in <stdin>") {
    const std::string f = box.write("digit.fa", ">a\nACGT\nAC1T\n");
    check_bad_input(box.run_cpu({"-", target}, f), at("<stdin>", 3));
  }
}

TEST_CASE("gpu-sw rejects bad matrix files with file and line", "[cli]") {
  Sandbox box;
  const std::string q = example("protein_query.fa"), t = example("protein_target.fa");
  const std::string header = "   A  R  W\n";
  auto check_matrix = [&](const std::string& text, const std::string& mentions_after_file) {
    const std::string m = box.write("matrix.txt", text);
    check_bad_input(box.run_cpu({"--matrix", m, q, t}), m + mentions_after_file);
  };

  SECTION("a missing row names the header's line") {
    check_matrix("# comment\n" + header + "A  4 -1 -3\nR -1  5 -3\n", ":2: missing the row for 'W'");
  }
  SECTION("a non-integer names its line") {
    check_matrix(header + "A  4 -1 -3\nR -1  x -3\nW -3 -3 11\n", ":3: 'x' is not an integer");
  }
  SECTION("a row with too few values names its line") {
    check_matrix(header + "A  4 -1 -3\nR -1  5 -3\nW -3 -3\n", ":4: row 'W' has 2 values, expected 3");
  }
  SECTION("no such file, and not a built-in name") {
    check_bad_input(box.run_cpu({"--matrix", box.path("nope.mat"), q, t}), at(box.path("nope.mat")));
  }
}

TEST_CASE("gpu-sw rejects bad options with exit status 2", "[cli]") {
  Sandbox box;
  const std::string q = example("dna_query.fa"), t = example("dna_target.fa");
  SECTION("negative gap cost") { check_bad_input(box.run_cpu({"--gap-open", "-1", q, t}), "negative"); }
  SECTION("negative gap extension") { check_bad_input(box.run_cpu({"--gap-extend", "-2", q, t}), "negative"); }
  SECTION("absurd gap cost") { check_bad_input(box.run_cpu({"--gap-open", "100000", q, t}), "at most"); }
  SECTION("unknown option") { check_bad_input(box.run_cpu({"--bogus", q, t}), "--bogus"); }
  SECTION("unknown mode") { check_bad_input(box.run_cpu({"--mode", "fancy", q, t}), "'fancy'"); }
  SECTION("unknown format") { check_bad_input(box.run_cpu({"--format", "xml", q, t}), "'xml'"); }
  SECTION("--match with protein input") {
    check_bad_input(box.run_cpu({"--match", "3", example("protein_query.fa"), example("protein_target.fa")}), "--match");
  }
  SECTION("both inputs on standard input") { check_bad_input(box.run_cpu({"-", "-"}, q), "standard input"); }
  SECTION("a missing input") { check_bad_input(box.run_cpu({q}), "target"); }
  SECTION("--top 0") {
    const Result r = box.run_cpu({"--top", "0", q, t});
    check_bad_input(r, "--top: must be at least 1, not 0");
    CHECK(r.err.size() < 120);  // no range up to 1.8e308
  }
}

TEST_CASE("gpu-sw without a GPU says so once and runs on the CPU", "[cli]") {
  Sandbox box;
  const Example& ex = examples()[0];
  if (machine_has_gpu()) {
    WARN("this machine has a GPU; the no-GPU behaviour is not checked");
    return;
  }
  SECTION("without --cpu: one info line, and the results") {
    const Result r = box.run({"--format", "tsv", ex.query, ex.target});
    CHECK(r.status == 0);
    const auto lines = r.err_lines();
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], StartsWith("gpu-sw: info: "));
    CHECK_THAT(lines[0], Contains("CPU"));
    CHECK(tsv_rows(r.out).size() == ex.pairs);
  }
  SECTION("with --cpu or --quiet: nothing on stderr") {
    CHECK(box.run_cpu({ex.query, ex.target}).err.empty());
    const Result quiet = box.run({"--quiet", ex.query, ex.target});
    CHECK(quiet.status == 0);
    CHECK(quiet.err.empty());
  }
  SECTION("--device N that does not exist is an error") {
    check_bad_input(box.run({"--device", "99", ex.query, ex.target}), "--device");
  }
  SECTION("--device 0 on a machine without a GPU is an error") {
    check_bad_input(box.run({"--device", "0", ex.query, ex.target}), "--device 0");
  }
  SECTION("--cpu with --device is an error") {
    check_bad_input(box.run({"--cpu", "--device", "0", ex.query, ex.target}), "--device");
  }
}

TEST_CASE("gpu-sw: a --tune just before the files takes one key=value and leaves the files", "[cli]") {
  Sandbox box;
  const Example& ex = examples()[0];
  const Result plain = box.run_cpu({"--score-only", "--format", "tsv", ex.query, ex.target});
  const std::string out = box.path("tuned.tsv");
  const Result tuned =
      box.run_cpu({"--score-only", "--format", "tsv", "--tune", "lane_columns=8", ex.query, ex.target, "-o", out});
  INFO(tuned.err);
  REQUIRE(plain.status == 0);
  REQUIRE(tuned.status == 0);
  CHECK(read_text(out) == plain.out);
}

TEST_CASE("gpu-sw --tmpdir must name a directory", "[cli]") {
  Sandbox box;
  const Example& ex = examples()[0];
  const std::string file = box.write("not-a-dir", "x\n");
  check_bad_input(box.run_cpu({"--tmpdir", box.path("missing"), ex.query, ex.target}), "--tmpdir");
  check_bad_input(box.run_cpu({"--tmpdir", file, ex.query, ex.target}), "--tmpdir");
  REQUIRE(box.run_cpu({"--tmpdir", box.path("."), ex.query, ex.target}).status == 0);
}

TEST_CASE("gpu-sw --devices: refused with --cpu, with --device, and for a list it cannot read", "[cli][devices]") {
  Sandbox box;
  const std::string q = box.write("q.fa", fasta("q", "ACGTACGTAC"));
  const std::string t = box.write("t.fa", fasta("t", "ACGTACGTAC"));
  check_bad_input(box.run_cpu({"--devices", "0", q, t}), "--cpu and --devices cannot be used together");
  check_bad_input(box.run({"--devices", "0", "--device", "0", q, t}), "--device excludes --devices");
  // Without a GPU (CI) the list is refused for that; with one, for its item.
  const Result r = box.run({"--devices", "0,x", q, t});
  check_bad_input(r, "--devices 0,x: ");
}
