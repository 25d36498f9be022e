// gpu-syntenic's output formats on one alignment built by hand: a matching
// region, a difference block of target letters only, and a matching region
// with a substitution and a gap, under the DNA defaults (match 2, mismatch
// -3, a gap of k costs 5 + 2k), block penalty 3, ends charged:
//   ACGTTGCA  /  ACGTTGCA                8=          16
//   -         /  GGGGG                   block       -3
//   CATG-GTCA / CTTGAGTCA                1=1X2=1D4=  14 - 3 - 7 = 4
//   ends: neither is a block             -3 -3
//   score 16 - 3 + 4 - 6 = 11
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "io/syntenic_writer.hpp"
#include "random_inputs.hpp"

using namespace gdp;

namespace {

struct Fixture {
  ScoringScheme scheme = test::dna_scheme();
  SequenceRecord query{"q1", "", "ACGTTGCACATGGTCA", 1, {16}, ""};
  SequenceRecord target{"t1", "", "ACGTTGCAGGGGGCTTGAGTCA", 1, {22}, ""};
  std::vector<std::uint8_t> qr, tr;
  syntenic::Options options;
  syntenic::Alignment aln;

  Fixture() {
    for (char c : query.residues) qr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
    for (char c : target.residues) tr.push_back(static_cast<std::uint8_t>(scheme.rank_of[static_cast<unsigned char>(c)]));
    options.block_penalty = 3;
    using syntenic::Op;
    aln.score = 11;
    aln.query_end = 16, aln.target_end = 22;
    aln.regions = {{false, 0, 8, 0, 8, 16, {{Op::match, 8}}},
                   {true, 8, 8, 8, 13, -3, {}},
                   {false, 8, 16, 13, 22, 4,
                    {{Op::match, 1}, {Op::mismatch, 1}, {Op::match, 2}, {Op::deletion, 1}, {Op::match, 4}}}};
  }

  std::string write(io::SyntenicFormat f, bool score_only = false) {
    std::ostringstream out;
    const io::SyntenicRun run{"gpu-syntenic", "gpu-syntenic q t", &scheme, options.ends, options.block_penalty,
                              score_only};
    syntenic::Alignment a = aln;
    if (score_only) a.regions.clear();
    auto w = io::make_syntenic_writer(f, out, run);
    w->begin();
    w->write({query, target, qr, tr, a});
    w->end();
    return out.str();
  }
};

}  // namespace

TEST_CASE("syntenic writers: the hand-made alignment is a valid one", "[writers][syntenic]") {
  Fixture f;
  REQUIRE(syntenic::rescore(f.aln, f.qr, f.tr, f.scheme, f.options) == 11);
  REQUIRE(syntenic::end_charges(f.aln, syntenic::Ends::charged, 3) == -6);
  REQUIRE(syntenic::end_charges(f.aln, syntenic::Ends::plain, 3) == 0);
  const io::RegionStats s = io::region_stats(f.aln.regions[2]);
  REQUIRE(s.columns == 9);
  REQUIRE(s.identical == 7);
}

TEST_CASE("syntenic writers: formats by name", "[writers][syntenic]") {
  REQUIRE(io::parse_syntenic_format("paf") == io::SyntenicFormat::paf);
  REQUIRE_FALSE(io::needs_alignment(io::SyntenicFormat::listing));  // a score-only listing gives the score
  REQUIRE(io::needs_alignment(io::SyntenicFormat::paf));
  REQUIRE(!io::needs_alignment(io::SyntenicFormat::tsv));
  REQUIRE(!io::needs_alignment(io::SyntenicFormat::json));
  REQUIRE_THROWS_WITH(io::parse_syntenic_format("pair"), "unknown format 'pair' (use listing, paf, tsv or json)");
}

TEST_CASE("syntenic PAF: a line per matching region, 0-based starts, cg:Z as is", "[writers][syntenic]") {
  Fixture f;
  REQUIRE(f.write(io::SyntenicFormat::paf) ==
          "q1\t16\t0\t8\t+\tt1\t22\t0\t8\t8\t8\t255\ttp:A:P\tAS:i:16\tcg:Z:8=\n"
          "q1\t16\t8\t16\t+\tt1\t22\t13\t22\t7\t9\t255\ttp:A:P\tAS:i:4\tcg:Z:1=1X2=1D4=\n");
}

TEST_CASE("syntenic TSV: a line per region, 1-based inclusive, an empty range as start = end + 1", "[writers][syntenic]") {
  Fixture f;
  REQUIRE(f.write(io::SyntenicFormat::tsv) ==
          "#query\ttarget\tkind\tquery_start\tquery_end\ttarget_start\ttarget_end\tscore\tidentity\tcigar\n"
          "q1\tt1\tmatch\t1\t8\t1\t8\t16\t100.00\t8=\n"
          "q1\tt1\tblock\t9\t8\t9\t13\t-3\t-\t-\n"
          "q1\tt1\tmatch\t9\t16\t14\t22\t4\t77.78\t1=1X2=1D4=\n");
  REQUIRE(f.write(io::SyntenicFormat::tsv, true) ==
          "#query\ttarget\tscore\tquery_end\ttarget_end\n"
          "q1\tt1\t11\t16\t22\n");
}

TEST_CASE("syntenic JSON: an object a line with the parameters and the regions", "[writers][syntenic]") {
  Fixture f;
  const std::string head =
      "{\"query\":\"q1\",\"target\":\"t1\",\"query_length\":16,\"target_length\":22,\"score\":11,\"query_end\":16,"
      "\"target_end\":22,\"block_penalty\":3,\"ends\":\"charged\",\"gap_open\":5,\"gap_extend\":2,\"regions\":";
  REQUIRE(f.write(io::SyntenicFormat::json) ==
          head +
              "[{\"kind\":\"match\",\"query_start\":1,\"query_end\":8,\"target_start\":1,\"target_end\":8,\"score\":16,"
              "\"identity\":100.0,\"cigar\":\"8=\"},"
              "{\"kind\":\"block\",\"query_start\":9,\"query_end\":8,\"target_start\":9,\"target_end\":13,\"score\":-3,"
              "\"identity\":null,\"cigar\":null},"
              "{\"kind\":\"match\",\"query_start\":9,\"query_end\":16,\"target_start\":14,\"target_end\":22,\"score\":4,"
              "\"identity\":77.77777777777777,\"cigar\":\"1=1X2=1D4=\"}]}\n");
  REQUIRE(f.write(io::SyntenicFormat::json, true) == head + "null}\n");
}

TEST_CASE("syntenic listing: parameters, the pair, each region with its ranges and columns", "[writers][syntenic]") {
  Fixture f;
  REQUIRE(f.write(io::SyntenicFormat::listing) ==
          "########################################\n"
          "# Program:  gpu-syntenic\n"
          "# Command:  gpu-syntenic q t\n"
          "# Scoring:  match 2, mismatch -3\n"
          "# Gaps:     open 5, extend 2 (a gap of length k costs open + k*extend)\n"
          "# Blocks:   penalty 3 each\n"
          "# Ends:     charged (the penalty again at each end that is not a block)\n"
          "########################################\n"
          "\n"
          "#=======================================\n"
          "# 1: q1 (16)\n"
          "# 2: t1 (22)\n"
          "# Score:       11\n"
          "# Regions:     2 matching regions (20), 1 block (-3)\n"
          "# End charges: -6\n"
          "#=======================================\n"
          "\n"
          "# Match 1: query 1-8 (8 letters), target 1-8 (8 letters)\n"
          "#   score 16, identity 8/8 (100.0%)\n"
          "\n"
          "q1                 1 ACGTTGCA       8\n"
          "                     ||||||||\n"
          "t1                 1 ACGTTGCA       8\n"
          "\n"
          "# Block 1: query - (0 letters, after 8), target 9-13 (5 letters)\n"
          "#   score -3\n"
          "\n"
          "# Match 2: query 9-16 (8 letters), target 14-22 (9 letters)\n"
          "#   score 4, identity 7/9 (77.8%)\n"
          "\n"
          "q1                 9 CATG-GTCA      16\n"
          "                     |.|| ||||\n"
          "t1                14 CTTGAGTCA      22\n"
          "\n");
}

TEST_CASE("syntenic listing: plain ends, a block at the start, a 1-letter range, score only", "[writers][syntenic]") {
  Fixture f;
  f.options.ends = syntenic::Ends::plain;
  // The first region becomes a block of both sequences' first 8 letters.
  f.aln.regions[0] = {true, 0, 8, 0, 8, -3, {}};
  f.aln.regions[1].query_end = 8;
  const std::string out = f.write(io::SyntenicFormat::listing);
  CHECK_THAT(out, Catch::Matchers::Contains("# Ends:     plain (no charge at the ends)\n"));
  CHECK_THAT(out, Catch::Matchers::Contains("# Regions:     1 matching region (4), 2 blocks (-6)\n"));
  CHECK(out.find("# End charges:") == std::string::npos);
  CHECK_THAT(out, Catch::Matchers::Contains("# Block 1: query 1-8 (8 letters), target 1-8 (8 letters)\n#   score -3\n"));
  // Ranges alone now (the writers do not check that the regions chain).
  f.aln.regions[1] = {true, 0, 1, 8, 13, -3, {}};
  CHECK_THAT(f.write(io::SyntenicFormat::listing), Catch::Matchers::Contains("# Block 2: query 1-1 (1 letter), target"));
  f.aln.regions[1] = {true, 0, 0, 8, 13, -3, {}};
  CHECK_THAT(f.write(io::SyntenicFormat::listing), Catch::Matchers::Contains("# Block 2: query - (0 letters, before 1)"));
  const std::string only = f.write(io::SyntenicFormat::listing, true);
  CHECK_THAT(only, Catch::Matchers::EndsWith("# Score:       11\n# End:         query 16, target 22\n"
                                             "#=======================================\n"));
}
