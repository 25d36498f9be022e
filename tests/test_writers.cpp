// The output formats on one known alignment.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>

#include "io/blast_tabular.hpp"
#include "io/pairwise_writer.hpp"
#include "stats/statistics.hpp"
#include "cli_run.hpp"
#include "random_inputs.hpp"
#include "temp_dir.hpp"

using namespace gdp;

namespace {

struct Fixture {
  ScoringScheme scheme = test::dna_scheme();
  SequenceRecord query{"q1", "", "CCACGTTGCACC", 1, {12}, ""};
  SequenceRecord target{"t1", "", "GGACGTATGCAGG", 1, {13}, ""};
  std::vector<std::uint8_t> qr, tr;
  pairwise::Alignment aln;
  Fixture() {
    for (char c : query.residues) qr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
    for (char c : target.residues) tr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
    aln = pairwise::align(qr, tr, scheme, pairwise::Options{});
  }
  // `minus`: the fixture's query is taken as the reverse complement of a
  // query GGTGCAACGTGG, searched on both strands.
  std::string write(io::PairFormat f, bool score_only = false, bool minus = false) {
    std::ostringstream out;
    io::PairRun run{"gpu-sw", "gpu-sw q t", pairwise::Mode::local, score_only, &scheme, {&target},
                    minus ? pairwise::Strand::both : pairwise::Strand::plus};
    auto w = io::make_pair_writer(f, out, run);
    pairwise::Alignment a = aln;
    if (score_only) a.cigar.clear(), a.has_begin = false;
    w->begin();
    w->write({&query, &target, qr, tr, a, false, minus});
    w->end();
    return out.str();
  }
};

// A gzip (or BGZF) file's whole content.
std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[1 << 16];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

}  // namespace

TEST_CASE("the fixture aligns ACGT-TGCA with a one-letter gap", "[writers]") {
  Fixture f;
  // ACGT-TGCA / ACGTATGCA: 8 matches (16) - a gap of 1 (5+2) = 9; no
  // ungapped stretch scores more than 8.
  REQUIRE(f.aln.score == 9);
  REQUIRE(pairwise::cigar_string(f.aln.cigar) == "4=1D4=");
  REQUIRE(f.aln.query_begin == 2);
  REQUIRE(f.aln.target_begin == 2);
}

TEST_CASE("TSV: header and 1-based inclusive coordinates", "[writers]") {
  Fixture f;
  const std::string tsv = f.write(io::PairFormat::tsv);
  REQUIRE(tsv ==
          "#query\ttarget\tscore\tquery_start\tquery_end\ttarget_start\ttarget_end\tidentity\tcigar\tstrand\n"
          "q1\tt1\t9\t3\t10\t3\t11\t88.89\t4=1D4=\t+\n");
  const std::string only = f.write(io::PairFormat::tsv, true);
  REQUIRE(only.find("q1\tt1\t9\t*\t10\t*\t11\t*\t*\t+\n") != std::string::npos);
  // A minus hit's query coordinates stay those of the reverse complement aligned.
  REQUIRE(f.write(io::PairFormat::tsv, false, true).find("q1\tt1\t9\t3\t10\t3\t11\t88.89\t4=1D4=\t-\n") !=
          std::string::npos);
}

TEST_CASE("SAM: soft clips, POS, AS and NM", "[writers]") {
  Fixture f;
  const std::string sam = f.write(io::PairFormat::sam);
  REQUIRE(sam.find("@SQ\tSN:t1\tLN:13\n") != std::string::npos);
  REQUIRE(sam.find("q1\t0\tt1\t3\t255\t2S4=1D4=2S\t*\t0\t0\tCCACGTTGCACC\t*\tAS:i:9\tNM:i:1\n") != std::string::npos);
}

TEST_CASE("SAM: a minus hit has flag 16 and the reverse complement's SEQ as given", "[writers][strand]") {
  Fixture f;
  const std::string sam = f.write(io::PairFormat::sam, false, true);
  REQUIRE(sam.find("q1\t16\tt1\t3\t255\t2S4=1D4=2S\t*\t0\t0\tCCACGTTGCACC\t*\tAS:i:9\tNM:i:1\n") != std::string::npos);
}

TEST_CASE("PAF: minimap2's 12 columns, tp, NM, AS and cg; a minus hit on the forward query", "[writers][paf]") {
  Fixture f;
  f.query.residues = "CCACGTTGCACCAA";  // two more letters at the end: the strands' coordinates differ
  f.qr.push_back(0), f.qr.push_back(0);
  REQUIRE(f.write(io::PairFormat::paf) ==
          "q1\t14\t2\t10\t+\tt1\t13\t2\t11\t8\t9\t255\ttp:A:P\tNM:i:1\tAS:i:9\tcg:Z:4=1D4=\n");
  // On the reverse complement [2, 10) of 14 is [4, 12) of the query as given.
  REQUIRE(f.write(io::PairFormat::paf, false, true) ==
          "q1\t14\t4\t12\t-\tt1\t13\t2\t11\t8\t9\t255\ttp:A:P\tNM:i:1\tAS:i:9\tcg:Z:4=1D4=\n");
  // An empty alignment writes nothing.
  f.aln = pairwise::Alignment{};
  REQUIRE(f.write(io::PairFormat::paf).empty());
}

TEST_CASE("JSON: one object per line", "[writers]") {
  Fixture f;
  const std::string json = f.write(io::PairFormat::json);
  REQUIRE(json.find("\"score\":9") != std::string::npos);
  REQUIRE(json.find("\"query_start\":3") != std::string::npos);
  REQUIRE(json.find("\"cigar\":\"4=1D4=\"") != std::string::npos);
  REQUIRE(json.find("\"target\":\"t1\",\"strand\":\"+\",") != std::string::npos);
  REQUIRE(std::count(json.begin(), json.end(), '\n') == 1);
  REQUIRE(f.write(io::PairFormat::json, false, true).find("\"strand\":\"-\"") != std::string::npos);
}

TEST_CASE("pair: statistics and the alignment block with markup", "[writers]") {
  Fixture f;
  const std::string pair = f.write(io::PairFormat::pair);
  REQUIRE(pair.find("# Identity:   8/9 (88.9%)") != std::string::npos);
  REQUIRE(pair.find("# Gaps:       1/9 (11.1%)") != std::string::npos);
  // EMBOSS's columns: the name and the start in the first 20, the letters from column 22.
  REQUIRE(pair.find("# Aligned_sequences: 2\n# 1: q1\n# 2: t1\n") != std::string::npos);
  REQUIRE(pair.find("\nq1                 3 ACGT-TGCA      10\n") != std::string::npos);
  REQUIRE(pair.find("\n                     |||| ||||\n") != std::string::npos);
  REQUIRE(pair.find("\nt1                 3 ACGTATGCA      11\n") != std::string::npos);
  REQUIRE(pair.find("Strand") == std::string::npos);  // a plus-only run says nothing of strands
  const std::string both = f.write(io::PairFormat::pair, false, true);
  REQUIRE(both.find("# Strands:  both\n") != std::string::npos);
  REQUIRE(both.find("# Lengths:    12, 13\n# Strand:     -\n") != std::string::npos);
}

TEST_CASE("blast6: BLAST's twelve columns; the minus strand's coordinates", "[writers]") {
  Fixture f;
  // The target as the whole database: 13 letters, 1 sequence.
  const stats::SearchStatistics st(stats::search_parameters(f.scheme, true), {13, 1});
  io::PairRun run{"gpu-sw", "gpu-sw q t", pairwise::Mode::local, false, &f.scheme, {&f.target}, pairwise::Strand::plus, &st};
  const auto line = [&](const pairwise::Alignment& a, bool reverse) {
    std::ostringstream out;
    auto w = io::make_pair_writer(io::PairFormat::blast6, out, run);
    w->begin();
    w->write({&f.query, &f.target, f.qr, f.tr, a, false, reverse});
    w->end();
    return out.str();
  };
  // ACGT-TGCA over ACGTATGCA: 9 columns, 8 identical (88.889%), no
  // mismatch, one gap opening; query 3-10, target 3-11.
  const std::string tail = "\t" + io::format_evalue(st.evalue(9, 12, 13)) + "\t" + io::format_bit_score(st.bit_score(9)) + "\n";
  CHECK(line(f.aln, false) == "q1\tt1\t88.889\t9\t0\t1\t3\t10\t3\t11" + tail);
  // The same columns as if the query's reverse complement had been
  // aligned: its [2, 10) is the forward query's [12 - 10, 12 - 2), so
  // qstart 3, qend 10; BLAST writes the target from end to start.
  CHECK(line(f.aln, true) == "q1\tt1\t88.889\t9\t0\t1\t3\t10\t11\t3" + tail);
  // A mismatch and two gaps: count each. Query [1, 11) of 12 on the
  // reverse strand is forward [1, 11): qstart 2, qend 11.
  pairwise::Alignment other;
  other.score = 1;
  other.query_begin = 1, other.query_end = 11, other.target_begin = 0, other.target_end = 10, other.has_begin = true;
  other.cigar = {{pairwise::Op::mismatch, 1}, {pairwise::Op::match, 3}, {pairwise::Op::insertion, 2},
                 {pairwise::Op::match, 2}, {pairwise::Op::deletion, 1}, {pairwise::Op::insertion, 1},
                 {pairwise::Op::match, 1}};
  // Columns: 1 + 3 + 2 + 2 + 1 + 1 + 1 = 11; query letters 1+3+2+2+1+1 = 10, target 1+3+2+1+1 = 8.
  other.target_end = 8;
  const std::string l = line(other, true);
  INFO(l);
  // Identical letters decide pident and mismatch: count them here.
  int identical = 0;
  {
    std::int64_t i = other.query_begin, j = other.target_begin;
    for (const auto& c : other.cigar)
      for (std::int64_t k = 0; k < c.length; ++k) {
        if (c.op == pairwise::Op::match || c.op == pairwise::Op::mismatch) identical += f.qr[i] == f.tr[j], ++i, ++j;
        else if (c.op == pairwise::Op::insertion) ++i;
        else ++j;
      }
  }
  char pident[16];
  std::snprintf(pident, sizeof pident, "%.3f", 100.0 * identical / 11);
  CHECK(l.rfind("q1\tt1\t" + std::string(pident) + "\t11\t" + std::to_string(7 - identical) + "\t3\t2\t11\t8\t1\t", 0) == 0);
}

TEST_CASE("blast6 writes nothing for a query without a local alignment", "[writers]") {
  Fixture f;
  const stats::SearchStatistics st(stats::search_parameters(f.scheme, true), {13, 1});
  io::PairRun run{"gpu-sw", "gpu-sw q t", pairwise::Mode::local, false, &f.scheme, {&f.target}, pairwise::Strand::plus, &st};
  std::ostringstream out;
  auto w = io::make_pair_writer(io::PairFormat::blast6, out, run);
  w->write({&f.query, &f.target, f.qr, f.tr, pairwise::Alignment{}, false});
  CHECK(out.str().empty());
}

// SAM's text CIGAR has no length limit; BAM's count of operations is 16
// bits, so htslib moves a longer one to the CG:B,I tag (SAM 1.6, 4.2.2) and
// back. 70,002 operations: 1= 1X repeated, and a deletion and an insertion.
TEST_CASE("SAM and PAF: a CIGAR of more than 65,535 operations, through samtools view -b and back",
          "[writers][samtools]") {
  const ScoringScheme scheme = test::dna_scheme();
  std::string q, t;
  pairwise::Cigar cigar;
  for (int k = 0; k < 35000; ++k) {
    q += "AG", t += "AC";
    cigar.push_back({pairwise::Op::match, 1}), cigar.push_back({pairwise::Op::mismatch, 1});
  }
  q += "TTTT", t += "GG";
  cigar.push_back({pairwise::Op::insertion, 2});
  t += "CC";
  cigar.push_back({pairwise::Op::deletion, 2});
  SequenceRecord query{"long_q", "", q, 1, {}, ""}, target{"long_t", "", t, 1, {}, ""};
  std::vector<std::uint8_t> qr, tr;
  for (char c : q) qr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
  for (char c : t) tr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
  pairwise::Alignment a;
  a.score = 35000 * 2 - 35000 * 3;
  a.query_end = static_cast<std::int64_t>(q.size() - 2);  // the last two letters clipped
  a.target_end = static_cast<std::int64_t>(t.size());
  a.has_begin = true;
  a.cigar = cigar;
  const std::string cigar_text = pairwise::cigar_string(cigar);
  REQUIRE(cigar.size() == 70002);
  auto write = [&](io::PairFormat f) {
    std::ostringstream out;
    io::PairRun run{"gpu-sw", "gpu-sw q t", pairwise::Mode::semiglobal, false, &scheme, {&target}};
    auto w = io::make_pair_writer(f, out, run);
    w->begin();
    w->write({&query, &target, qr, tr, a, false, false});
    w->end();
    return out.str();
  };
  const std::string sam = write(io::PairFormat::sam);
  REQUIRE(sam.find("\t" + cigar_text + "2S\t") != std::string::npos);
  REQUIRE(write(io::PairFormat::paf).find("\tcg:Z:" + cigar_text + "\n") != std::string::npos);

  if (!test::have_program("samtools")) {
    WARN("skipped: samtools not found (scripts/setup.sh installs it); the BAM round trip not checked");
    return;
  }
  test::TempDir box("long-cigar");
  const std::string sam_file = box.write("long.sam", sam), bam_file = box.path("long.bam");
  REQUIRE(test::run_program("samtools", {"view", "-b", "-o", bam_file, sam_file}, box.dir()).status == 0);
  REQUIRE(test::run_program("samtools", {"quickcheck", "-v", bam_file}, box.dir()).status == 0);
  const auto back = test::run_program("samtools", {"view", bam_file}, box.dir());
  REQUIRE(back.status == 0);
  const auto lines = test::lines_of(back.out);
  REQUIRE(lines.size() == 1);
  const auto fields = test::split(lines[0], '\t');
  REQUIRE(fields.size() >= 11);
  CHECK(fields[5] == cigar_text + "2S");
  // The BAM record itself: two placeholder operations (kSmN) and a CG:B,I tag.
  const std::string bam = gunzip(bam_file);
  auto int32_at = [&](std::size_t at) {
    REQUIRE(at + 4 <= bam.size());
    std::int32_t v = 0;
    std::memcpy(&v, bam.data() + at, 4);
    return static_cast<std::size_t>(v);
  };
  std::size_t at = 8 + int32_at(4);  // "BAM\1", the header text
  for (std::size_t refs = int32_at(at), r = (at += 4, 0); r < refs; ++r) at += 8 + int32_at(at);
  const std::size_t record = at + 4;  // after block_size
  REQUIRE(record + 16 <= bam.size());
  std::uint16_t n_cigar_op = 0;
  std::memcpy(&n_cigar_op, bam.data() + record + 12, 2);
  CHECK(n_cigar_op == 2);
  CHECK(bam.find("CGBI", record) != std::string::npos);
}
