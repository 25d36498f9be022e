// The output formats on one known alignment.
#include <catch2/catch.hpp>
#include <sstream>

#include "io/blast_tabular.hpp"
#include "io/pairwise_writer.hpp"
#include "stats/statistics.hpp"
#include "random_inputs.hpp"

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
