// gpu-align3's writers on hand-made results: the rows, Clustal's marks and
// blocks, and what a result whose columns do not fit its records raises.
#include <catch2/catch.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/scoring.hpp"
#include "io/align3_writer.hpp"

namespace {

gdp::SequenceRecord record(const std::string& id, const std::string& residues) {
  gdp::SequenceRecord r;
  r.id = id;
  r.residues = residues;
  return r;
}

// Moves from three rows of letters and '-'.
std::vector<std::uint8_t> moves_of(const std::string& a, const std::string& b, const std::string& c) {
  std::vector<std::uint8_t> m;
  for (std::size_t k = 0; k < a.size(); ++k)
    m.push_back(static_cast<std::uint8_t>((a[k] != '-') | (b[k] != '-') << 1 | (c[k] != '-') << 2));
  return m;
}

}  // namespace

TEST_CASE("align3 writers: the rows put each record's letters where its moves advance", "[align3][io]") {
  const auto a = record("a", "MKV"), b = record("b", "MV"), c = record("c", "KV");
  gdp::align3::Alignment aln{7, moves_of("MKV", "M-V", "-KV")};
  const gdp::io::Align3Result result{{&a, &b, &c}, aln};
  CHECK(gdp::io::gapped_rows(result) == std::array<std::string, 3>{"MKV", "M-V", "-KV"});

  gdp::align3::Alignment short_one{7, moves_of("MK", "M-", "-K")};
  CHECK_THROWS_AS(gdp::io::gapped_rows({{&a, &b, &c}, short_one}), std::logic_error);
  gdp::align3::Alignment long_one{7, moves_of("MKV-", "M-VV", "-KV-")};
  CHECK_THROWS_AS(gdp::io::gapped_rows({{&a, &b, &c}, long_one}), std::logic_error);
}

TEST_CASE("align3 writers: Clustal's conservation marks", "[align3][io]") {
  using gdp::io::conservation_mark;
  CHECK(conservation_mark('A', 'A', 'A', true) == '*');
  CHECK(conservation_mark('A', 'A', 'G', true) == ' ');
  CHECK(conservation_mark('A', '-', 'A', true) == ' ');
  CHECK(conservation_mark('W', 'W', 'W', false) == '*');
  CHECK(conservation_mark('S', 'T', 'A', false) == ':');  // STA, strong
  CHECK(conservation_mark('I', 'L', 'V', false) == ':');  // MILV
  CHECK(conservation_mark('C', 'S', 'A', false) == '.');  // CSA, weak only
  CHECK(conservation_mark('S', 'G', 'D', false) == '.');  // SGND
  CHECK(conservation_mark('W', 'C', 'K', false) == ' ');
  CHECK(conservation_mark('S', 'T', '-', false) == ' ');
  CHECK(conservation_mark('S', 'T', 'A', true) == ' ');  // nucleotides: identity only
}

TEST_CASE("align3 writers: Clustal for protein, names padded to line the columns up", "[align3][io]") {
  const auto a = record("first_sequence", "MSIL"), b = record("b", "MTLL"), c = record("c", "WAV");
  gdp::align3::Alignment aln{3, moves_of("MSIL", "MTLL", "WA-V")};
  const gdp::ScoringScheme scheme = gdp::matrix_scheme("BLOSUM62");
  const gdp::io::Align3Run run{"gpu-align3", "9.9.9", &scheme, false, 8, false};
  std::ostringstream out;
  gdp::io::write_align3(gdp::io::Align3Format::clustal, out, run, {{&a, &b, &c}, aln});
  CHECK(out.str() ==
        "CLUSTAL multiple sequence alignment by gpu-align3 9.9.9\n\n\n"
        "first_sequence      MSIL 4\n"
        "b                   MTLL 4\n"
        "c                   WA-V 3\n"
        "                     : :\n");
}

TEST_CASE("align3 writers: format names", "[align3][io]") {
  using gdp::io::Align3Format;
  CHECK(gdp::io::parse_align3_format("clustal") == Align3Format::clustal);
  CHECK(gdp::io::needs_alignment(Align3Format::fasta));
  CHECK(!gdp::io::needs_alignment(Align3Format::json));
  CHECK_THROWS_WITH(gdp::io::parse_align3_format("msf"), Catch::Matchers::Contains("unknown format 'msf'"));
}
