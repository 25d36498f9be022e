// End-to-end tests of gpu-sw's BLAST tabular output (--format blast6) and
// --evalue; and, where NCBI BLAST+ is installed (Debian's ncbi-blast+),
// its E-values and bit scores against blastp's and blastn's on the hits
// both report with the same coordinates.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_checks.hpp"
#include "cli_run.hpp"
#include "random_letters.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using gdp::test::have_program;
using gdp::test::Letters;
using gdp::test::lines_of;
using gdp::test::split;

const std::string data_dir = GPUDP_DATA_DIR;

struct Box : gdp::test::TempDir {
  Box() : TempDir("blast6") {}
  gdp::test::RunResult sw(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return gdp::test::run_program(GPU_SW_EXE, args, dir());
  }
};

void check_usage_error(const gdp::test::RunResult& r, const std::string& mentions) {
  gdp::test::check_error_line(r, "gpu-sw", mentions);
}

}  // namespace

TEST_CASE("blast6 on the protein example: blastp's hit, E-value and bit score", "[cli]") {
  // blastp 2.12 -comp_based_stats 0 -seg no -outfmt 6 on these files (score 285):
  // HBA_HUMAN HBB_HUMAN 42.069 145 76 2 3 141 4 146 2.54e-38 114
  // gpu-sw finds the same score and ends by another path of 145 columns
  // (43.448% identical, 74 mismatches, 3 gap openings); the columns that
  // depend on the path are checked against each other.
  Box box;
  const auto r = box.sw({"--format", "blast6", data_dir + "/protein_query.fa", data_dir + "/protein_target.fa"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 1);
  const auto c = split(lines[0], '\t');
  REQUIRE(c.size() == 12);
  CHECK(std::vector<std::string>{c[0], c[1], c[3], c[6], c[7], c[8], c[9], c[10], c[11]} ==
        std::vector<std::string>{"HBA_HUMAN", "HBB_HUMAN", "145", "3", "141", "4", "146", "2.54e-38", "114"});
  // Aligned pairs = length - gap letters; the gap letters are the length
  // minus each side's span plus the other's: (145 - 139) + (145 - 143) = 8.
  const int identical = static_cast<int>(std::lround(std::stod(c[2]) * 145 / 100));
  CHECK(identical + std::stoi(c[4]) == 145 - 8);
}

TEST_CASE("blast6 on the DNA example: the read's hit, E-value and bit score as blastn prints them", "[cli]") {
  // blastn 2.12 -task blastn -dust no: read1 chr_demo ... 1 270 151 420 1.90e-99 346
  // (score 383; its gapped alignment may differ from ours in equally good columns).
  Box box;
  const auto r = box.sw({"--format", "blast6", data_dir + "/dna_query.fa", data_dir + "/dna_target.fa"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  const auto lines = lines_of(r.out);
  REQUIRE(!lines.empty());
  const auto c = split(lines[0], '\t');
  REQUIRE(c.size() == 12);
  CHECK(c[0] == "read1");
  CHECK(c[1] == "chr_demo");
  CHECK(std::vector<std::string>(c.begin() + 6, c.end()) ==
        std::vector<std::string>{"1", "270", "151", "420", "1.90e-99", "346"});
  for (const auto& l : lines) CHECK(split(l, '\t').size() == 12);
}

TEST_CASE("blast6 and --evalue refuse what they cannot do", "[cli]") {
  Box box;
  const std::string q = data_dir + "/dna_query.fa", t = data_dir + "/dna_target.fa";
  check_usage_error(box.sw({"--format", "blast6", "--score-only", q, t}), "blast6 needs an alignment");
  check_usage_error(box.sw({"--format", "blast6", "--mode", "global", q, t}), "--mode local");
  check_usage_error(box.sw({"--evalue", "1", "--mode", "semiglobal", "--format", "tsv", q, t}), "--mode local");
  check_usage_error(box.sw({"--match", "-1", "--evalue", "1", "--format", "tsv", q, t}), "E-values need");
  const auto negative = box.sw({"--evalue", "-1", q, t});
  CHECK(negative.status == 2);
}

TEST_CASE("gpu-sw --evalue keeps hits up to E, after --top; blast6 keeps E <= 10 by default", "[cli]") {
  Box box;
  const std::string q = data_dir + "/protein_query.fa", t = data_dir + "/protein_target.fa";
  CHECK(lines_of(box.sw({"--format", "blast6", "--evalue", "1e-38", q, t}).out).empty());
  CHECK(lines_of(box.sw({"--format", "blast6", "--evalue", "1e-37", q, t}).out).size() == 1);
  // Other formats filter too, and write nothing else differently.
  const auto tsv = box.sw({"--format", "tsv", "--evalue", "1e-38", q, t});
  CHECK(tsv.status == 0);
  CHECK(lines_of(tsv.out).size() == 1);  // the header only

  // Unrelated random sequences: every hit of blast6's default has E <= 10,
  // and --evalue 1e9 shows the others.
  Letters rnd{42};
  std::string queries, targets;
  for (int i = 0; i < 3; ++i) queries += ">q" + std::to_string(i) + "\n" + rnd.random("ACDEFGHIKLMNPQRSTVWY", 60) + "\n";
  for (int i = 0; i < 30; ++i) targets += ">t" + std::to_string(i) + "\n" + rnd.random("ACDEFGHIKLMNPQRSTVWY", 200) + "\n";
  const std::string qf = box.write("rq.fa", queries), tf = box.write("rt.fa", targets);
  const auto fewer = lines_of(box.sw({"--format", "blast6", qf, tf}).out);
  const auto all = lines_of(box.sw({"--format", "blast6", "--evalue", "1e9", qf, tf}).out);
  CHECK(all.size() == 90);
  CHECK(fewer.size() < all.size());
  for (const auto& l : fewer) CHECK(std::stod(split(l, '\t')[10]) <= 10);
  // After --top: the best 5 of each query, then the filter.
  const auto top = lines_of(box.sw({"--format", "blast6", "--top", "5", "--evalue", "1e9", qf, tf}).out);
  CHECK(top.size() == 15);
  const auto top_filtered = lines_of(box.sw({"--format", "blast6", "--top", "5", qf, tf}).out);
  std::size_t expected = 0;
  for (const auto& l : top) expected += std::stod(split(l, '\t')[10]) <= 10;
  CHECK(top_filtered.size() == expected);
}

TEST_CASE("a scoring system without BLAST's parameters warns once that they are ungapped", "[cli]") {
  Box box;
  const std::string q = data_dir + "/dna_query.fa", t = data_dir + "/dna_target.fa";
  const auto r = box.sw({"--format", "blast6", "--gap-open", "7", "--gap-extend", "3", q, t});
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  const auto err = lines_of(r.err);
  REQUIRE(err.size() == 1);
  CHECK_THAT(err[0], Contains("warning"));
  CHECK_THAT(err[0], Contains("ungapped"));
  CHECK(!r.out.empty());
  // BLAST's own table: no warning.
  CHECK(box.sw({"--format", "blast6", q, t}).err.empty());
}

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;

struct Reported {
  std::string evalue, bits, score;
};

// (qseqid, sseqid, qstart, qend, sstart, send) -> E-value, bit score, score:
// blast6 lines, with BLAST's score column (13th) or gpu-sw's TSV's score.
std::map<Key, Reported> by_coordinates(const std::string& blast6, const std::string& tsv = "") {
  std::map<Key, Reported> m;
  for (const auto& l : lines_of(blast6)) {
    const auto c = split(l, '\t');
    if (c.size() >= 12) m.emplace(Key{c[0], c[1], c[6], c[7], c[8], c[9]}, Reported{c[10], c[11], c.size() > 12 ? c[12] : ""});
  }
  for (const auto& l : lines_of(tsv)) {  // query target score qstart qend tstart tend ...
    const auto c = split(l, '\t');
    if (c.size() < 7 || c[0][0] == '#') continue;
    const auto it = m.find(Key{c[0], c[1], c[3], c[4], c[5], c[6]});
    if (it != m.end()) it->second.score = c[2];
  }
  return m;
}

// Hits both report with the same score at the same coordinates: their
// E-values and bit scores must be the same strings. Returns how many were
// compared.
std::size_t compare_with_blast(const std::map<Key, Reported>& a, const std::map<Key, Reported>& b) {
  std::size_t compared = 0;
  for (const auto& [key, value] : a) {
    const auto it = b.find(key);
    if (it == b.end() || it->second.score != value.score || value.score.empty()) continue;
    INFO(std::get<0>(key) << " " << std::get<1>(key) << " " << std::get<2>(key) << "-" << std::get<3>(key) << " "
                          << std::get<4>(key) << "-" << std::get<5>(key));
    CHECK(value.evalue == it->second.evalue);
    CHECK(value.bits == it->second.bits);
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("blast6's E-values and bit scores equal blastp's and blastn's (ncbi-blast+)", "[cli][peer]") {
  if (!have_program("blastp") || !have_program("blastn") || !have_program("makeblastdb")) {
    WARN("skipped: blastp, blastn or makeblastdb not found (Debian package ncbi-blast+)");
    return;
  }
  Box box;
  Letters rnd{7};
  const std::string aa = "ACDEFGHIKLMNPQRSTVWY", nt = "ACGT";
  // Protein: 4 queries; 40 targets, among them mutated copies of the queries.
  std::string pq, pt, dq, dt;
  std::vector<std::string> proteins;
  for (int i = 0; i < 4; ++i) {
    proteins.push_back(rnd.random(aa, 120 + 40 * static_cast<std::size_t>(i)));
    pq += ">pq" + std::to_string(i) + " query\n" + proteins.back() + "\n";
  }
  for (int i = 0; i < 40; ++i)
    pt += ">pt" + std::to_string(i) + "\n" +
          (i % 5 == 0 ? rnd.random(aa, 30) + rnd.mutate(proteins[static_cast<std::size_t>(i / 5 % 4)], aa, 3 + i / 10)
                      : rnd.random(aa, 100 + static_cast<std::size_t>(i) * 7)) + "\n";
  std::vector<std::string> genes;
  for (int i = 0; i < 3; ++i) {
    genes.push_back(rnd.random(nt, 300 + 100 * static_cast<std::size_t>(i)));
    dq += ">dq" + std::to_string(i) + "\n" + genes.back() + "\n";
  }
  for (int i = 0; i < 12; ++i)
    dt += ">dt" + std::to_string(i) + "\n" + rnd.random(nt, 200) +
          (i % 2 == 0 ? rnd.mutate(genes[static_cast<std::size_t>(i / 2 % 3)], nt, 8 + i) : rnd.random(nt, 500)) +
          rnd.random(nt, 100) + "\n";
  const std::string pqf = box.write("pq.fa", pq), ptf = box.write("pt.fa", pt);
  const std::string dqf = box.write("dq.fa", dq), dtf = box.write("dt.fa", dt);
  const std::string db = box.path("db");
  REQUIRE(gdp::test::run_program("makeblastdb", {"-in", ptf, "-dbtype", "prot", "-out", db + "p"}, box.dir()).status == 0);
  REQUIRE(gdp::test::run_program("makeblastdb", {"-in", dtf, "-dbtype", "nucl", "-out", db + "n"}, box.dir()).status == 0);

  const std::string blast_columns = "6 qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore score";
  // blastp without composition-based statistics or SEG (they change
  // scores); BLOSUM62 11/1 are both programs' defaults.
  const auto blastp = gdp::test::run_program(
      "blastp", {"-query", pqf, "-db", db + "p", "-outfmt", blast_columns, "-comp_based_stats", "0", "-seg", "no", "-evalue",
                 "1000", "-max_hsps", "1", "-max_target_seqs", "1000"},
      box.dir());
  REQUIRE(blastp.status == 0);
  const auto ours_p = box.sw({"--format", "blast6", "--evalue", "1000", pqf, ptf});
  const auto ours_p_tsv = box.sw({"--format", "tsv", "--evalue", "1000", pqf, ptf});
  REQUIRE(ours_p.status == 0);
  const std::size_t protein_hits =
      compare_with_blast(by_coordinates(ours_p.out, ours_p_tsv.out), by_coordinates(blastp.out));
  CHECK(protein_hits >= 5);

  // blastn's classic task with gpu-sw's defaults (2/-3, gaps 5/2), no
  // DUST, the plus strand.
  const auto blastn = gdp::test::run_program(
      "blastn", {"-task", "blastn", "-query", dqf, "-db", db + "n", "-outfmt", blast_columns, "-dust", "no", "-strand", "plus",
                 "-evalue", "1000", "-max_hsps", "1", "-max_target_seqs", "1000"},
      box.dir());
  REQUIRE(blastn.status == 0);
  const auto ours_n = box.sw({"--format", "blast6", "--evalue", "1000", dqf, dtf});
  const auto ours_n_tsv = box.sw({"--format", "tsv", "--evalue", "1000", dqf, dtf});
  REQUIRE(ours_n.status == 0);
  const std::size_t dna_hits = compare_with_blast(by_coordinates(ours_n.out, ours_n_tsv.out), by_coordinates(blastn.out));
  CHECK(dna_hits >= 3);
  WARN("compared with BLAST+: " << protein_hits << " blastp hits, " << dna_hits << " blastn hits");
}
