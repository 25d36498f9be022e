// gdp::read_sequences: FASTA and FASTQ, plain or gzip, and its error messages.
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/sequence_reader.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using gdp::read_sequences;
using gdp::SequenceFile;

namespace {

// A temporary directory that also writes gzip files (through zlib).
class TempDir : public gdp::test::TempDir {
 public:
  TempDir() : gdp::test::TempDir("reader") {}

  std::string write_gzip(const std::string& name, const std::string& content) const {
    gzFile f = gzopen(path(name).c_str(), "wb");
    REQUIRE(f != nullptr);
    REQUIRE(gzwrite(f, content.data(), static_cast<unsigned>(content.size())) == static_cast<int>(content.size()));
    REQUIRE(gzclose(f) == Z_OK);
    return path(name);
  }
};

// Reads `content` from a file of its own.
SequenceFile read_text(const TempDir& dir, const std::string& content, const std::string& name = "in.fa") {
  return read_sequences(dir.write(name, content));
}

// The message of the InputError that reading `path` throws ("" if none).
std::string error_reading(const std::string& path) {
  try {
    read_sequences(path);
  } catch (const gdp::InputError& e) {
    return e.what();
  }
  return "";
}

// Control characters made visible, so that a stray '\r' shows in a failure.
std::string visible(const std::string& s) {
  std::string v;
  for (char c : s) v += c == '\r' ? "\\r" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : std::string(1, c);
  return v;
}

// The record's fields that tests compare, in one line: "id|description|residues|line".
std::string summary(const gdp::SequenceRecord& r) {
  return visible(r.id) + "|" + visible(r.description) + "|" + visible(r.residues) + "|" + std::to_string(r.line);
}

std::vector<std::string> summaries(const SequenceFile& f) {
  std::vector<std::string> s;
  for (const auto& r : f.records) s.push_back(summary(r));
  return s;
}

using Lines = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("FASTA records: ids, descriptions, multi-line sequences", "[reader]") {
  TempDir dir;
  const SequenceFile f = read_text(dir,
                                   ">seq1 first record\n"
                                   "ACGTAC\n"
                                   "GTAC\n"
                                   "GG\n"
                                   ">seq2\n"
                                   "TTTT\n"
                                   ">seq3\tdesc with\ttabs\n"
                                   "CCCC\n");
  CHECK(f.path == dir.path("in.fa"));
  CHECK(summaries(f) == std::vector<std::string>{"seq1|first record|ACGTACGTACGG|1", "seq2||TTTT|5",
                                                 "seq3|desc with\\ttabs|CCCC|7"});
  CHECK(f.records[0].line_lengths == Lines{6, 4, 2});
  CHECK(f.records[1].line_lengths == Lines{4});
  CHECK(f.total_residues() == 20);
}

TEST_CASE("FASTA: blank lines in a record, no final newline, upper case", "[reader]") {
  TempDir dir;
  const SequenceFile f = read_text(dir, ">a x\nacgt\n\nnnAC\n>b\nmvlSPadk");
  CHECK(summaries(f) == std::vector<std::string>{"a|x|ACGTNNAC|1", "b||MVLSPADK|5"});
  CHECK(f.records[0].line_lengths == Lines{4, 0, 4});
}

TEST_CASE("blank lines before the first record are skipped", "[reader]") {
  TempDir dir;
  SECTION("FASTA") { CHECK(summaries(read_text(dir, "\n\n>a x\nACGT\n")) == std::vector<std::string>{"a|x|ACGT|3"}); }
  SECTION("FASTQ") {
    CHECK(summaries(read_text(dir, "\n@r\nACGT\n+\nIIII\n", "in.fq")) == std::vector<std::string>{"r||ACGT|2"});
  }
}

TEST_CASE("CRLF line ends are not part of ids, descriptions or residues", "[reader]") {
  TempDir dir;
  SECTION("FASTA") {
    const SequenceFile f = read_text(dir, ">a desc\r\nACGT\r\nTT\r\n>b\r\nGG\r\n");
    CHECK(summaries(f) == std::vector<std::string>{"a|desc|ACGTTT|1", "b||GG|4"});
    CHECK(f.records[0].line_lengths == Lines{4, 2});
  }
  SECTION("FASTQ") {
    const SequenceFile f = read_text(dir, "@r1 desc\r\nACGT\r\n+\r\nIIII\r\n@r2\r\nGG\r\n+\r\nII\r\n", "in.fq");
    CHECK(summaries(f) == std::vector<std::string>{"r1|desc|ACGT|1", "r2||GG|5"});
  }
}

TEST_CASE("FASTQ records", "[reader]") {
  TempDir dir;
  const SequenceFile f = read_text(dir, "@read1 lane 3\nacgtn\n+\nIIIII\n@read2\nGGGA\n+read2\n!!!!\n", "reads.fq");
  CHECK(summaries(f) == std::vector<std::string>{"read1|lane 3|ACGTN|1", "read2||GGGA|5"});
  CHECK(f.line_of(1, 3) == 6);
}

TEST_CASE("the format is decided by the content, not the name", "[reader]") {
  TempDir dir;
  CHECK(summaries(read_text(dir, "@r\nAC\n+\nII\n", "reads.fa")) == std::vector<std::string>{"r||AC|1"});
  CHECK(summaries(read_text(dir, ">r\nAC\n", "reads.fq")) == std::vector<std::string>{"r||AC|1"});
}

TEST_CASE("gzip-compressed input reads as the plain text", "[reader]") {
  TempDir dir;
  const std::string fasta = ">a one\nACGT\nAC\n>b\nMVLS\n";
  const std::string fastq = "@r1\nACGT\n+\nIIII\n";
  CHECK(summaries(read_sequences(dir.write_gzip("in.fa.gz", fasta))) == summaries(read_text(dir, fasta)));
  CHECK(summaries(read_sequences(dir.write_gzip("no_suffix", fasta))) == summaries(read_text(dir, fasta)));
  CHECK(summaries(read_sequences(dir.write_gzip("in.fq.gz", fastq))) == std::vector<std::string>{"r1||ACGT|1"});
  CHECK(read_sequences(dir.write_gzip("lines.fa.gz", fasta)).line_of(0, 5) == 3);
}

TEST_CASE("SequenceFile::line_of maps a residue to its line", "[reader]") {
  TempDir dir;
  // The header is line 1; sequence lines 2 (4 letters), 3 (blank),
  // 4 (3 letters), 5 (1 letter); the next header is line 6.
  const SequenceFile f = read_text(dir, ">a\nACGT\n\nACG\nT\n>b\nGG\nCC\n");
  REQUIRE(f.records.size() == 2);
  CHECK(f.line_of(0, 0) == 2);
  CHECK(f.line_of(0, 3) == 2);
  CHECK(f.line_of(0, 4) == 4);
  CHECK(f.line_of(0, 6) == 4);
  CHECK(f.line_of(0, 7) == 5);
  CHECK(f.line_of(1, 0) == 7);
  CHECK(f.line_of(1, 1) == 7);
  CHECK(f.line_of(1, 2) == 8);
}

TEST_CASE("read_sequences reports bad input with file and line", "[reader]") {
  TempDir dir;
  auto check_error = [&](const std::string& name, const std::string& content, const std::string& located_message) {
    const std::string path = dir.write(name, content);
    CHECK_THAT(error_reading(path), StartsWith(path + located_message));
  };

  SECTION("a missing file") {
    CHECK_THAT(error_reading(dir.path("missing.fa")), StartsWith(dir.path("missing.fa") + ": cannot open"));
  }
  SECTION("a directory") {
    fs::create_directory(dir.path("sub"));
    CHECK_THAT(error_reading(dir.path("sub")), StartsWith(dir.path("sub") + ": cannot read: is a directory"));
  }
  SECTION("an empty file") { check_error("empty.fa", "", ": empty file"); }
  SECTION("white space only") { check_error("blank.fa", "\n  \r\n\t\n", ": empty file"); }
  SECTION("white space only, a vertical tab or form feed among it, read as plain lines too") {
    check_error("vtab.fa", "\n\v\f\n", ": empty file");
    const std::string path = dir.write("vtab_plain.fa", "\n\v\n");
    CHECK_THROWS_WITH(read_sequences(path, gdp::PlainLines::records), StartsWith(path + ": empty file"));
  }
  SECTION("an empty gzip file") {
    const std::string path = dir.write_gzip("empty.fa.gz", "");
    CHECK_THAT(error_reading(path), StartsWith(path + ": empty file"));
  }
  SECTION("a record with no sequence: the line of its header") {
    check_error("noseq.fa", ">a\nACGT\n>b\n>c\nACGT\n", ":3: record 'b' has no sequence");
  }
  SECTION("a last record with no sequence") { check_error("noseq.fa", ">a\nACGT\n\n>b\n", ":4: record 'b' has no sequence"); }
  SECTION("a record with no name") { check_error("noname.fa", ">a\nACGT\n>\nACGT\n", ":3: record has no name"); }
  SECTION("a digit: the line of the digit") {
    check_error("digit.fa", ">a\nACGT\n>b\nACGTACGT\nACG1T\n", ":5: unexpected character '1'");
  }
  SECTION("punctuation: the line of the character") { check_error("punct.fa", ">a\nAC\nA;C\n", ":3: unexpected character ';'"); }
  SECTION("neither FASTA nor FASTQ") { check_error("text.fa", "\n\nhello\n", ":3: not FASTA or FASTQ"); }
  SECTION("sequence before the first header") { check_error("headless.fa", "ACGT\n>a\nACGT\n", ":1: not FASTA or FASTQ"); }
  SECTION("FASTQ with qualities shorter than the sequence") {
    const std::string path = dir.write("short.fq", "@r1\nACGT\n+\nIIII\n@r2\nACGT\n+\nII\n");
    CHECK_THAT(error_reading(path), StartsWith(path + ":"));
  }
}

TEST_CASE("a truncated gzip file is an error", "[reader]") {
  TempDir dir;
  std::string fasta = ">a\n";
  for (int i = 0; i < 20000; ++i) fasta += "ACGT"[(i * 7 + i / 13) % 4];
  fasta += "\n";
  const std::string whole = dir.write_gzip("whole.fa.gz", fasta);
  REQUIRE(read_sequences(whole).records.at(0).residues.size() == 20000);
  std::string bytes;
  {
    std::ifstream in(whole, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cut = dir.write("cut.fa.gz", bytes.substr(0, bytes.size() / 2));
  CHECK_THAT(error_reading(cut), StartsWith(cut + ": "));
}

TEST_CASE("a digit in a FASTQ sequence is an error of the reader", "[reader]") {
  TempDir dir;
  const std::string path = dir.write("digit.fq", "@r1\nACGT\n+\nIIII\n@r2\nAC1T\n+\nIIII\n");
  const std::string e = error_reading(path);
  CHECK_THAT(e, StartsWith(path + ":6: "));
  CHECK_THAT(e, Contains("'1'"));
}

TEST_CASE("'&' stands in a sequence only where the caller keeps it", "[reader]") {
  TempDir dir;
  const std::string path = dir.write("amp.fa", ">duplex\nac&gu\n");
  REQUIRE_THROWS_WITH(read_sequences(path), Contains("amp.fa:2: unexpected character '&'"));
  const SequenceFile kept = read_sequences(path, gdp::PlainLines::refuse, gdp::Ampersand::keep);
  REQUIRE(kept.records.size() == 1);
  CHECK(kept.records[0].residues == "AC&GU");
  const std::string plain = dir.write("amp.txt", "GGG&CCC\n");
  CHECK(read_sequences(plain, gdp::PlainLines::records, gdp::Ampersand::keep).records[0].residues == "GGG&CCC");
}
