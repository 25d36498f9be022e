// Nussinov folding: the oracle (CPU1) against every structure of tiny RNAs
// enumerated, the other engines against the oracle, and every returned
// structure checked for validity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/tune.hpp"
#include "fold/fold.hpp"
#include "fold/table.hpp"

using namespace gdp;
using namespace gdp::fold;

namespace {

// Options with `rules` and `threads`, the rest as they default.
Options options_of(const Rules& rules, int threads = 1) {
  Options o;
  o.rules = rules;
  o.threads = threads;
  return o;
}

// The most pairs over every non-crossing structure of s[i..j], enumerated
// without memory: base i is unpaired, or pairs with some allowed k.
int enumerate(const std::string& s, int i, int j, const Rules& r) {
  if (j - i < 1) return 0;
  int best = enumerate(s, i + 1, j, r);
  for (int k = i + r.min_loop + 1; k <= j; ++k)
    if (can_pair(s[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(k)], r))
      best = std::max(best, 1 + enumerate(s, i + 1, k - 1, r) + enumerate(s, k + 1, j, r));
  return best;
}

std::string random_rna(std::mt19937& rng, std::size_t n) {
  std::uniform_int_distribution<int> d(0, 3);
  std::string s(n, 'A');
  for (auto& c : s) c = "ACGU"[d(rng)];
  return s;
}

// Balanced, allowed pairs only, hairpins long enough, and as many pairs as
// reported.
void require_valid(const std::string& s, const Structure& st, const Rules& r) {
  REQUIRE(st.dot_bracket.size() == s.size());
  std::vector<std::size_t> open;
  int pairs = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (st.dot_bracket[i] == '(') open.push_back(i);
    if (st.dot_bracket[i] == ')') {
      REQUIRE_FALSE(open.empty());
      const std::size_t o = open.back();
      open.pop_back();
      REQUIRE(can_pair(s[o], s[i], r));
      REQUIRE(static_cast<int>(i - o - 1) >= r.min_loop);
      REQUIRE(st.partner[o] == static_cast<int>(i));
      ++pairs;
    }
  }
  REQUIRE(open.empty());
  REQUIRE(pairs == st.pairs);
}

}  // namespace

TEST_CASE("Nussinov oracle equals every structure enumerated", "[fold]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    const std::string s = random_rna(rng, static_cast<std::size_t>(round % 13));
    const Rules r{round % 3 != 0, round % 5};
    INFO(s << " min loop " << r.min_loop << " gu " << r.gu);
    const Structure st = fold_rna(s, Engine::cpu1, options_of(r));
    REQUIRE(st.pairs == enumerate(s, 0, static_cast<int>(s.size()) - 1, r));
    require_valid(s, st, r);
  }
}

TEST_CASE("Nussinov engines equal the oracle", "[fold]") {
  std::mt19937 rng(11);
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 31, 32, 33, 97, 128, 257, 400})
    for (int min_loop : {0, 1, 3, 4}) {
      const std::string s = random_rna(rng, n);
      const Rules r{n % 2 == 0, min_loop};
      const Structure oracle = fold_rna(s, Engine::cpu1, options_of(r));
      require_valid(s, oracle, r);
      for (Engine e : {Engine::cpu2, Engine::omp2})
        for (int threads : {1, 3}) {
          INFO("n " << n << " min loop " << min_loop << " engine " << to_string(e) << " threads " << threads);
          const Structure st = fold_rna(s, e, options_of(r, threads));
          REQUIRE(st.pairs == oracle.pairs);
          REQUIRE(st.dot_bracket == oracle.dot_bracket);
        }
    }
}

TEST_CASE("OMP2's tiles fill every cell as CPU2's diagonals do", "[fold]") {
  std::mt19937 rng(29);
  // Sides of 16 (the least), 25, 256 (the most) and between; tables of one
  // tile, of tiles that end at the table's edge and that do not.
  for (const int threads : {1, 2, 3, 16})
    for (const std::size_t n : {1, 2, 17, 100, 255, 256, 257, 400, 1000, 2100}) {
      if (n == 2100 && threads != 1) continue;  // sides of 256, the most
      const std::string s = random_rna(rng, n);
      const Options o = options_of(Rules{true, 3}, threads);
      const Table want = fill_cpu(s, Engine::cpu2, o), got = fill_cpu(s, Engine::omp2, o);
      INFO("n " << n << " threads " << threads);
      bool same = true;
      for (std::int64_t i = 0; i < want.n && same; ++i)
        for (std::int64_t j = i; j < want.n && same; ++j) same = want.at(i, j) == got.at(i, j);
      REQUIRE(same);
    }
}

TEST_CASE("Nussinov by hand, and bad letters", "[fold]") {
  // GGGAAAUCC: G-C, G-C, G-U around a hairpin of AAA (min loop 3).
  const Structure st = fold_rna("GGGAAAUCC", Engine::cpu1, options_of(Rules{}));
  REQUIRE(st.pairs == 3);
  REQUIRE(st.dot_bracket == "(((...)))");
  REQUIRE(fold_rna("GGGAAAUCC", Engine::cpu1, options_of(Rules{false, 3})).pairs == 2);  // no wobble pair
  REQUIRE(fold_rna("GAAAC", Engine::cpu1, options_of(Rules{true, 3})).pairs == 1);
  REQUIRE(fold_rna("GAAC", Engine::cpu1, options_of(Rules{true, 3})).pairs == 0);  // a loop of two is too short
  REQUIRE(fold_rna("GC", Engine::cpu1, options_of(Rules{true, 0})).pairs == 1);
  REQUIRE(fold_rna("GC", Engine::cpu1, options_of(Rules{true, 1})).pairs == 0);    // the dissertation's C(i,i+1) = 0
  REQUIRE_THROWS_AS(fold_rna("GGXCC", Engine::cpu1, options_of(Rules{})), InputError);
  REQUIRE(parse_engine("omp2") == Engine::omp2);
  REQUIRE(to_string(Engine::gpu) == "gpu");
  REQUIRE_THROWS_WITH(parse_engine("gpu9"), "unknown engine 'gpu9' (use cpu1, cpu2, omp2 or gpu)");
}

TEST_CASE("fold_all: each record on its engine, in the records' order", "[fold]") {
  std::mt19937 rng(13);
  std::vector<std::string> rnas;
  for (std::size_t n : {1, 2, 40, 600, 3, 511, 512, 90}) rnas.push_back(random_rna(rng, n));
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  const Rules r{true, 3};
  std::vector<Structure> want;
  for (const std::string& s : rnas) want.push_back(fold_rna(s, Engine::cpu1, options_of(r)));
  struct Case {
    std::optional<Engine> engine;
    int threads;
    std::string backend;
  };
  for (const Case& c : {Case{std::nullopt, 3, "omp2+cpu2"}, Case{std::nullopt, 1, "omp2+cpu2"}, Case{Engine::cpu1, 2, "cpu1"},
                        Case{Engine::omp2, 2, "omp2"}}) {
    INFO("backend " << c.backend << " threads " << c.threads);
    AllOptions all;
    all.options = options_of(r, c.threads);
    all.engine = c.engine;
    const AllResult got = fold_all(views, all);
    REQUIRE(got.backend == c.backend);
    REQUIRE_FALSE(got.gpu_started);
    REQUIRE(got.gpu.fill_seconds == 0);
    REQUIRE(got.structures.size() == rnas.size());
    for (std::size_t x = 0; x < rnas.size(); ++x) REQUIRE(got.structures[x].dot_bracket == want[x].dot_bracket);
    REQUIRE(got.operations == Approx((1.0 + 8 + 40 * 40 * 40 + 600.0 * 600 * 600 + 27 + 511.0 * 511 * 511 +
                                      512.0 * 512 * 512 + 90 * 90 * 90) / 6));
  }
  REQUIRE(fold_all({}, {}).structures.empty());
}

TEST_CASE("fold_all: N and the other IUPAC codes never pair; a bad letter is the record's error, before any fold", "[fold]") {
  std::mt19937 rng(17);
  std::vector<std::string> rnas;
  for (std::size_t n : {12, 40, 600, 90}) {
    std::string s = random_rna(rng, n);
    for (std::size_t x = 0; x < n; x += 5) s[x] = kUnpairedBases[x % kUnpairedBases.size()];
    rnas.push_back(s);
  }
  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  AllOptions all;
  all.options = options_of(Rules{true, 3}, 2);
  const AllResult got = fold_all(views, all);
  for (std::size_t r = 0; r < rnas.size(); ++r) {
    REQUIRE(got.structures[r].dot_bracket == fold_rna(rnas[r], Engine::cpu1, all.options).dot_bracket);
    for (std::size_t x = 0; x < rnas[r].size(); x += 5) REQUIRE(got.structures[r].partner[x] == -1);
  }
  // A bad letter in a short record, which would fold on a thread of its own: the record's error.
  rnas[1][7] = 'X';
  const std::vector<std::string_view> bad(rnas.begin(), rnas.end());
  try {
    fold_all(bad, all);
    FAIL("no error");
  } catch (const RecordError& e) {
    CHECK(e.record == 1);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("letter 'X' at position 8"));
  }
}

TEST_CASE("the GPU engine's --tune keys, and the GPU engine in a build without CUDA", "[fold]") {
  GpuTuning t;
  REQUIRE(t.rounds == 8);
  REQUIRE(t.min_slice == 256);
  apply_tune(t, gpu_tune_keys, {"rounds=3", "min_slice=64"});
  REQUIRE(t.rounds == 3);
  REQUIRE(t.min_slice == 64);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"rounds=0"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"min_slice=15"}), InputError);
  REQUIRE_THROWS_WITH(apply_tune(t, gpu_tune_keys, {"nosuchkey=1"}),
                      "--tune: unknown key 'nosuchkey' (known: rounds, min_slice)");
  if constexpr (!have_cuda) {
    REQUIRE_THROWS_WITH(fold_rna("GGGAAAUCC", Engine::gpu, {}), Catch::Matchers::Contains("no CUDA support; use --cpu"));
    REQUIRE_THROWS_WITH(fold_rnas_gpu({"GGGAAAUCC"}, {}), Catch::Matchers::Contains("no CUDA support; use --cpu"));
    AllOptions all;
    all.engine = Engine::gpu;
    REQUIRE_THROWS_WITH(fold_all({"GGGAAAUCC"}, all), Catch::Matchers::Contains("no CUDA support; use --cpu"));
  }
}

TEST_CASE("packed tables hold the strict upper triangle, row after row, each cell once", "[fold]") {
  for (std::int64_t n : {0, 1, 2, 3, 7, 300}) {
    Table t = packed_table(n, 2);
    const std::int64_t cells = Table::packed_cells(n);
    std::vector<int> written(static_cast<std::size_t>(cells), 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j) {
        const std::int64_t at = Table::row_start(n, i) + j - i - 1;
        REQUIRE((at >= 0 && at < cells));
        ++written[static_cast<std::size_t>(at)];
        t.packed[static_cast<std::size_t>(at)] = static_cast<std::uint16_t>((i * 131 + j) % 65536);
      }
    REQUIRE(std::all_of(written.begin(), written.end(), [](int w) { return w == 1; }));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) REQUIRE(t.at(i, j) == (j <= i ? 0 : static_cast<int>((i * 131 + j) % 65536)));
  }
}
