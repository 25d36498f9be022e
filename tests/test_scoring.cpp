// Scoring schemes (src/core/scoring.hpp) and alphabets (src/core/alphabet.hpp).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/alphabet.hpp"
#include "core/error.hpp"
#include "core/scoring.hpp"
#include "pairwise/pairwise.hpp"
#include "random_inputs.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace gdp;

namespace {

const std::string matrices_dir = std::string(GPUDP_DATA_DIR) + "/matrices";

// The message of the InputError `f` throws, or "" if it throws none.
template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Score of two letters (upper case) in `s`; both must be in the matrix.
int score(const ScoringScheme& s, char a, char b) {
  const int ra = s.rank_of[static_cast<unsigned char>(a)], rb = s.rank_of[static_cast<unsigned char>(b)];
  REQUIRE(ra >= 0);
  REQUIRE(rb >= 0);
  return s.score(static_cast<std::uint8_t>(ra), static_cast<std::uint8_t>(rb));
}

// A file of one record "r" whose header is line `line`, one sequence line per string.
SequenceFile one_record(const std::vector<std::string>& lines, const std::string& path = "in.fa", std::size_t line = 1) {
  SequenceFile f;
  f.path = path;
  SequenceRecord r;
  r.id = "r";
  r.line = line;
  for (const auto& l : lines) {
    r.residues += l;
    r.line_lengths.push_back(static_cast<std::uint32_t>(l.size()));
  }
  f.records.push_back(r);
  return f;
}

Alphabet detect(const std::vector<std::string>& sequences) {
  std::vector<const std::string*> p;
  for (const auto& s : sequences) p.push_back(&s);
  return detect_alphabet(p);
}

// The column header of a 3-letter matrix in NCBI text.
const std::string header = "   A  R  W\n";

}  // namespace

TEST_CASE("every built-in matrix parses, is square and symmetric", "[scoring]") {
  const auto names = builtin_matrix_names();
  CHECK(names == std::vector<std::string>{"BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80", "BLOSUM90", "EDNAFULL",
                                          "PAM250", "PAM30", "PAM70"});
  for (const auto& name : names) DYNAMIC_SECTION(name) {
    const ScoringScheme s = matrix_scheme(name);
    CHECK(s.name == name);
    REQUIRE(s.dim == static_cast<int>(s.letters.size()));
    REQUIRE(s.scores.size() == static_cast<std::size_t>(s.dim * s.dim));
    CHECK(s.dim >= 16);
    for (int r = 0; r < s.dim; ++r) {
      CHECK(s.rank_of[static_cast<unsigned char>(s.letters[static_cast<std::size_t>(r)])] == r);
      for (int c = 0; c < s.dim; ++c) CHECK(s.score(static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(c)) ==
                                            s.score(static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(r)));
    }
    // The embedded text is the file of data/matrices.
    const ScoringScheme from_file = matrix_scheme(matrices_dir + "/" + name);
    CHECK(from_file.letters == s.letters);
    CHECK(from_file.scores == s.scores);
  }
}

TEST_CASE("built-in matrix values", "[scoring]") {
  SECTION("BLOSUM62") {
    const ScoringScheme s = matrix_scheme("blosum62");  // names are case-insensitive
    CHECK(s.name == "BLOSUM62");
    CHECK(s.letters == "ARNDCQEGHILKMFPSTWYVBZX*");
    CHECK(score(s, 'A', 'A') == 4);
    CHECK(score(s, 'W', 'W') == 11);
    CHECK(score(s, 'A', 'R') == -1);
    CHECK(score(s, 'R', 'A') == -1);
    CHECK(score(s, 'W', 'C') == -2);
    CHECK(score(s, '*', '*') == 1);
    CHECK(s.rank_of['J'] == -1);
    CHECK(s.rank_of['a'] == -1);  // residues are upper case by then
    CHECK(s.max_abs_score() == 11);
  }
  SECTION("PAM250 and BLOSUM45") {
    CHECK(score(matrix_scheme("PAM250"), 'W', 'W') == 17);
    CHECK(score(matrix_scheme("BLOSUM45"), 'A', 'A') == 5);
  }
  SECTION("EDNAFULL: U scores as T") {
    const ScoringScheme s = matrix_scheme("EDNAFULL");
    CHECK(score(s, 'A', 'A') == 5);
    CHECK(score(s, 'A', 'T') == -4);
    CHECK(score(s, 'N', 'N') == -1);
    for (char c : s.letters) {
      INFO("letter " << c);
      CHECK(score(s, 'U', c) == score(s, 'T', c));
    }
  }
}

TEST_CASE("match_mismatch_scheme", "[scoring]") {
  const ScoringScheme s = match_mismatch_scheme(2, -3);
  CHECK(s.rank_of['U'] == s.rank_of['T']);
  CHECK(s.rank_of['U'] >= 0);
  for (char a : std::string("ACGT")) CHECK(score(s, a, a) == 2);
  CHECK(score(s, 'A', 'C') == -3);
  CHECK(score(s, 'U', 'T') == 2);
  CHECK(score(s, 'N', 'N') == -3);
  CHECK(score(s, 'N', 'A') == -3);
  CHECK(score(s, 'R', 'R') == -3);  // ambiguity codes never match
  for (char c : nucleotide_letters) CHECK(s.rank_of[static_cast<unsigned char>(c)] >= 0);
  CHECK(s.rank_of['E'] == -1);
  CHECK(s.rank_of['X'] == -1);
  CHECK(s.max_abs_score() == 3);
  CHECK_THAT(input_error_of([] { match_mismatch_scheme(1001, -3); }), Contains("--match"));
  CHECK_THAT(input_error_of([] { match_mismatch_scheme(2, -1001); }), Contains("--mismatch"));
  CHECK(input_error_of([] { match_mismatch_scheme(1000, -1000); }).empty());
}

TEST_CASE("parse_ncbi_matrix reads NCBI text", "[scoring]") {
  const ScoringScheme s =
      parse_ncbi_matrix("# a comment\n\n   a  r  w\r\nA  4 -1 -3\r\nr -1  5 -3\nW -3 -3 11", "mine.txt");
  CHECK(s.name == "mine.txt");
  CHECK(s.letters == "ARW");
  CHECK(s.dim == 3);
  CHECK(score(s, 'A', 'A') == 4);
  CHECK(score(s, 'R', 'A') == -1);
  CHECK(score(s, 'W', 'W') == 11);
  CHECK(s.rank_of['N'] == -1);
}

TEST_CASE("parse_ncbi_matrix reads fixed-width columns where values touch", "[scoring]") {
  const ScoringScheme s = parse_ncbi_matrix("    A  R  W\nA   6 -7-13\nR  -7  8 -2\nW -13 -2 13\n", "fixed");
  CHECK(score(s, 'A', 'W') == -13);
  CHECK(score(s, 'W', 'A') == -13);
  CHECK(score(s, 'R', 'W') == -2);
  CHECK(score(matrix_scheme("PAM30"), 'A', 'W') == -13);
  CHECK(score(matrix_scheme("PAM70"), 'W', 'W') == 13);
}

TEST_CASE("parse_ncbi_matrix errors name source:LINE", "[scoring]") {
  auto error_of = [](const std::string& text) { return input_error_of([&] { parse_ncbi_matrix(text, "m.txt"); }); };
  SECTION("a missing row: the header's line") {
    CHECK_THAT(error_of("# c\n" + header + "A  4 -1 -3\nR -1  5 -3\n"), StartsWith("m.txt:2: missing the row for 'W'"));
  }
  SECTION("a non-integer") {
    CHECK_THAT(error_of(header + "A  4 -1 -3\nR -1 5.5 -3\nW -3 -3 11\n"), StartsWith("m.txt:3: '5.5' is not an integer"));
  }
  SECTION("too few values") {
    CHECK_THAT(error_of(header + "A  4 -1\nR -1  5 -3\nW -3 -3 11\n"), StartsWith("m.txt:2: row 'A' has 2 values, expected 3"));
  }
  SECTION("too many values") {
    CHECK_THAT(error_of(header + "A  4 -1 -3\nR -1  5 -3 0\nW -3 -3 11\n"), StartsWith("m.txt:3: row 'R' has 4 values, expected 3"));
  }
  SECTION("a letter twice in the header") {
    CHECK_THAT(error_of("\n   A  R  a\n"), StartsWith("m.txt:2: letter 'A' appears twice in the header"));
  }
  SECTION("a header word longer than a letter") { CHECK_THAT(error_of("   A  RR\n"), StartsWith("m.txt:1: column header")); }
  SECTION("a row letter not in the header") {
    CHECK_THAT(error_of(header + "A  4 -1 -3\nN -1  5 -3\n"), StartsWith("m.txt:3: row letter 'N' is not in the header"));
  }
  SECTION("a row twice") {
    CHECK_THAT(error_of(header + "A  4 -1 -3\nA  4 -1 -3\n"), StartsWith("m.txt:3: row 'A' appears twice"));
  }
  SECTION("a score out of range") {
    CHECK_THAT(error_of(header + "A  4 -1 -3\nR -1 1001 -3\nW -3 -3 11\n"), StartsWith("m.txt:3: score 1001 is out of range"));
  }
  SECTION("no matrix at all") { CHECK_THAT(error_of("# only a comment\n\n"), StartsWith("m.txt: no matrix found")); }
}

TEST_CASE("matrix_scheme: a file, or an error naming it", "[scoring]") {
  CHECK(matrix_scheme(matrices_dir + "/BLOSUM80").name == matrices_dir + "/BLOSUM80");
  const std::string missing = matrices_dir + "/NO_SUCH_MATRIX";
  const std::string e = input_error_of([&] { matrix_scheme(missing); });
  CHECK_THAT(e, StartsWith(missing + ": "));
  CHECK_THAT(e, Contains("BLOSUM62"));  // lists the built-in names
}

TEST_CASE("set_gap_costs accepts 0..max_gap_cost", "[scoring]") {
  ScoringScheme s = match_mismatch_scheme(2, -3);
  set_gap_costs(s, 5, 2);
  CHECK(s.gap_open == 5);
  CHECK(s.gap_extend == 2);
  CHECK(s.gap_cost(1) == 7);
  CHECK(s.gap_cost(3) == 11);
  CHECK(input_error_of([&] { set_gap_costs(s, 0, 0); }).empty());
  CHECK(input_error_of([&] { set_gap_costs(s, max_gap_cost, max_gap_cost); }).empty());
  CHECK_THAT(input_error_of([&] { set_gap_costs(s, -1, 2); }), Contains("negative"));
  CHECK_THAT(input_error_of([&] { set_gap_costs(s, 5, -1); }), Contains("negative"));
  CHECK_THAT(input_error_of([&] { set_gap_costs(s, max_gap_cost + 1, 2); }), Contains("at most 1000"));
  CHECK_THAT(input_error_of([&] { set_gap_costs(s, 5, max_gap_cost + 1); }), Contains("at most 1000"));
  // A refused call leaves the costs as they were.
  set_gap_costs(s, 5, 2);
  CHECK_THROWS_AS(set_gap_costs(s, 5000, 2), InputError);
  CHECK(s.gap_open == 5);
}

TEST_CASE("encode maps letters to ranks", "[scoring]") {
  const ScoringScheme dna = match_mismatch_scheme(2, -3);
  const auto ranks = encode(one_record({"ACGU", "TN"}), 0, dna, Alphabet::dna);
  std::vector<std::uint8_t> expected;
  for (char c : std::string("ACGUTN")) expected.push_back(static_cast<std::uint8_t>(dna.rank_of[static_cast<unsigned char>(c)]));
  CHECK(ranks == expected);
  CHECK(ranks[3] == ranks[4]);  // U is T
  const ScoringScheme blosum = matrix_scheme("BLOSUM62");
  CHECK(encode(one_record({"WA"}), 0, blosum, Alphabet::protein) ==
        std::vector<std::uint8_t>{static_cast<std::uint8_t>(blosum.rank_of['W']), 0});
}

TEST_CASE("encode errors name file:line and the letter", "[scoring]") {
  const ScoringScheme blosum = matrix_scheme("BLOSUM62");
  SECTION("a letter not in the matrix, on the third sequence line") {
    const SequenceFile f = one_record({"MVLS", "PADK", "TJVK"}, "p.fa", 10);
    CHECK_THAT(input_error_of([&] { encode(f, 0, blosum, Alphabet::protein); }),
               StartsWith("p.fa:13: letter 'J' in record 'r' is not in the matrix BLOSUM62"));
  }
  SECTION("a matrix letter that is not a nucleotide, in a DNA run") {
    const SequenceFile f = one_record({"ACGT", "ACGE"}, "d.fa");
    CHECK_THAT(input_error_of([&] { encode(f, 0, blosum, Alphabet::dna); }),
               StartsWith("d.fa:3: letter 'E' in record 'r' is not a nucleotide code (the alphabet is dna)"));
  }
  SECTION("a protein letter with match/mismatch scores, in an RNA run") {
    const SequenceFile f = one_record({"ACGUL"}, "d.fa");
    CHECK_THAT(input_error_of([&] { encode(f, 0, match_mismatch_scheme(2, -3), Alphabet::rna); }),
               StartsWith("d.fa:2: letter 'L' in record 'r' is not a nucleotide code (the alphabet is rna)"));
  }
  SECTION("a letter outside match/mismatch scores in a protein run") {
    const SequenceFile f = one_record({"ACGTL"}, "d.fa");
    CHECK_THAT(input_error_of([&] { encode(f, 0, match_mismatch_scheme(2, -3), Alphabet::protein); }),
               StartsWith("d.fa:2: letter 'L' in record 'r' is not in the matrix match 2, mismatch -3"));
  }
  SECTION("a nucleotide code missing from the matrix") {
    const ScoringScheme acgt = parse_ncbi_matrix("  A C G T\nA 1 0 0 0\nC 0 1 0 0\nG 0 0 1 0\nT 0 0 0 1\n", "acgt.txt");
    const SequenceFile f = one_record({"ACGTN"}, "d.fa", 4);
    CHECK_THAT(input_error_of([&] { encode(f, 0, acgt, Alphabet::dna); }),
               StartsWith("d.fa:5: letter 'N' in record 'r' is not in the matrix acgt.txt"));
  }
  SECTION("standard input is <stdin>") {
    const SequenceFile f = one_record({"AC-T"}, "-");
    CHECK_THAT(input_error_of([&] { encode(f, 0, match_mismatch_scheme(2, -3), Alphabet::dna); }),
               StartsWith("<stdin>:2: letter '-'"));
  }
}

TEST_CASE("detect_alphabet", "[scoring]") {
  CHECK(detect({"ACGTACGT", "GGCCNN"}) == Alphabet::dna);
  CHECK(detect({"ACGUACGU"}) == Alphabet::rna);
  CHECK(detect({"ACGU", "ACGT"}) == Alphabet::dna);  // any T: DNA
  CHECK(detect({"MVLSPADKTNVKAAW"}) == Alphabet::protein);
  CHECK(detect({"ACGTACGTAC", "ACGTE"}) == Alphabet::protein);  // one letter that is no nucleotide code
  // Only IUPAC codes, but too few plain ones: protein (at least 90% needed).
  CHECK(detect({"ACGTRYKMSW"}) == Alphabet::protein);
  CHECK(detect({"ACGTACGTRY"}) == Alphabet::protein);  // 80%
  CHECK(detect({"ACGTACGTAR"}) == Alphabet::dna);      // 90%
  CHECK(detect({"ACGTACGTNN"}) == Alphabet::dna);      // N counts as plain
}

TEST_CASE("parse_alphabet and to_string", "[scoring]") {
  for (Alphabet a : {Alphabet::automatic, Alphabet::dna, Alphabet::rna, Alphabet::protein})
    CHECK(parse_alphabet(to_string(a)) == a);
  CHECK(to_string(Alphabet::automatic) == "auto");
  CHECK_THAT(input_error_of([] { parse_alphabet("amino"); }), Contains("'amino'"));
  CHECK(is_nucleotide(Alphabet::rna));
  CHECK(!is_nucleotide(Alphabet::protein));
  CHECK(!is_nucleotide(Alphabet::automatic));
}

TEST_CASE("score range: long targets are refused where 32-bit scores could overflow", "[scoring]") {
  using gdp::pairwise::check_score_range;
  using gdp::pairwise::Mode;
  const ScoringScheme dna = test::dna_scheme();
  // Global and semi-global rows reach -(open + n * extend): refused.
  REQUIRE_THROWS_AS(check_score_range(100000, 2200000000LL, dna, Mode::global, true), gdp::InputError);
  REQUIRE_THROWS_AS(check_score_range(100000, 2200000000LL, dna, Mode::semiglobal, true), gdp::InputError);
  // A local alignment's passes toward its start are not bounded by the query.
  REQUIRE_THROWS_AS(check_score_range(100000, 2200000000LL, dna, Mode::local, false), gdp::InputError);
  // A local score pass stays within the shorter sequence's best score.
  REQUIRE_NOTHROW(check_score_range(100000, 2200000000LL, dna, Mode::local, true));
  REQUIRE_NOTHROW(check_score_range(2200000000LL, 100000, dna, Mode::local, true));
  REQUIRE_THROWS_AS(check_score_range(200000000, 2200000000LL, dna, Mode::local, true), gdp::InputError);
  REQUIRE_NOTHROW(check_score_range(100000, 100000, dna, Mode::global, false));
}
