// End-to-end tests of gpu-fold: the real binary, in a fresh directory, with
// --cpu so that no message depends on the machine's GPUs.
//   GGGAAAUCC: G-C, G-C, G-U around the hairpin AAA: (((...))) with 3 pairs.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_run.hpp"
#include "core/build.hpp"
#include "gpu_test.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

class Sandbox : public gdp::test::TempDir {
 public:
  Sandbox() : TempDir("fold") {}
  gdp::test::RunResult run(std::vector<std::string> args) const {
    args.insert(args.begin(), "--cpu");
    return gdp::test::run_program(GPU_FOLD_EXE, args, dir());
  }
};

// Bad input: each case (its arguments, words its error line holds) is one
// line on stderr, exit 2, and no output file.
struct RefusedCase {
  std::vector<std::string> args;
  std::string words;
};

void check_refused(const Sandbox& box, const std::vector<RefusedCase>& cases) {
  for (const RefusedCase& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.begin(), {"-o", box.path("out.txt")});
    const auto r = box.run(args);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("gpu-fold: error: ") && Contains(c.words));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(box.path("out.txt")));
  }
}

}  // namespace

TEST_CASE("gpu-fold: every format of a structure worked by hand", "[cli][fold]") {
  Sandbox box;
  const std::string in = box.write("rna.fa", ">hairpin demo\nGGGAAATCC\n>two\nggg\naaaucc\n");
  const auto dot = box.run({in});
  INFO(dot.err);
  REQUIRE(dot.status == 0);
  REQUIRE(dot.out == ">hairpin demo\nGGGAAAUCC\n(((...))) (3)\n>two\nGGGAAAUCC\n(((...))) (3)\n");
  REQUIRE(box.run({"--no-gu", in}).out.find("((.....)) (2)") != std::string::npos);  // G-U no more
  const auto tsv = box.run({"--format", "tsv", in});
  REQUIRE(tsv.out ==
          "#id\tlength\tpairs\tstructure\tdescription\nhairpin\t9\t3\t(((...)))\tdemo\ntwo\t9\t3\t(((...)))\t\n");
  const auto bpseq = box.run({"--format", "bpseq", in});
  REQUIRE_THAT(bpseq.out, Contains("# hairpin demo\n1 G 9\n2 G 8\n3 G 7\n4 A 0\n"));
  const auto ct = box.run({"--format", "ct", in});
  REQUIRE_THAT(ct.out, Contains("9 hairpin demo\n1 G 0 2 9 1\n") && Contains("9 C 8 0 1 9\n"));
  const auto json = box.run({"--format", "json", "--engine", "cpu1", in});
  REQUIRE_THAT(json.out,
               Contains("{\"id\":\"hairpin\",\"description\":\"demo\",\"length\":9,\"pairs\":3,\"sequence\":\"GGGAAAUCC\","));
  // Every engine gives the same structures.
  for (const std::string engine : {"cpu1", "cpu2", "omp2"}) REQUIRE(box.run({"--engine", engine, in}).out == dot.out);
}

TEST_CASE("gpu-fold reads plain sequence lines without headers, as RNAfold does", "[cli][fold]") {
  Sandbox box;
  const std::string plain = box.write("plain.txt", "GGGAAACCC\n\nggggaaaaccuc\n");
  const auto r = box.run({"--format", "tsv", plain});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "#id\tlength\tpairs\tstructure\tdescription\nseq1\t9\t3\t(((...)))\t\nseq2\t12\t4\t((((....))))\t\n");
  // On standard input too: echo GGGAAACCC | gpu-fold -
  const std::string one = box.write("one.txt", "GGGAAACCC\n");
  const auto in = gdp::test::run_program(GPU_FOLD_EXE, {"--cpu", "-"}, box.dir(), one);
  REQUIRE(in.status == 0);
  CHECK(in.out == ">seq1\nGGGAAACCC\n(((...))) (3)\n");
  // A header after plain lines is refused, located.
  const auto mixed = box.run({box.write("mixed.txt", "GGGAAACCC\n>r\nGGGAAACCC\n")});
  CHECK(mixed.status == 2);
  CHECK_THAT(mixed.err, Contains(box.path("mixed.txt") + ":2: a header line after plain sequence lines"));
}

TEST_CASE("gpu-fold: bad input is one line, exit 2, and no output file", "[cli][fold]") {
  Sandbox box;
  const std::string bad = box.write("bad.fa", ">ok\nACGU\n>broken\nACGU\nACXU\n");
  const std::string empty = box.write("empty.fa", "");
  const std::string good = box.write("good.fa", ">g\nGGGAAAUCC\n");
  const std::vector<RefusedCase> cases = {
      {{bad}, "bad.fa:5: letter 'X'"},
      {{empty}, "empty.fa"},
      {{box.path("missing.fa")}, "missing.fa"},
      {{"--format", "vienna", good}, "unknown format"},
      {{"--engine", "gpu9", good}, "unknown engine"},
      {{"--engine", "gpu", good}, "--engine gpu needs a GPU"},
      {{"--min-loop", "-1", good}, "--min-loop"},
      {{"--tune", "nosuchkey=1", good}, "--tune: unknown key 'nosuchkey' (known: rounds, min_slice)"},
      {{"--tune", "rounds=0", good}, "--tune rounds=0: takes an integer from 1"},
      {{"--tune", "rounds", good}, "--tune takes key=value"},
      {{"--devices", "0", good}, "--cpu and --devices cannot be used together"},
      {{"--devices", "0", "--device", "0", good}, "--device excludes --devices"},
  };
  check_refused(box, cases);
}

TEST_CASE("gpu-fold --interact: two RNAs binding, every format, from one file or two", "[cli][fold][bpmax]") {
  Sandbox box;
  const std::string pairs = box.write("pairs.fa", ">x one\nACGU&ACGU\n>y\nGGGAAACCC&GGGTTTCCC\n");
  const auto dot = box.run({"--interact", pairs});
  INFO(dot.err);
  REQUIRE(dot.status == 0);
  CHECK(dot.out == ">x one\nACGU&ACGU\n[[[[&]]]] (8)\n>y\nGGGAAACCC&GGGUUUCCC\n((([[[)))&(((]]]))) (21)\n");
  const auto listing = box.run({"--interact", "--format", "pairs", pairs});
  CHECK_THAT(listing.out, Contains("# x one score 8\n1 4 inter\n2 3 inter\n3 2 inter\n4 1 inter\n# y score 21\n"));
  CHECK_THAT(listing.out, Contains("1 9 intra1\n") && Contains("1 9 intra2\n"));
  const auto tsv = box.run({"--interact", "--format", "tsv", pairs});
  CHECK(tsv.out ==
        "#id\tlen1\tlen2\tscore\tinter_pairs\tstructure\tdescription\nx\t4\t4\t8\t4\t[[[[&]]]]\tone\n"
        "y\t9\t9\t21\t3\t((([[[)))&(((]]])))\t\n");
  const auto json = box.run({"--interact", "--format", "json", pairs});
  CHECK_THAT(json.out, Contains("{\"id\":\"x\",\"description\":\"one\",\"length1\":4,\"length2\":4,\"score\":8,"
                                "\"inter_pairs\":4,\"sequence\":\"ACGU&ACGU\",\"structure\":\"[[[[&]]]]\",\"pairs\":[[1,4,\"inter\"],"));
  // Half units, and other weights.
  const std::string long_pair = box.write("long.fa", ">z\nCGCGCTGGATAAATATAGGACCAGGAAT&GCTCGGATAGAGCTAGGAGAAATCGCGCCGCTAGA\n");
  CHECK_THAT(box.run({"--interact", "--format", "tsv", long_pair}).out, Contains("\t52.5\t"));
  CHECK_THAT(box.run({"--interact", "--weights", "3,2,0", pairs}).out, Contains("[[[[&]]]] (10)"));
  for (const std::string engine : {"cpu1", "cpu2", "omp2"})  // the oracle and the products' form agree
    CHECK(box.run({"--interact", "--engine", engine, "--threads", "2", pairs}).out == dot.out);
  // Two files: record i of one with record i of the other.
  const std::string one = box.write("one.fa", ">a\nACGU\n>b\nGGGAAACCC\n"), two = box.write("two.fa", ">c\nACGU\n>d\nGGGUUUCCC\n");
  const auto split = box.run({"--interact", "--format", "tsv", one, two});
  INFO(split.err);
  CHECK(split.out == "#id\tlen1\tlen2\tscore\tinter_pairs\tstructure\tdescription\na&c\t4\t4\t8\t4\t[[[[&]]]]\t\n"
                     "b&d\t9\t9\t21\t3\t((([[[)))&(((]]])))\t\n");
}

TEST_CASE("gpu-fold --interact --window: the best site of the window's lengths, shown on the whole strands", "[cli][fold][bpmax]") {
  Sandbox box;
  const std::string site = box.write("site.fa", ">s\nAAAAGGGGAAAA&AAAACCCCAAAAAA\n");
  const auto dot = box.run({"--interact", "--window", "3,3", site});
  INFO(dot.err);
  REQUIRE(dot.status == 0);
  CHECK(dot.out == ">s\nAAAAGGGGAAAA&AAAACCCCAAAAAA\n....[[[[....&....]]]]...... (12)\n");
  CHECK_THAT(box.run({"--interact", "--window", "3,3", "--format", "pairs", site}).out,
             Contains("# s score 12\n5 8 inter\n6 7 inter\n7 6 inter\n8 5 inter\n"));
  // Narrower than the site: three pairs at most.
  CHECK_THAT(box.run({"--interact", "--window", "2,5", site}).out, Contains(" (9)\n"));
  for (const std::string engine : {"cpu1", "cpu2", "omp2"})
    CHECK(box.run({"--interact", "--window", "3,3", "--engine", engine, "--threads", "2", site}).out == dot.out);
}

TEST_CASE("gpu-fold --interact: bad input is one line, exit 2, and no output file", "[cli][fold][bpmax]") {
  Sandbox box;
  const std::string no_amp = box.write("noamp.fa", ">ok\nACGU&ACGU\n>single\nACGU\n");
  const std::string two_amp = box.write("twoamp.fa", ">t\nAC&GU&AA\n");
  const std::string empty_strand = box.write("emptystrand.fa", ">e\nACGU&\n");
  const std::string letter = box.write("letter.fa", ">l\nACGU&\nACXU\n");
  const std::string good = box.write("good.fa", ">g\nGGGAAACCC&GGGUUUCCC\n");
  const std::string three = box.write("three.fa", ">a\nACGU\n>b\nACGU\n>c\nACGU\n");
  const std::string huge = box.write("huge.fa", ">h\n" + std::string(200000, 'A') + "&" + std::string(200000, 'U') + "\n");
  const std::vector<RefusedCase> cases = {
      {{"--interact", no_amp}, "noamp.fa:4: record 'single' must hold two strands as SEQ1&SEQ2"},
      {{"--interact", two_amp}, "twoamp.fa:2: record 't' must hold two strands"},
      {{"--interact", empty_strand}, "emptystrand.fa:2: record 'e': strand 2 is empty"},
      {{"--interact", letter}, "letter.fa:3: letter 'X' in 'l' is not an RNA base"},
      {{"--interact", box.write("two.fa", ">a\nACGU\n>b\nACGU\n"), three}, "three.fa: has 3 records and"},
      {{"--interact", three, good}, "good.fa:2: unexpected character '&'"},  // two files: a strand each
      {{"--interact", "--format", "bpseq", good}, "unknown format 'bpseq' (use dotbracket, pairs, tsv or json)"},
      {{"--interact", "--weights", "3,1", good}, "--weights takes GC,AU,GU"},
      {{"--interact", "--no-gu", good}, "--no-gu is not for --interact"},
      {{"--interact", "--devices", "0", good}, "--devices is not for --interact"},
      {{"--interact", "--engine", "gpu", good}, "--engine gpu needs a GPU"},  // with --cpu
      {{"--interact", "--engine", "cpu9", good}, "unknown engine"},
      {{"--interact", huge}, "huge.fa:2: record 'h': strands of 200000 and 200000 bases need about"},
      {{"--interact", "--window", "1000,1000", huge}, "a narrower --window would fit"},
      {{"--interact", "--window", "150", good}, "--window takes W1,W2"},
      {{"--window", "150,150", box.write("plain.fa", ">p\nGGGAAACCC\n")}, "--window is for --interact"},
      {{good}, "good.fa:2: letter '&' in 'g' is not an RNA base (A, C, G, U, or NRYKMSWBDHV for bases that pair with "
               "nothing; T is read as U; SEQ1&SEQ2 records are for --interact)"},
      {{good, good}, "two inputs are for --interact"},
  };
  check_refused(box, cases);
}

TEST_CASE("gpu-fold --interact on the GPU: what --cpu gives, in every format, the report naming it", "[cli][fold][bpmax][gpu]") {
  if (gdp::test::skip_without_gpu()) return;
  Sandbox box;
  const std::string pairs = box.write(
      "pairs.fa", ">x one\nACGU&ACGU\n>y\nGGGAAACCC&GGGTTTCCC\n>z\nCGCGCTGGATAAATATAGGACCAGGAAT&GCTCGGATAGAGCTAGGAGAAATCGCGCCGCTAGA\n"
                  ">long\n" + std::string(40, 'G') + "AAAA" + std::string(150, 'C') + "&" + std::string(7, 'G') + "UUUCCCAAGG\n");
  for (const std::string format : {"dotbracket", "pairs", "tsv", "json"}) {
    const auto gpu = gdp::test::run_program(GPU_FOLD_EXE, {"--interact", "--format", format, "--report", box.path("r.json"), pairs},
                                            box.dir());
    INFO(gpu.err);
    REQUIRE(gpu.status == 0);
    CHECK(gpu.out == box.run({"--interact", "--format", format, pairs}).out);
    CHECK_THAT(box.read("r.json"), Contains("\"backend\": \"gpu\"") && Contains("fill_seconds"));
    const auto windowed = gdp::test::run_program(GPU_FOLD_EXE, {"--interact", "--window", "5,20", "--format", format, pairs}, box.dir());
    REQUIRE(windowed.status == 0);
    CHECK(windowed.out == box.run({"--interact", "--window", "5,20", "--format", format, pairs}).out);
  }
}

TEST_CASE("gpu-fold: --tune sets the GPU engine's knobs and leaves the structures as they are", "[cli][fold]") {
  Sandbox box;
  const std::string in = box.write("rna.fa", ">hairpin\nGGGAAAUCC\n");
  const auto plain = box.run({in});
  const auto tuned = box.run({"--tune", "rounds=2", "--tune", "min_slice=512", in});
  INFO(tuned.err);
  REQUIRE(tuned.status == 0);
  REQUIRE(tuned.out == plain.out);
}

TEST_CASE("gpu-fold built without CUDA: a GPU asked for is one line saying so", "[cli][fold]") {
  if constexpr (gdp::have_cuda) return;
  Sandbox box;
  const std::string in = box.write("rna.fa", ">hairpin\nGGGAAAUCC\n");
  const auto r = gdp::test::run_program(GPU_FOLD_EXE, {"--engine", "gpu", in}, box.dir());
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("gpu-fold: error: --engine gpu needs a GPU: ") && Contains("no CUDA support; use --cpu"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  // Without --engine it folds on the CPU, saying so.
  const auto cpu = gdp::test::run_program(GPU_FOLD_EXE, {in}, box.dir());
  CHECK(cpu.status == 0);
  CHECK(cpu.out == box.run({in}).out);
}

TEST_CASE("gpu-fold on the GPU: long records one at a time, short ones many a launch, as --cpu folds them", "[cli][fold][gpu]") {
  if (gdp::test::skip_without_gpu()) return;
  Sandbox box;
  std::string fasta;
  unsigned x = 12345;
  for (int record = 0; record < 40; ++record) {  // one record of 1,300 bases, 39 short ones
    const int length = record == 7 ? 1300 : 20 + record * 7;
    fasta += ">r" + std::to_string(record) + "\n";
    for (int i = 0; i < length; ++i) fasta += "ACGU"[(x = x * 1103515245u + 12345u) >> 30];
    fasta += "\n";
  }
  const std::string in = box.write("many.fa", fasta);
  const auto gpu = gdp::test::run_program(GPU_FOLD_EXE, {"--format", "tsv", "--report", box.path("r.json"), in}, box.dir());
  INFO(gpu.err);
  REQUIRE(gpu.status == 0);
  const auto cpu = box.run({"--format", "tsv", in});
  REQUIRE(cpu.status == 0);
  CHECK(gpu.out == cpu.out);
  CHECK_THAT(box.read("r.json"), Contains("fill_seconds") && Contains("\"backend\": \"gpu\""));
}

TEST_CASE("gpu-fold does not load cuBLAS (it needs none): it starts at once", "[cli][fold]") {
  Sandbox box;
  const std::string libs = gdp::test::libraries_of(GPU_FOLD_EXE, box.dir());
  CHECK_THAT(libs, Contains("libc.so"));  // ldd listed them
  CHECK_THAT(libs, !Contains("libcublas"));
}

TEST_CASE("gpu-fold reads N and IUPAC's other codes as bases that pair with nothing, as RNAfold does N", "[cli][fold]") {
  Sandbox box;
  // GGG and CCC close around NNN: the hairpin holds; an N in the stem takes
  // its pair away; a record of codes alone has no pairs.
  const std::string in = box.write("iupac.fa", ">loop\nGGGNNNCCC\n>stem\nGNGAAACCC\n>codes\nNRYKMSWBDHVn\n");
  const auto dot = box.run({in});
  INFO(dot.err);
  REQUIRE(dot.status == 0);
  CHECK(dot.out == ">loop\nGGGNNNCCC\n(((...))) (3)\n>stem\nGNGAAACCC\n(.(....)) (2)\n>codes\nNRYKMSWBDHVN\n............ (0)\n");
  for (const std::string engine : {"cpu1", "cpu2", "omp2"})
    CHECK(box.run({"--engine", engine, in}).out == dot.out);
  const auto duplex = box.run({"--interact", box.write("duplex.fa", ">d\nGGGRYCCC&GGGNNNCCC\n")});
  INFO(duplex.err);
  CHECK(duplex.status == 0);
  CHECK_THAT(duplex.out, Contains("GGGRYCCC&GGGNNNCCC\n"));
}
