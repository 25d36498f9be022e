// End-to-end tests of gpu-align3: the real binary through the shell, in a
// fresh temporary directory, with --cpu so that no message depends on the
// machine's GPUs.
//
// The trio, worked out by hand with the DNA defaults (match 2, mismatch
// -3, a letter against a gap -4, two gaps 0): a = ACGTACGTAC, b =
// ACGTTCGTAC (a with its fifth letter A -> T), c = ACGACGTAC (a without its
// fourth letter T). Aligned as
//   a ACGTACGTAC
//   b ACGTTCGTAC
//   c ACG-ACGTAC
// a,b: 9 matches, 1 mismatch = 15; a,c: 9 matches, T against a gap = 14;
// b,c: 8 matches, T against a gap, T against A = 9. Sum: 38. Any other
// place for c's gap turns a match of c into a mismatch and costs more.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "align3/align3.hpp"
#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using gdp::test::lines_of;
using gdp::test::split;

const std::string A = "ACGTACGTAC", B = "ACGTTCGTAC", C = "ACGACGTAC";

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("align3") {
    trio = write("trio.fa", ">a first\n" + A + "\n>b\n" + B + "\n>c\n" + C + "\n");
    a = write("a.fa", ">a first\n" + A + "\n");
    b = write("b.fa", ">b\n" + B + "\n");
    c = write("c.fa", ">c\n" + C + "\n");
  }
  std::string trio, a, b, c;

  gdp::test::RunResult run(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") const {
    return gdp::test::run_program(GPU_ALIGN3_EXE, args, dir(), stdin_path);
  }
  gdp::test::RunResult run_cpu(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return run(args);
  }
  // The trio file with `extra` options; must succeed quietly.
  std::string output(std::vector<std::string> extra) const {
    extra.push_back(trio);
    const auto r = run_cpu(extra);
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    return r.out;
  }
};

// Exit status 2 (a bad input; 1: a run error), nothing on stdout, one line
// on stderr naming the problem.
void check_bad_input(const gdp::test::RunResult& r, const std::string& mentions, int status = 2) {
  gdp::test::check_error_line(r, "gpu-align3", mentions, status);
}

}  // namespace

TEST_CASE("gpu-align3 FASTA (the default): the three rows worked by hand", "[cli][align3]") {
  Sandbox box;
  CHECK(box.output({}) == ">a first\nACGTACGTAC\n>b\nACGTTCGTAC\n>c\nACG-ACGTAC\n");
}

TEST_CASE("gpu-align3 Clustal: header, rows with counts, conservation line", "[cli][align3]") {
  Sandbox box;
  const auto lines = lines_of(box.output({"--format", "clustal"}));
  REQUIRE(lines.size() == 7);
  CHECK_THAT(lines[0], StartsWith("CLUSTAL multiple sequence alignment by gpu-align3 "));
  CHECK(lines[1].empty());
  CHECK(lines[2].empty());
  CHECK(lines[3] == "a      ACGTACGTAC 10");
  CHECK(lines[4] == "b      ACGTTCGTAC 10");
  CHECK(lines[5] == "c      ACG-ACGTAC 9");
  CHECK(lines[6] == "       ***  *****");
}

TEST_CASE("gpu-align3 Clustal and FASTA break long rows every 60 columns", "[cli][align3]") {
  Sandbox box;
  std::string x;
  for (int k = 0; k < 130; ++k) x += "ACGT"[(k * 7 + k / 3) % 4];
  const std::string f = box.write("long.fa", ">x\n" + x + "\n>y\n" + x + "\n>z\n" + x + "\n");
  const auto r = box.run_cpu({f});
  REQUIRE(r.status == 0);
  const auto fa = lines_of(r.out);
  REQUIRE(fa.size() == 12);  // a header and lines of 60, 60 and 10 columns a record
  CHECK(fa[1] == x.substr(0, 60));
  CHECK(fa[3] == x.substr(120));
  const auto cl = lines_of(box.run_cpu({"--format", "clustal", f}).out);
  REQUIRE(cl.size() == 3 + 4 + 1 + 4 + 1 + 4);  // header, three blocks of four lines, blank lines between
  CHECK(cl[3] == "x      " + x.substr(0, 60) + " 60");
  CHECK(cl[8] == "x      " + x.substr(60, 60) + " 120");
  CHECK(cl[13] == "x      " + x.substr(120) + " 130");
  CHECK(cl[16] == "       " + std::string(10, '*'));
}

TEST_CASE("gpu-align3 TSV and JSON: the score and the columns; --score-only the score", "[cli][align3]") {
  Sandbox box;
  CHECK(box.output({"--format", "tsv"}) == "#a\tb\tc\tlength\tscore\na\tb\tc\t10\t38\n");
  CHECK(box.output({"--format", "tsv", "--score-only"}) == "#a\tb\tc\tlength\tscore\na\tb\tc\t-\t38\n");
  const std::string json = box.output({"--format", "json"});
  CHECK_THAT(json, StartsWith("{\"score\":38,\"gap\":4,"));
  CHECK_THAT(json, Contains("\"ids\":[\"a\",\"b\",\"c\"]"));
  CHECK_THAT(json, Contains("\"sequence_lengths\":[10,10,9]"));
  CHECK_THAT(json, Contains("\"length\":10,\"rows\":[\"ACGTACGTAC\",\"ACGTTCGTAC\",\"ACG-ACGTAC\"]"));
  CHECK_THAT(box.output({"--format", "json", "--score-only"}), Contains("\"length\":null,\"rows\":null"));
}

TEST_CASE("gpu-align3 --gap and the substitution flags change the score as worked out", "[cli][align3]") {
  Sandbox box;
  // A gap of 1 makes two gaps cheaper than a mismatch: b's T and a's A in
  // columns of their own (c's A under a's), 11 columns,
  //   a ACGTA-CGTAC   a,b: 9 matches, 2 gaps = 16
  //   b ACGT-TCGTAC   a,c: 9 matches, 1 gap  = 17
  //   c ACG-A-CGTAC   b,c: 8 matches, 3 gaps = 13; 46 (and a tie, b's T and a's A swapped).
  CHECK(box.output({"--format", "tsv", "--gap", "1"}) == "#a\tb\tc\tlength\tscore\na\tb\tc\t11\t46\n");
  // Match 1, mismatch -1, gap 4, the same alignment: 8 + 5 + 3 = 16.
  CHECK(box.output({"--format", "tsv", "--match", "1", "--mismatch", "-1"}) ==
        "#a\tb\tc\tlength\tscore\na\tb\tc\t10\t16\n");
}

TEST_CASE("gpu-align3 reads three files, FASTQ, gzip and standard input alike", "[cli][align3]") {
  Sandbox box;
  const std::string want = box.output({"--format", "tsv"});
  CHECK(box.run_cpu({"--format", "tsv", box.a, box.b, box.c}).out == want);
  const std::string fq = box.write("b.fq", "@b\n" + B + "\n+\n" + std::string(B.size(), 'I') + "\n");
  CHECK(box.run_cpu({"--format", "tsv", box.a, fq, box.c}).out == want);
  const std::string gzip = "gzip -c " + gdp::test::shell_quote(box.trio) + " > " + gdp::test::shell_quote(box.trio + ".gz");
  REQUIRE(std::system(gzip.c_str()) == 0);
  CHECK(box.run_cpu({"--format", "tsv", box.trio + ".gz"}).out == want);
  CHECK(box.run({"--cpu", "--format", "tsv", "-"}, box.trio).out == want);
  CHECK(box.run({"--cpu", "--format", "tsv", box.a, "-", box.c}, box.b).out == want);
}

TEST_CASE("gpu-align3: one thread and many give the same alignment", "[cli][align3]") {
  Sandbox box;
  std::string x, y, z;
  for (int k = 0; k < 90; ++k) {
    x += "ACGT"[(k * 5 + k / 7) % 4];
    if (k % 11 != 3) y += "ACGT"[(k * 5 + k / 7 + (k % 13 == 0)) % 4];
    if (k % 17 != 5) z += "ACGT"[(k * 5 + k / 7 + (k % 9 == 0)) % 4];
  }
  const std::string f = box.write("t.fa", ">x\n" + x + "\n>y\n" + y + "\n>z\n" + z + "\n");
  const auto one = box.run_cpu({"--threads", "1", "--format", "json", f});
  const auto many = box.run_cpu({"--threads", "4", "--format", "json", f});
  REQUIRE(one.status == 0);
  CHECK(one.out == many.out);
}

TEST_CASE("gpu-align3 output files and the timing report", "[cli][align3]") {
  Sandbox box;
  const std::string out = box.path("out.fa"), report = box.path("report.json");
  SECTION("-o FILE and --report FILE") {
    const auto r = box.run_cpu({"-o", out, "--report", report, box.trio});
    REQUIRE(r.status == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
    CHECK(gdp::test::read_text(out) == box.output({}));
    CHECK(box.files_starting_with("out.fa.tmp").empty());
    const std::string json = gdp::test::read_text(report);
    CHECK_THAT(json, Contains("\"tool\": \"gpu-align3\""));
    CHECK_THAT(json, Contains("\"backend\": \"cpu-"));
    CHECK_THAT(json, Contains("\"c_residues\""));
  }
  SECTION("bad input leaves neither the output nor a temporary behind") {
    const std::string bad = box.write("bad.fa", ">a\nAC1T\n>b\nACGT\n>c\nACGT\n");
    check_bad_input(box.run_cpu({"-o", out, bad}), "bad.fa:2: ");
    CHECK(!fs::exists(out));
    CHECK(box.files_starting_with("out.fa.tmp").empty());
  }
}

TEST_CASE("gpu-align3 rejects bad input with one line and exit status 2", "[cli][align3]") {
  Sandbox box;
  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::string mentions;
  };
  fs::create_directory(box.path("dir"));
  const std::string empty = box.write("empty.fa", "");
  const std::string junk = box.write("junk.bin", std::string("\x00\x01\x02\xff\xfe\x89PNG\r\n\x1a\n\x00", 13));
  const std::string two = box.write("two.fa", ">a\nACGT\n>b\nACGT\n");
  const std::string dna_e = box.write("e.fa", ">a\nACGT\n>b\nACGE\n>c\nACGT\n");
  const std::string prot_j = box.write("j.fa", ">p\nMVLSPADK\n>q\nGAHJAGEY\n>r\nMVLS\n");
  const std::vector<Case> cases = {
      {"a missing file", {box.path("missing.fa")}, box.path("missing.fa") + ": cannot open"},
      {"an empty file", {empty}, empty + ": empty file"},
      {"a directory", {box.path("dir")}, box.path("dir") + ": cannot read: is a directory"},
      {"binary junk", {junk}, junk + ":1: not FASTA or FASTQ"},
      {"one file of two records", {two}, "found 2 records"},
      {"an empty record", {box.write("e3.fa", ">a\n>b\nACGT\n>c\nACGT\n")}, "e3.fa:1: record 'a' has no sequence"},
      {"two files", {box.a, box.b}, "not 2 files"},
      {"three files, one of two records", {box.a, two, box.c}, two + " has 2 records"},
      {"a protein letter in DNA", {"--alphabet", "dna", dna_e}, dna_e + ":4: letter 'E'"},
      {"a letter outside BLOSUM62", {prot_j}, prot_j + ":4: letter 'J'"},
      {"a negative --gap", {"--gap", "-1", box.trio}, "--gap must be 0 to"},
      {"a --gap too large", {"--gap", "5000", box.trio}, "--gap must be 0 to"},
      {"--score-only with fasta", {"--score-only", box.trio}, "--format fasta needs an alignment"},
      {"--score-only with clustal", {"--score-only", "--format", "clustal", box.trio}, "--format clustal needs an alignment"},
      {"an unknown --format", {"--format", "msf", box.trio}, "unknown format 'msf'"},
      {"--match with protein", {"--match", "3", prot_j}, "--match"},
      {"standard input twice", {"-", "-", box.c}, "standard input"},
      {"no input", {}, "inputs"},
      {"--devices with --cpu", {"--devices", "0", box.trio}, "--cpu and --devices cannot be used together"},
  };
  for (const Case& c : cases) DYNAMIC_SECTION(c.name) { check_bad_input(box.run_cpu(c.args), c.mentions); }
}

TEST_CASE("gpu-align3 refuses, before it starts, sequences too large for the memory", "[cli][align3]") {
  Sandbox box;
  // Three of 300,000 letters: hundreds of GB for the score or an alignment on any machine.
  std::string x;
  x.reserve(300000);
  for (int k = 0; k < 300000; ++k) x += "ACGT"[(k * 7 + k / 5) % 4];
  const std::string f = box.write("big.fa", ">x\n" + x + "\n>y\n" + x + "\n>z\n" + x + "\n");
  // A run error (status 1): the input is good, the machine too small.
  const std::string sizes = "sequences of 300000, 300000 and 300000 letters need about ";
  for (const auto& [flags, what] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--format", "tsv", f}, "for an alignment"}, {{"--format", "tsv", "--score-only", f}, "for the score"}}) {
    const auto r = box.run_cpu(flags);
    for (const std::string& mentions : {sizes, what, std::string("letters each would fit")})
      check_bad_input(r, mentions, 1);
  }
}

TEST_CASE("gpu-align3 --help and --version", "[cli][align3]") {
  Sandbox box;
  const auto help = box.run({"--help"});
  CHECK(help.status == 0);
  CHECK(help.err.empty());
  CHECK_THAT(help.out, Contains("Examples:"));
  CHECK_THAT(help.out, Contains("gap " + std::to_string(gdp::align3::default_gap_nucleotide)));
  CHECK_THAT(help.out, Contains("gap " + std::to_string(gdp::align3::default_gap_protein)));
  for (const char* option : {"--gap", "--score-only", "--format", "--matrix", "--match", "--mismatch", "--alphabet",
                             "--cpu", "--threads", "--output", "--report"})
    CHECK_THAT(help.out, Contains(option));
  const auto version = box.run({"--version"});
  CHECK(version.status == 0);
  CHECK(std::regex_search(version.out, std::regex("^gpu-align3 [0-9]+\\.[0-9]+\\.[0-9]+ \\(")));
}

TEST_CASE("gpu-align3 without a GPU says so once and runs on the CPU", "[cli][align3]") {
  Sandbox box;
  if (fs::exists("/dev/nvidia0")) {
    WARN("this machine has a GPU; the no-GPU behaviour is not checked");
    return;
  }
  const auto r = box.run({"--format", "tsv", box.trio});
  CHECK(r.status == 0);
  const auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], StartsWith("gpu-align3: info: "));
  CHECK_THAT(lines[0], Contains("CPU"));
  CHECK(r.out == "#a\tb\tc\tlength\tscore\na\tb\tc\t10\t38\n");
}

TEST_CASE("gpu-align3 Clustal: Biopython's AlignIO reads it back", "[cli][align3]") {
  Sandbox box;
  if (std::system("/usr/bin/python3 -c 'import Bio' 2>/dev/null") != 0) {
    WARN("no Biopython for /usr/bin/python3 (scripts/setup.sh installs it); not checked");
    return;
  }
  const std::string prot = box.write("p3.fa",
                                     ">p1\nMKVLAAGIVSTWEQRRDEKLLMNPQSTVVAAGHIKLLEDAMSTRWPQ\n"
                                     ">p2\nMKVLSAGIVTTWERRDEKLMNPQSTAVAGHIKLMEDAMSSRWPQ\n"
                                     ">p3\nMRVLAGIVSSWEQRKDEKLLNPHSTVAAGHIRLLEDSMSTRYWPQAAKLLMNPQSTVVAAGHIK\n");
  const std::string aln = box.path("p3.aln"), fa = box.path("p3.fasta");
  REQUIRE(box.run_cpu({"--format", "clustal", "-o", aln, prot}).status == 0);
  REQUIRE(box.run_cpu({"-o", fa, prot}).status == 0);
  // Biopython's rows, ids and conservation line against the FASTA rows and the marks written.
  const std::string script = box.write("read.py",
                                       "import sys\n"
                                       "from Bio import AlignIO\n"
                                       "a = AlignIO.read(sys.argv[1], 'clustal')\n"
                                       "f = AlignIO.read(sys.argv[2], 'fasta')\n"
                                       "assert [r.id for r in a] == ['p1', 'p2', 'p3'], [r.id for r in a]\n"
                                       "assert [str(r.seq) for r in a] == [str(r.seq) for r in f]\n"
                                       "assert len(a.column_annotations['clustal_consensus']) == a.get_alignment_length()\n"
                                       "print(a.get_alignment_length())\n");
  const auto r = gdp::test::run_program("/usr/bin/python3", {script, aln, fa}, box.dir());
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(std::stoi(r.out) > 60);  // two blocks
}
