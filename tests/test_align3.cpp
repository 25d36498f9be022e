// The three-sequence oracle against brute force (every three-way alignment
// of tiny sequences enumerated), and the properties the issue names: with
// the third sequence empty the score is the pairwise global one with linear
// gaps less g times the other two lengths; permuting the inputs keeps the
// score; every alignment re-scores to its score and its rows give back the
// inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <optional>
#include <stdexcept>
#include <random>
#include <vector>

#include "align3/align3.hpp"
#include "align3/cpu/passes.hpp"
#include "align3/recurrence.hpp"
#include "align3_traced_cube.hpp"
#include "pairwise/pairwise.hpp"
#include "random_inputs.hpp"

using namespace gdp;

namespace {

using Seq = std::vector<std::uint8_t>;

// The best sum-of-pairs score by enumerating every sequence of columns.
int brute_align3(const Seq& a, const Seq& b, const Seq& c, const ScoringScheme& s, int gap) {
  int best = INT_MIN;
  auto walk = [&](auto&& self, std::size_t i, std::size_t j, std::size_t k, int score) -> void {
    if (i == a.size() && j == b.size() && k == c.size()) {
      best = std::max(best, score);
      return;
    }
    for (unsigned move = 1; move <= 7; ++move) {
      const bool da = move & 1u, db = move & 2u, dc = move & 4u;
      if ((da && i == a.size()) || (db && j == b.size()) || (dc && k == c.size())) continue;
      // Each pair of rows: two letters score, a letter against a gap costs g.
      int col = 0;
      const auto pair = [&](bool x, bool y, std::uint8_t lx, std::uint8_t ly) {
        if (x && y) col += s.score(lx, ly);
        else if (x || y) col -= gap;
      };
      pair(da, db, da ? a[i] : 0, db ? b[j] : 0);
      pair(da, dc, da ? a[i] : 0, dc ? c[k] : 0);
      pair(db, dc, db ? b[j] : 0, dc ? c[k] : 0);
      self(self, i + da, j + db, k + dc, score + col);
    }
  };
  walk(walk, 0, 0, 0, 0);
  return best;
}

std::vector<Seq> all_sequences(int length, int alphabet) {
  std::vector<Seq> out{{}};
  for (int x = 0; x < length; ++x) {
    std::vector<Seq> longer;
    for (const Seq& s : out)
      for (int l = 0; l < alphabet; ++l) {
        longer.push_back(s);
        longer.back().push_back(static_cast<std::uint8_t>(l));
      }
    out = longer;
  }
  return out;
}

// The oracle's score, the full cube's alignment and its re-scoring, equal.
int checked(const Seq& a, const Seq& b, const Seq& c, const ScoringScheme& s, int gap) {
  const int score = align3::score_scalar(a, b, c, s, gap);
  const align3::Alignment al = align3::align_full_cube(a, b, c, s, gap);
  REQUIRE(al.score == score);
  REQUIRE(align3::rescore(al, a, b, c, s, gap) == score);
  return score;
}

}  // namespace

TEST_CASE("align3: the oracle and the full cube equal brute force on every tiny triple", "[align3][brute]") {
  const ScoringScheme s = test::dna_scheme(2, -3, 0, 0);
  for (int gap : {0, 3})
    for (int la = 0; la <= 3; ++la)
      for (int lb = 0; lb <= 3; ++lb)
        for (int lc = 0; lc <= 3; ++lc)
          for (const Seq& a : all_sequences(la, 2))
            for (const Seq& b : all_sequences(lb, 2))
              for (const Seq& c : all_sequences(lc, 2)) {
                INFO("gap " << gap << " lengths " << la << " " << lb << " " << lc);
                REQUIRE(checked(a, b, c, s, gap) == brute_align3(a, b, c, s, gap));
              }
}

TEST_CASE("align3: the oracle equals brute force on random triples of up to 4 letters", "[align3][brute]") {
  std::mt19937 rng(81);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  std::uniform_int_distribution<int> length(0, 4), gap(0, 9);
  for (int trial = 0; trial < 60; ++trial) {
    const bool protein = trial % 3 == 2;
    const ScoringScheme& s = protein ? blosum : dna;
    const int letters = protein ? 20 : 4;
    const Seq a = test::random_ranks(rng, static_cast<std::size_t>(length(rng)), letters);
    const Seq b = test::random_ranks(rng, static_cast<std::size_t>(length(rng)), letters);
    const Seq c = test::random_ranks(rng, static_cast<std::size_t>(length(rng)), letters);
    const int g = gap(rng);
    INFO("trial " << trial);
    REQUIRE(checked(a, b, c, s, g) == brute_align3(a, b, c, s, g));
  }
}

TEST_CASE("align3: with the third sequence empty, the pairwise global score with linear gaps less g(|a|+|b|)",
          "[align3]") {
  std::mt19937 rng(82);
  for (int trial = 0; trial < 40; ++trial) {
    const int g = 1 + static_cast<int>(rng() % 8);
    const ScoringScheme s = test::dna_scheme(2, -3, 0, g);  // a gap of k letters costs k*g
    const Seq a = test::random_ranks(rng, 1 + rng() % 50, 4);
    const Seq b = trial % 2 ? test::mutate(rng, a, 4) : test::random_ranks(rng, 1 + rng() % 50, 4);
    if (b.empty()) continue;
    pairwise::Options global;
    global.mode = pairwise::Mode::global;
    global.score_only = true;
    const int pair = pairwise::align(a, b, s, global).score;
    INFO("trial " << trial);
    REQUIRE(checked(a, b, {}, s, g) == pair - g * static_cast<int>(a.size() + b.size()));
  }
}

TEST_CASE("align3: permuting the three sequences keeps the score; the rows give back the inputs", "[align3]") {
  std::mt19937 rng(83);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 30; ++trial) {
    const Seq a = test::random_ranks(rng, rng() % 40, 4);
    const Seq b = test::mutate(rng, a, 4, 0.2), c = test::mutate(rng, a, 4, 0.3);
    const int g = 4;
    const int score = checked(a, b, c, s, g);
    REQUIRE(checked(b, a, c, s, g) == score);
    REQUIRE(checked(c, b, a, s, g) == score);
    REQUIRE(checked(a, c, b, s, g) == score);
    const align3::Alignment al = align3::align_full_cube(a, b, c, s, g);
    const Seq* seqs[3] = {&a, &b, &c};
    for (int which = 0; which < 3; ++which) {
      std::string row = align3::row_of(al, which, *seqs[which], s.letters);
      REQUIRE(row.size() == al.moves.size());
      row.erase(std::remove(row.begin(), row.end(), '-'), row.end());
      std::string want;
      for (const std::uint8_t x : *seqs[which]) want += s.letters[x];
      REQUIRE(row == want);
    }
  }
}

TEST_CASE("align3: rescore refuses columns that do not cover the sequences", "[align3]") {
  const ScoringScheme s = test::dna_scheme();
  const Seq a{0, 1}, b{0, 1}, c{0};
  align3::Alignment al = align3::align_full_cube(a, b, c, s, 3);
  REQUIRE(align3::rescore(al, a, b, c, s, 3) == al.score);
  align3::Alignment short_one = al;
  short_one.moves.pop_back();
  REQUIRE_THROWS(align3::rescore(short_one, a, b, c, s, 3));
  align3::Alignment empty_column = al;
  empty_column.moves.push_back(0);
  REQUIRE_THROWS(align3::rescore(empty_column, a, b, c, s, 3));
}

TEST_CASE("align3: the kernels' form of the cell equals update_cell wherever a predecessor is finite", "[align3]") {
  std::mt19937 rng(83);
  std::uniform_int_distribution<int> value(-200000, 200000), sub(-12, 12), gap(0, 20), coin(0, 2);
  for (int trial = 0; trial < 200000; ++trial) {
    int prev[8];
    prev[0] = align3::neg_inf;
    bool finite = false;
    for (unsigned move = 1; move <= align3::kMoves; ++move) {
      prev[move] = coin(rng) == 0 ? align3::neg_inf : value(rng);
      finite = finite || prev[move] > align3::neg_inf;
    }
    if (!finite) prev[1 + rng() % 7] = value(rng);
    const int ab = sub(rng), ac = sub(rng), bc = sub(rng), g = gap(rng);
    unsigned from = 0;
    const int plain = align3::update_cell(prev, ab, ac, bc, g, from);
    using align3::kMoveA, align3::kMoveB, align3::kMoveC;
    const int all = align3::update_cell_all(prev[kMoveA], prev[kMoveB], prev[kMoveC], prev[kMoveA | kMoveB],
                                            prev[kMoveA | kMoveC], prev[kMoveB | kMoveC], prev[align3::kMoves], ab,
                                            ac, bc, 2 * g);
    INFO("trial " << trial);
    REQUIRE(all == plain);
  }
}

TEST_CASE("align3: the traced cell gives update_cell_all's H and the start of a predecessor that gives it", "[align3]") {
  std::mt19937 rng(86);
  std::uniform_int_distribution<int> value(-2000, 2000), sub(-4, 4), gap(0, 3), coin(0, 2);
  using align3::kMoveA, align3::kMoveB, align3::kMoveC;
  // The traced cell's order of predecessors: a, b, c, ab, ac, bc, abc.
  const unsigned order[7] = {kMoveA, kMoveB, kMoveC, kMoveA | kMoveB, kMoveA | kMoveC, kMoveB | kMoveC, align3::kMoves};
  for (int trial = 0; trial < 200000; ++trial) {
    int prev[8];
    prev[0] = align3::neg_inf;
    for (unsigned move = 1; move <= align3::kMoves; ++move) prev[move] = coin(rng) == 0 ? align3::neg_inf : value(rng);
    prev[1 + rng() % 7] = value(rng);  // one finite at least; small ranges for many ties
    const int ab = sub(rng), ac = sub(rng), bc = sub(rng), g = gap(rng);
    int h[7];
    for (int x = 0; x < 7; ++x) h[x] = prev[order[x]];
    int start = -1;
    const int traced = align3::update_cell_traced(h[0], h[1], h[2], h[3], h[4], h[5], h[6], ab, ac, bc, 2 * g, 100, 101,
                                                  102, 103, 104, 105, 106, start);
    INFO("trial " << trial);
    REQUIRE(traced == align3::update_cell_all(h[0], h[1], h[2], h[3], h[4], h[5], h[6], ab, ac, bc, 2 * g));
    int first = -1;
    for (int x = 0; x < 7 && first < 0; ++x)
      if (prev[order[x]] > align3::neg_inf && prev[order[x]] + align3::column_score(order[x], ab, ac, bc, g) == traced)
        first = 100 + x;
    REQUIRE(start == first);
  }
}

TEST_CASE("align3: the anti-diagonal planes (OpenMP) equal the oracle, the last layer cell by cell", "[align3]") {
  std::mt19937 rng(84);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 40; ++trial) {
    const Seq a = test::random_ranks(rng, rng() % 30, 4), b = test::random_ranks(rng, rng() % 30, 4),
              c = test::random_ranks(rng, rng() % 30, 4);
    const int g = 1 + static_cast<int>(rng() % 6);
    const std::vector<int> layer = align3::last_layer(a, b, c, s, g, 3);
    INFO("trial " << trial << " " << a.size() << " x " << b.size() << " x " << c.size());
    REQUIRE(layer.size() == (b.size() + 1) * (c.size() + 1));
    for (std::size_t j = 0; j <= b.size(); j += 1 + b.size() / 4)
      for (std::size_t k = 0; k <= c.size(); k += 1 + c.size() / 4) {
        const Seq bj(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(j)), ck(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(k));
        REQUIRE(layer[j * (c.size() + 1) + k] == align3::score_scalar(a, bj, ck, s, g));
      }
    REQUIRE(align3::score_wavefront(a, b, c, s, g, 2) == align3::score_scalar(a, b, c, s, g));
  }
}

TEST_CASE("align3: the linear-space alignment equals the oracle and re-scores to it", "[align3]") {
  std::mt19937 rng(85);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  for (int trial = 0; trial < 30; ++trial) {
    const bool protein = trial % 3 == 2;
    const ScoringScheme& s = protein ? blosum : dna;
    const int letters = protein ? 20 : 4;
    const Seq a = test::random_ranks(rng, rng() % 60, letters);
    const Seq b = test::mutate(rng, a, letters, 0.2), c = trial % 2 ? test::mutate(rng, a, letters, 0.3)
                                                                    : test::random_ranks(rng, rng() % 60, letters);
    const int g = protein ? 8 : 3;
    const int score = align3::score_scalar(a, b, c, s, g);
    for (const long long base : {1LL, 64LL, 1LL << 18}) {
      const align3::Alignment al = align3::align_linear(a, b, c, s, g, 2, base);
      INFO("trial " << trial << " parts of " << base);
      REQUIRE(al.score == score);
      REQUIRE(align3::rescore(al, a, b, c, s, g) == score);
    }
  }
}

TEST_CASE("align3: the traced cube's chain cuts an optimal path into pieces of a chunk at most", "[align3]") {
  std::mt19937 rng(87);
  const ScoringScheme dna = test::dna_scheme();
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {0, 0, 0}, {1, 1, 1}, {0, 40, 7}, {40, 0, 9}, {20, 40, 0}, {16, 32, 5}, {15, 31, 6}, {17, 33, 4},
      {40, 70, 20}, {1, 100, 10}, {50, 10, 60}, {33, 65, 12}, {64, 20, 30}, {15, 98, 22}, {47, 69, 19}};
  for (const auto& [la, lb, lc] : shapes)
    for (const int g : {0, 2, 5}) {
      const Seq a = test::random_ranks(rng, la, 4);
      Seq b = test::mutate(rng, a, 4, 0.2), c = test::mutate(rng, a, 4, 0.3);
      b.resize(lb), c.resize(lc);
      INFO(la << " x " << lb << " x " << lc << ", gap " << g);
      const std::vector<align3::CubePoint> points = test::traced_cube_chain(a, b, c, dna, g);
      REQUIRE(points.size() >= 2);
      REQUIRE(points.front() == align3::CubePoint{});
      REQUIRE(points.back() == align3::CubePoint{la, lb, lc});
      align3::Alignment whole;
      for (std::size_t x = 1; x < points.size(); ++x) {
        const align3::CubePoint from = points[x - 1], to = points[x];
        REQUIRE(to.i >= from.i);
        REQUIRE(to.j >= from.j);
        REQUIRE(to.k >= from.k);
        REQUIRE(to.i - from.i <= 16);  // from the row above a chunk to its last
        REQUIRE(to.j - from.j <= 32);
        const align3::Alignment piece =
            align3::align_full_cube(align3::Residues(a).subspan(from.i, to.i - from.i),
                                    align3::Residues(b).subspan(from.j, to.j - from.j),
                                    align3::Residues(c).subspan(from.k, to.k - from.k), dna, g);
        whole.score += piece.score;
        whole.moves.insert(whole.moves.end(), piece.moves.begin(), piece.moves.end());
      }
      const int oracle = align3::score_scalar(a, b, c, dna, g);
      CHECK(whole.score == oracle);
      CHECK(align3::rescore(whole, a, b, c, dna, g) == oracle);
    }
}

TEST_CASE("align3: the linear-space alignment cut by chains equals the oracle, chains declined included", "[align3]") {
  std::mt19937 rng(88);
  const ScoringScheme dna = test::dna_scheme();
  for (int trial = 0; trial < 12; ++trial) {
    const Seq a = test::random_ranks(rng, 20 + rng() % 60, 4);
    const Seq b = test::mutate(rng, a, 4, 0.2), c = test::mutate(rng, a, 4, 0.3);
    const int g = 1 + trial % 4;
    const align3::SplitPass split = align3::split_by_layers(
        [&](align3::Residues x, align3::Residues y, align3::Residues z) { return align3::last_layer(x, y, z, dna, g, 2); });
    // Declines cubes of more than `most` cells, as the GPU's does past its memory.
    const long long most = trial % 2 ? 1LL << 30 : 20000;
    int chained = 0;
    const align3::ChainPass chain = [&](align3::Residues x, align3::Residues y,
                                        align3::Residues z) -> std::optional<std::vector<align3::CubePoint>> {
      if (static_cast<long long>((x.size() + 1) * (y.size() + 1) * (z.size() + 1)) > most) return std::nullopt;
      ++chained;
      return test::traced_cube_chain(x, y, z, dna, g);
    };
    const align3::Alignment al = align3::align_linear(a, b, c, dna, g, split, chain, 64, 2);
    const int oracle = align3::score_scalar(a, b, c, dna, g);
    INFO("trial " << trial << ": " << a.size() << " x " << b.size() << " x " << c.size());
    CHECK(chained > 0);
    CHECK(al.score == oracle);
    CHECK(align3::rescore(al, a, b, c, dna, g) == oracle);
  }
  const Seq a = test::random_ranks(rng, 30, 4);
  const align3::SplitPass never_split = [](align3::Residues, align3::Residues, align3::Residues, align3::Residues) {
    return align3::SplitPoint{};
  };
  const align3::ChainPass backwards = [](align3::Residues x, align3::Residues y, align3::Residues z) {
    return std::optional<std::vector<align3::CubePoint>>{{{}, {x.size(), 0, 0}, {0, y.size(), z.size()}}};
  };
  REQUIRE_THROWS_AS(align3::align_linear(a, a, a, dna, 2, never_split, backwards, 64, 1), std::logic_error);
}

TEST_CASE("align3: the split's best sum through the middle layer is the cube's score", "[align3]") {
  std::mt19937 rng(91);
  const ScoringScheme dna = test::dna_scheme();
  for (int trial = 0; trial < 40; ++trial) {
    const Seq a = test::random_ranks(rng, 2 + rng() % 20, 4), b = test::random_ranks(rng, rng() % 20, 4),
              c = test::random_ranks(rng, rng() % 20, 4);
    const int gap = static_cast<int>(rng() % 6);
    const align3::SplitPass split = align3::split_by_layers(
        [&](align3::Residues x, align3::Residues y, align3::Residues z) { return align3::last_layer(x, y, z, dna, gap, 1); });
    const align3::Residues ra(a);
    INFO("trial " << trial);
    CHECK(split(ra.first(a.size() / 2), ra.subspan(a.size() / 2), b, c).sum == align3::score_scalar(a, b, c, dna, gap));
  }
}

TEST_CASE("align3: align on one thread and on several equals the oracle, past the full cube's parts", "[align3]") {
  std::mt19937 rng(89);
  const ScoringScheme dna = test::dna_scheme();
  for (const std::size_t n : {std::size_t{10}, std::size_t{70}}) {  // 70^3 cells: divided on several threads
    const Seq a = test::random_ranks(rng, n, 4);
    const Seq b = test::mutate(rng, a, 4, 0.2), c = test::mutate(rng, a, 4, 0.3);
    const int oracle = align3::score_scalar(a, b, c, dna, 4);
    for (const int threads : {1, 3}) {
      align3::Options o;
      o.backend = threads > 1 ? align3::Backend::cpu_openmp : align3::Backend::cpu_scalar;
      o.threads = threads;
      const align3::Alignment al = align3::align(a, b, c, dna, o);
      INFO(n << " letters, " << threads << " threads");
      CHECK(al.score == oracle);
      CHECK(align3::rescore(al, a, b, c, dna, 4) == oracle);
    }
  }
}
