// End-to-end tests of gpu-sw's strands (--strand) and of its PAF output.
// Every run passes --cpu. Scores use the DNA defaults (match 2, mismatch -3,
// a gap of length k costs 5 + 2k); expectations are built here from how the
// inputs were made, and every CIGAR written is re-scored here from the
// letters (the query's reverse complement for a minus hit).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace {

using gdp::test::lines_of;
using gdp::test::split;

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string fasta(const std::string& id, const std::string& residues) { return ">" + id + "\n" + residues + "\n"; }

// Written here rather than taken from the tool's code.
std::string revcomp(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (char& c : r) c = c == 'A' ? 'T' : c == 'T' ? 'A' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'U' ? 'A' : c;
  return r;
}

std::string random_dna(std::mt19937& rng, std::size_t n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() % 4];
  return s;
}

// Substitutions, insertions and deletions at about one letter in `every`.
std::string mutated(std::mt19937& rng, const std::string& s, unsigned every) {
  std::string out;
  for (char c : s) {
    if (rng() % every != 0) {
      out += c;
      continue;
    }
    switch (rng() % 3) {
      case 0: out += "ACGT"[(std::string("ACGT").find(c) + 1 + rng() % 3) % 4]; break;
      case 1: out += c, out += "ACGT"[rng() % 4]; break;
      default: break;  // deleted
    }
  }
  return out;
}

// The DNA defaults' score of a CIGAR of =/X/I/D (and S, skipped) walking
// `query` from query_begin and `target` from target_begin (0-based);
// -1000000 where the CIGAR's = and X disagree with the letters.
int rescore(const std::string& cigar, const std::string& query, std::int64_t qi, const std::string& target,
            std::int64_t ti) {
  int score = 0;
  const std::regex op("([0-9]+)([=XIDS])");
  for (auto it = std::sregex_iterator(cigar.begin(), cigar.end(), op); it != std::sregex_iterator(); ++it) {
    const int n = std::stoi((*it)[1]);
    const char o = (*it)[2].str()[0];
    if (o == 'S') {
      qi += n;
    } else if (o == 'I' || o == 'D') {
      score -= 5 + 2 * n;
      (o == 'I' ? qi : ti) += n;
    } else {
      for (int k = 0; k < n; ++k, ++qi, ++ti) {
        const bool same = query.at(static_cast<std::size_t>(qi)) == target.at(static_cast<std::size_t>(ti));
        if (same != (o == '=')) return -1000000;
        score += same ? 2 : -3;
      }
    }
  }
  return score;
}

using Result = gdp::test::RunResult;

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("strands") {}
  Result run_cpu(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return gdp::test::run_program(GPU_SW_EXE, args, dir());
  }
  // The lines of a successful run.
  std::vector<std::string> lines(const std::vector<std::string>& args) const {
    const Result r = run_cpu(args);
    INFO("gpu-sw " << args.size() << " args; stderr: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    return lines_of(r.out);
  }
};

// A TSV row: query target score query_start query_end target_start target_end identity cigar strand.
struct Row {
  std::string query, target, cigar, strand;
  int score = 0;
  std::int64_t query_start = 0, target_start = 0;  // 1-based, 0 for '*'
};

std::vector<Row> tsv(const Sandbox& box, std::vector<std::string> args) {
  args.insert(args.begin(), {"--format", "tsv"});
  std::vector<Row> rows;
  for (const auto& l : box.lines(args)) {
    if (l.empty() || l[0] == '#') continue;
    const auto f = split(l, '\t');
    REQUIRE(f.size() == 10);
    rows.push_back({f[0], f[1], f[8], f[9], std::stoi(f[2]), f[3] == "*" ? 0 : std::stoll(f[3]),
                    f[5] == "*" ? 0 : std::stoll(f[5])});
  }
  return rows;
}

// "target strand score" of each row.
std::vector<std::string> summary(const std::vector<Row>& rows) {
  std::vector<std::string> s;
  for (const Row& r : rows) s.push_back(r.target + " " + r.strand + " " + std::to_string(r.score));
  return s;
}

// Every row's CIGAR re-scores to its score on the strand it names.
void check_rescored(const std::vector<Row>& rows, const std::map<std::string, std::string>& queries,
                    const std::map<std::string, std::string>& targets) {
  for (const Row& r : rows) {
    if (r.cigar == "*") continue;
    INFO(r.query << " " << r.target << " " << r.strand << " " << r.cigar);
    const std::string& q = queries.at(r.query);
    CHECK(rescore(r.cigar, r.strand == "-" ? revcomp(q) : q, r.query_start - 1, targets.at(r.target),
                  r.target_start - 1) == r.score);
  }
}

// Exit status 2, nothing on stdout, one line "gpu-sw: error: ..." naming `mentions`.
void check_bad_usage(const Result& r, const std::string& mentions) {
  gdp::test::check_error_line(r, "gpu-sw", mentions);
}

// The reads example: a 60-letter read of a 400-letter target, with a few
// edits, as given ("fwd") and reverse complemented ("rev").
struct Reads {
  std::string target, other, fwd, rev;
  std::string target_path, query_path;
};
Reads write_reads(const Sandbox& box) {
  std::mt19937 rng(21);
  Reads r;
  r.target = random_dna(rng, 400);
  r.fwd = mutated(rng, r.target.substr(150, 60), 15);
  r.rev = revcomp(r.fwd);
  r.other = random_dna(rng, 300);
  r.target_path = box.write("t.fa", fasta("chr", r.target) + fasta("other", r.other));
  r.query_path = box.write("q.fa", fasta("fwd", r.fwd) + fasta("rev", r.rev));
  return r;
}

bool has_samtools() { return std::system("samtools --version >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("gpu-sw: a reverse-complemented read scores on the minus strand as its forward copy on the plus", "[cli][strand]") {
  Sandbox box;
  const Reads reads = write_reads(box);
  const std::map<std::string, std::string> queries{{"fwd", reads.fwd}, {"rev", reads.rev}};
  const std::map<std::string, std::string> targets{{"chr", reads.target}, {"other", reads.other}};

  const std::vector<Row> both = tsv(box, {"--top", "1", reads.query_path, reads.target_path});
  REQUIRE(both.size() == 2);
  const Row& fwd = both[0];
  const Row& rev = both[1];
  CHECK(fwd.query == "fwd");
  CHECK(fwd.target == "chr");
  CHECK(fwd.strand == "+");
  CHECK(fwd.score > 80);  // about 60 letters with a few edits
  CHECK(rev.query == "rev");
  CHECK(rev.target == "chr");
  CHECK(rev.strand == "-");
  CHECK(rev.score == fwd.score);
  // The reverse complement of "rev" is "fwd": the same alignment.
  CHECK(rev.target_start == fwd.target_start);
  CHECK(rev.query_start == fwd.query_start);
  CHECK(rev.cigar == fwd.cigar);
  check_rescored(both, queries, targets);

  SECTION("--strand plus loses it, --strand minus finds only it") {
    const std::vector<Row> plus = tsv(box, {"--strand", "plus", reads.query_path, reads.target_path});
    REQUIRE(plus.size() == 4);
    for (const Row& r : plus) CHECK(r.strand == "+");
    CHECK(plus[0].score == fwd.score);                 // fwd on chr
    CHECK(plus[2].query == "rev");
    CHECK(plus[2].score < fwd.score / 3);              // rev on chr: chance matches only
    const std::vector<Row> minus = tsv(box, {"--strand", "minus", reads.query_path, reads.target_path});
    REQUIRE(minus.size() == 4);
    for (const Row& r : minus) CHECK(r.strand == "-");
    CHECK(minus[2].score == fwd.score);
    CHECK(minus[0].score < fwd.score / 3);
    check_rescored(plus, queries, targets);
    check_rescored(minus, queries, targets);
  }

  SECTION("without --top, every target in order, plus then minus for each") {
    const std::vector<Row> all = tsv(box, {reads.query_path, reads.target_path});
    std::vector<std::string> order;
    for (const Row& r : all) order.push_back(r.query + " " + r.target + " " + r.strand);
    CHECK(order == std::vector<std::string>{"fwd chr +", "fwd chr -", "fwd other +", "fwd other -", "rev chr +",
                                            "rev chr -", "rev other +", "rev other -"});
    CHECK(all[0].score == fwd.score);
    CHECK(all[5].score == fwd.score);
  }

  SECTION("SAM: flag 16, SEQ the read on the target's strand, the CIGAR of the forward copy") {
    std::map<std::string, std::vector<std::string>> records;
    for (const auto& l : box.lines({"--format", "sam", "--top", "1", reads.query_path, reads.target_path}))
      if (l[0] != '@') records[split(l, '\t')[0]] = split(l, '\t');
    REQUIRE(records.size() == 2);
    CHECK(records["fwd"][1] == "0");
    CHECK(records["rev"][1] == "16");
    CHECK(records["rev"][3] == records["fwd"][3]);  // POS
    CHECK(records["rev"][5] == records["fwd"][5]);  // CIGAR, soft clips included
    CHECK(records["rev"][9] == reads.fwd);          // SEQ
  }
}

TEST_CASE("gpu-sw --top over both strands: score, then target order, then plus before minus", "[cli][strand]") {
  Sandbox box;
  // ACGTACGT is its own reverse complement: each strand scores 16 on t1 and t2.
  const std::string pal = box.write("pal.fa", fasta("pal", "ACGTACGT"));
  const std::string q = box.write("q.fa", fasta("q", "GATTACAGATTACA"));
  const std::string t = box.write("t.fa", fasta("t1", "ACGTACGT") + fasta("t2", "CCACGTACGTCC") + fasta("t3", "GGGG") +
                                              fasta("t4", "GATTACAGAGTACA") + fasta("t5", "TGTAATCTGTAATC"));
  for (const char* threads : {"1", "2"}) DYNAMIC_SECTION("--threads " << threads) {
    CHECK(summary(tsv(box, {"--threads", threads, "--top", "1", pal, t})) == std::vector<std::string>{"t1 + 16"});
    CHECK(summary(tsv(box, {"--threads", threads, "--top", "3", pal, t})) ==
          std::vector<std::string>{"t1 + 16", "t1 - 16", "t2 + 16"});
    CHECK(summary(tsv(box, {"--threads", threads, "--top", "4", pal, t})) ==
          std::vector<std::string>{"t1 + 16", "t1 - 16", "t2 + 16", "t2 - 16"});
    // t5 is q's reverse complement (28), t4 q with one mismatch (23): the
    // minus hit on a later target comes first.
    CHECK(summary(tsv(box, {"--threads", threads, "--top", "2", q, t})) ==
          std::vector<std::string>{"t5 - 28", "t4 + 23"});
  }
  SECTION("SAM: the best over both strands is the one primary record") {
    std::vector<std::string> flags;
    for (const auto& l : box.lines({"--format", "sam", "--top", "2", q, t}))
      if (l[0] != '@') flags.push_back(split(l, '\t')[1] + " " + split(l, '\t')[2]);
    CHECK(flags == std::vector<std::string>{"16 t5", "256 t4"});
  }
}

TEST_CASE("gpu-sw --strand: protein searches plus only; bad values are usage errors", "[cli][strand]") {
  Sandbox box;
  const std::string pq = box.write("p.fa", fasta("p", "MVLSPADKTNVKAAW")), pt = box.write("pt.fa", fasta("pt", "MVLSGEDKSNIKAAW"));
  const std::vector<Row> rows = tsv(box, {pq, pt});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].strand == "+");
  CHECK(tsv(box, {"--strand", "plus", pq, pt}).size() == 1);
  check_bad_usage(box.run_cpu({"--strand", "minus", pq, pt}), "--strand minus");
  check_bad_usage(box.run_cpu({"--strand", "both", pq, pt}), "protein");
  const std::string dq = box.write("d.fa", fasta("d", "ACGTACGT"));
  check_bad_usage(box.run_cpu({"--strand", "reverse", dq, dq}), "unknown strand 'reverse' (use both, plus or minus)");
  // The name is checked before the inputs are read.
  check_bad_usage(box.run_cpu({"--strand", "reverse", box.path("missing.fa"), dq}), "strand");
}

TEST_CASE("gpu-sw minus strand of RNA complements A to U, and IUPAC codes to theirs", "[cli][strand]") {
  Sandbox box;
  const std::string rna = "GGCAUCUUACGAUCCGA";
  std::string rc = revcomp(rna);
  std::replace(rc.begin(), rc.end(), 'T', 'U');
  const std::string q = box.write("q.fa", fasta("r", rna)), t = box.write("t.fa", fasta("t", "CCCC" + rc + "CCCC"));
  std::vector<std::string> sam;
  for (const auto& l : box.lines({"--format", "sam", "--strand", "minus", q, t}))
    if (l[0] != '@') sam = split(l, '\t');
  REQUIRE(sam.size() >= 11);
  CHECK(sam[1] == "16");
  CHECK(sam[9] == rc);  // U, not T
  CHECK(sam[5] == std::to_string(rna.size()) + "=");
  // IUPAC: R-Y, K-M, B-V, D-H, S, W and N themselves (EDNAFULL scores them).
  const std::string iupac = box.write("i.fa", fasta("i", "ACGTRYKMBVDHSWN"));
  for (const auto& l :
       box.lines({"--format", "sam", "--strand", "minus", "--alphabet", "dna", "--matrix", "EDNAFULL", iupac, iupac}))
    if (l[0] != '@') sam = split(l, '\t');
  CHECK(sam[9] == "NWSDHBVKMRYACGT");
}

TEST_CASE("gpu-sw --format paf: minimap2's columns for plus and minus hits", "[cli][paf]") {
  Sandbox box;
  // The target is C10 M C10; the query is T5, then the reverse complement of
  // M', then T9, where M' is M with M[10] substituted and M[20] deleted. The
  // query's reverse complement A9 M' A5 aligns M' on M: 10=1X9=1D9=, 28
  // matches, one mismatch, one gap of 1: 56 - 3 - 7 = 46; on the query as
  // given M' lies at [5, 34) of 43.
  const std::string m = "TGCGGTCAATCTTGTCGCGGCTGATGAATT";
  const std::string m_edited = m.substr(0, 10) + "G" + m.substr(11, 9) + m.substr(21);
  const std::string read = "TTTTT" + revcomp(m_edited) + "TTTTTTTTT";
  const std::string target = std::string(10, 'C') + m + std::string(10, 'C');
  const std::string q = box.write("q.fa", fasta("read", read));
  const std::string t = box.write("t.fa", fasta("ref", target));
  const auto lines = box.lines({"--format", "paf", q, t});
  std::vector<std::string> minus;
  for (const auto& l : lines) {
    const auto f = split(l, '\t');
    REQUIRE(f.size() == 16);
    if (f[4] == "-") minus = f;
    else CHECK(f[12] == "tp:A:S");  // a weaker chance hit of the plus strand
  }
  CHECK(minus == std::vector<std::string>{"read", "43", "5", "34", "-", "ref", "50", "10", "40", "28", "30", "255",
                                          "tp:A:P", "NM:i:2", "AS:i:46", "cg:Z:10=1X9=1D9="});
  SECTION("SAM of the same hit: flag 16, clips on the reverse complement, SEQ reverse complemented") {
    for (const auto& l : box.lines({"--format", "sam", "--top", "1", q, t})) {
      const auto f = split(l, '\t');
      if (f[0] != "read") continue;
      CHECK(f[1] == "16");
      CHECK(f[3] == "11");
      CHECK(f[5] == "9S10=1X9=1D9=5S");
      CHECK(f[9] == revcomp(read));
    }
  }
  SECTION("plus hits keep the query's own coordinates") {
    const std::string fwd = box.write("fwd.fa", fasta("fwd", revcomp(read)));
    const auto plus = box.lines({"--format", "paf", "--top", "1", fwd, t});
    REQUIRE(plus.size() == 1);
    CHECK(plus[0] == "fwd\t43\t9\t38\t+\tref\t50\t10\t40\t28\t30\t255\ttp:A:P\tNM:i:2\tAS:i:46\tcg:Z:10=1X9=1D9=");
  }
  SECTION("a query with nothing to align locally on either strand writes no line") {
    const std::string a = box.write("a.fa", fasta("a", "AAAA")), c = box.write("c.fa", fasta("c", "CCCC"));
    CHECK(box.lines({"--format", "paf", a, c}).empty());
    // SAM writes it unmapped, once; under --strand minus as the reverse complement (4 + 16).
    std::vector<std::string> records;
    for (const auto& l : box.lines({"--format", "sam", a, c}))
      if (l[0] != '@') records.push_back(split(l, '\t')[1] + " " + split(l, '\t')[9]);
    for (const auto& l : box.lines({"--format", "sam", "--strand", "minus", a, c}))
      if (l[0] != '@') records.push_back(split(l, '\t')[1] + " " + split(l, '\t')[9]);
    CHECK(records == std::vector<std::string>{"4 AAAA", "20 TTTT"});
  }
  SECTION("--score-only is refused: PAF needs an alignment") {
    check_bad_usage(box.run_cpu({"--format", "paf", "--score-only", q, t}), "--score-only");
  }
}

TEST_CASE("gpu-sw SAM of both strands passes samtools quickcheck, and calmd agrees on NM", "[cli][strand][samtools]") {
  if (!has_samtools()) {
    WARN("SKIPPED: no samtools on this machine (scripts/setup.sh installs it); SAM not checked by it");
    return;
  }
  Sandbox box;
  std::mt19937 rng(5);
  const std::string t1 = random_dna(rng, 600), t2 = random_dna(rng, 500);
  std::string reads, fastq;
  for (int k = 0; k < 12; ++k) {
    const std::string& t = k % 2 ? t2 : t1;
    const std::size_t at = rng() % (t.size() - 80);
    std::string read = mutated(rng, t.substr(at, 40 + rng() % 40), 12);
    if (k % 3 != 0) read = revcomp(read);
    reads += fasta("r" + std::to_string(k), read);
    fastq += "@r" + std::to_string(k) + "\n" + read + "\n+\n" + std::string(read.size(), static_cast<char>('!' + k)) + "\n";
  }
  reads += fasta("nothing", "AAAAAA");
  const std::string ref = box.write("ref.fa", fasta("t1", t1) + fasta("t2", t2));
  for (const char* input : {"fa", "fq"}) DYNAMIC_SECTION("queries in " << input) {
    const std::string q = box.write(std::string("q.") + input, std::string(input) == "fa" ? reads : fastq);
    for (const char* mode : {"local", "semiglobal", "global"}) DYNAMIC_SECTION("--mode " << mode) {
      const std::string sam = box.path("out.sam");
      REQUIRE(box.run_cpu({"--format", "sam", "--mode", mode, "-o", sam, q, ref}).status == 0);
      const auto check = gdp::test::run_program("samtools", {"quickcheck", "-v", sam}, box.dir());
      INFO(check.out << check.err);
      CHECK(check.status == 0);
      const auto calmd = gdp::test::run_program("samtools", {"calmd", sam, ref}, box.dir());
      INFO(calmd.err);
      REQUIRE(calmd.status == 0);
      const auto nm_of = [](const std::string& text) {
        std::vector<std::string> nm;
        const std::regex tag("\tNM:i:([0-9]+)");
        for (const auto& l : lines_of(text)) {
          if (l.empty() || l[0] == '@') continue;
          std::smatch mm;
          nm.push_back(std::regex_search(l, mm, tag) ? mm[1].str() : "none");
        }
        return nm;
      };
      const auto ours = nm_of(box.read("out.sam")), theirs = nm_of(calmd.out);
      REQUIRE(ours.size() == theirs.size());
      CHECK(ours.size() > 12);
      CHECK(ours == theirs);
      std::size_t reverse = 0;
      for (const auto& l : lines_of(box.read("out.sam")))
        if (l[0] != '@') reverse += (std::stoi(split(l, '\t')[1]) & 16) != 0;
      CHECK(reverse >= 8);
    }
  }
}
