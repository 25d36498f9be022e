// The syntenic engine's oracle against brute force (every syntenic alignment
// of tiny pairs enumerated), the full-matrix traceback against the oracle,
// and the properties the issue names: with a prohibitive block penalty the
// score is the global one (less the end charges), and every alignment
// re-scores to its score and covers both sequences once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <vector>

#include "brute_force.hpp"
#include "pairwise/pairwise.hpp"
#include "random_inputs.hpp"
#include "syntenic/cpu/passes.hpp"
#include "syntenic/syntenic_cell.hpp"
#include "syntenic/syntenic.hpp"

using namespace gdp;
using syntenic::Ends;

namespace {

using Seq = std::vector<std::uint8_t>;

// The best syntenic alignment of a and b by enumeration: a sequence of
// columns and difference blocks, each block any non-empty choice of the
// next letters of a, b or both; gap runs maximal, blocks adjacent allowed
// (never better than one block). End charges as the header says.
int brute_syntenic(const Seq& a, const Seq& b, const ScoringScheme& s, int d, Ends ends) {
  enum Last { none, pair, qgap, tgap, block };
  int best = INT_MIN;
  auto walk = [&](auto&& self, std::size_t i, std::size_t j, Last first, Last last, int score) -> void {
    if (i == a.size() && j == b.size()) {
      if (ends == Ends::charged) score -= (first == block ? 0 : d) + (last == block ? 0 : d);
      best = std::max(best, score);
      return;
    }
    const auto next = [&](Last kind) { return first == none ? kind : first; };
    if (i < a.size() && j < b.size()) self(self, i + 1, j + 1, next(pair), pair, score + s.score(a[i], b[j]));
    if (i < a.size()) self(self, i + 1, j, next(qgap), qgap, score - s.gap_extend - (last == qgap ? 0 : s.gap_open));
    if (j < b.size()) self(self, i, j + 1, next(tgap), tgap, score - s.gap_extend - (last == tgap ? 0 : s.gap_open));
    for (std::size_t p = 0; i + p <= a.size(); ++p)
      for (std::size_t q = 0; j + q <= b.size(); ++q)
        if (p + q > 0) self(self, i + p, j + q, next(block), block, score - d);
  };
  walk(walk, 0, 0, none, none, 0);
  return best;
}

syntenic::Options options_of(int d, Ends ends) {
  syntenic::Options o;
  o.block_penalty = d;
  o.ends = ends;
  return o;
}

// The oracle's score, the full matrix's alignment, and its re-scoring, all
// equal; returns the score.
int checked_score(const Seq& a, const Seq& b, const ScoringScheme& s, const syntenic::Options& o) {
  const syntenic::Costs c = syntenic::costs_of(s, o);
  const syntenic::LastCell last = syntenic::score_scalar(a, b, s, c);
  const int score = syntenic::final_score(c, last.s, last.h);
  const syntenic::Alignment al = syntenic::align_full_matrix(a, b, s, c);
  REQUIRE(al.score == score);
  REQUIRE(syntenic::rescore(al, a, b, s, o) == score);
  for (const std::int64_t base : {1, 6, 1 << 16}) {  // every part split down to a row, or none
    const syntenic::Alignment linear = syntenic::align_linear(a, b, s, c, o, base);
    INFO("linear space, parts of " << base << " cells");
    REQUIRE(linear.score == score);
    REQUIRE(syntenic::rescore(linear, a, b, s, o) == score);
  }
  REQUIRE(syntenic::align(a, b, s, o).score == score);
  syntenic::Options score_only = o;
  score_only.score_only = true;
  REQUIRE(syntenic::align(a, b, s, score_only).score == score);
  return score;
}

// Every sequence of `length` letters over `alphabet` letters.
std::vector<Seq> all_sequences(int length, int alphabet) {
  std::vector<Seq> out{{}};
  for (int k = 0; k < length; ++k) {
    std::vector<Seq> longer;
    for (const Seq& s : out)
      for (int x = 0; x < alphabet; ++x) {
        longer.push_back(s);
        longer.back().push_back(static_cast<std::uint8_t>(x));
      }
    out = longer;
  }
  return out;
}

// The strip engine's order of work on the CPU: the matrix in strips of Cols
// columns, each swept top to bottom through SyntenicCell::row, the right
// edge of one strip the left edge of the next. Columns past the target
// score -1000, as the kernels' padding does.
template <int Cols>
syntenic::LastCell strip_sweep(const Seq& a, const Seq& b, const ScoringScheme& s, const syntenic::Costs& costs) {
  using Cell = syntenic::SyntenicCell;
  const syntenic::GpuCosts c{costs, nullptr};
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  std::vector<syntenic::Edge> edge(static_cast<std::size_t>(m + 1));
  for (std::int64_t i = 1; i <= m; ++i) edge[static_cast<std::size_t>(i)] = Cell::left(c, i);
  syntenic::LastCell last{};
  for (std::int64_t j0 = 0; j0 < n; j0 += Cols) {
    syntenic::Down d[Cols];
    for (int k = 0; k < Cols; ++k) d[k] = Cell::top(c, j0 + k + 1);
    int diag = Cell::score(Cell::top(c, j0));
    for (std::int64_t i = 1; i <= m; ++i) {
      int sc[Cols];
      for (int k = 0; k < Cols; ++k)
        sc[k] = j0 + k < n ? s.score(a[static_cast<std::size_t>(i - 1)], b[static_cast<std::size_t>(j0 + k)]) : -1000;
      syntenic::Edge& e = edge[static_cast<std::size_t>(i)];
      const int next_diag = Cell::score(e);
      Cell::row<Cols>(d, sc, e, diag, c, [](int, const syntenic::Down&, const syntenic::Down&) {});
      diag = next_diag;
    }
    if (j0 + Cols >= n) last = {d[n - 1 - j0].s, d[n - 1 - j0].h};
  }
  return last;
}

// The chunked traceback's order of work on the CPU: the direction bits of
// every cell made by SyntenicCell::row in strips of Cols columns (the
// words a recomputed chunk holds), then one walk back from (m, n) by the
// policy's step_back, the border as the full matrix finishes it.
template <int Cols>
syntenic::Alignment strip_traceback(const Seq& a, const Seq& b, const ScoringScheme& s, const syntenic::Costs& costs) {
  using Cell = syntenic::SyntenicCell;
  const syntenic::GpuCosts c{costs, nullptr};
  const std::int64_t m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
  const std::int64_t strips = (n + Cols - 1) / Cols;
  std::vector<Cell::DirWord> words(static_cast<std::size_t>((m + 1) * strips));
  std::vector<syntenic::Edge> edge(static_cast<std::size_t>(m + 1));
  for (std::int64_t i = 1; i <= m; ++i) edge[static_cast<std::size_t>(i)] = Cell::left(c, i);
  syntenic::LastCell last{};
  for (std::int64_t k = 0; k < strips; ++k) {
    const std::int64_t j0 = k * Cols;
    syntenic::Down d[Cols];
    for (int x = 0; x < Cols; ++x) d[x] = Cell::top(c, j0 + x + 1);
    int diag = Cell::score(Cell::top(c, j0));
    Cell::TraceCarry carry = Cell::carry_of(d, c);
    for (std::int64_t i = 1; i <= m; ++i) {
      int sc[Cols];
      for (int x = 0; x < Cols; ++x)
        sc[x] = j0 + x < n ? s.score(a[static_cast<std::size_t>(i - 1)], b[static_cast<std::size_t>(j0 + x)]) : -1000;
      syntenic::Edge& e = edge[static_cast<std::size_t>(i)];
      const int next_diag = Cell::score(e);
      Cell::row<Cols, true>(d, sc, e, diag, c, [](int, const syntenic::Down&, const syntenic::Down&) {},
                            &words[static_cast<std::size_t>(i * strips + k)], &carry);
      diag = next_diag;
    }
    if (j0 + Cols >= n) last = {d[n - 1 - j0].s, d[n - 1 - j0].h};
  }
  if (m == 0) last = {Cell::top(c, n).s, Cell::top(c, n).h};
  syntenic::Alignment out{syntenic::final_score(c, last.s, last.h), m, n, {}};
  int state = c.charged && last.h > last.s - c.block ? syntenic::in_h : syntenic::in_s;
  std::vector<syntenic::Step> back;
  std::int64_t i = m, j = n;
  while (i > 0 && j > 0) {
    const std::int64_t k = (j - 1) / Cols, x = (j - 1) % Cols;
    const auto bits = static_cast<unsigned>(words[static_cast<std::size_t>(i * strips + k)] >> (Cell::kDirBits * x)) &
                      ((1u << Cell::kDirBits) - 1);
    // As the GPU's walk records a move, and the host reads it back.
    const Cell::Move move = Cell::step_back(state, bits);
    const char op = Cell::trace_op(move, nullptr, nullptr, 0, 0);
    if (op) back.push_back(syntenic::step_of_op(op));
    int ii = static_cast<int>(i), jj = static_cast<int>(j);
    Cell::move_back(move, ii, jj);
    i = ii, j = jj;
  }
  const std::int64_t rest = std::max(i, j);
  const bool gap_run = state == syntenic::in_d || state == syntenic::in_i ||
                       (state == syntenic::in_s && syntenic::leading_gap(c, rest) >= -c.block);
  for (std::int64_t x = 0; x < rest; ++x)
    back.push_back({j == 0 ? (gap_run ? syntenic::Step::query_gap : syntenic::Step::block_query)
                           : (gap_run ? syntenic::Step::target_gap : syntenic::Step::block_target)});
  if (rest > 0 && !gap_run) back.back().starts = true;
  out.regions = syntenic::regions_of({back.rbegin(), back.rend()}, a, b, s, c);
  return out;
}

bool same_regions(const syntenic::Alignment& x, const syntenic::Alignment& y) {
  if (x.regions.size() != y.regions.size()) return false;
  for (std::size_t r = 0; r < x.regions.size(); ++r) {
    const syntenic::Region &p = x.regions[r], &q = y.regions[r];
    if (p.block != q.block || p.query_begin != q.query_begin || p.query_end != q.query_end ||
        p.target_begin != q.target_begin || p.target_end != q.target_end || p.score != q.score ||
        pairwise::cigar_string(p.cigar) != pairwise::cigar_string(q.cigar))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("syntenic: the cell policy's direction bits and step_back, in strips, give the full matrix's alignment", "[syntenic]") {
  std::mt19937 rng(59);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 80; ++trial) {
    Seq a = test::random_ranks(rng, 1 + rng() % 90, 4);
    Seq b = trial % 2 ? test::mutate(rng, a, 4, 0.2) : test::random_ranks(rng, 1 + rng() % 90, 4);
    const Seq junk = test::random_ranks(rng, rng() % 40, 4);
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(b.size() / 2), junk.begin(), junk.end());
    if (b.empty()) continue;
    const syntenic::Options o = options_of(static_cast<int>(rng() % 40), trial % 3 ? Ends::charged : Ends::plain);
    const syntenic::Costs c = syntenic::costs_of(s, o);
    const syntenic::Alignment want = syntenic::align_full_matrix(a, b, s, c);
    const syntenic::Alignment eight = strip_traceback<8>(a, b, s, c), three = strip_traceback<3>(a, b, s, c);
    INFO("trial " << trial << " " << a.size() << " x " << b.size());
    REQUIRE(eight.score == want.score);
    REQUIRE(three.score == want.score);
    REQUIRE(syntenic::rescore(eight, a, b, s, o) == want.score);
    REQUIRE(same_regions(eight, want));
    REQUIRE(same_regions(three, want));
  }
}

TEST_CASE("syntenic: the cell policy swept in strips equals the oracle", "[syntenic]") {
  std::mt19937 rng(60);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 100; ++trial) {
    const Seq a = test::random_ranks(rng, 1 + rng() % 70, 4);
    const Seq b = trial % 2 ? test::mutate(rng, a, 4, 0.3) : test::random_ranks(rng, 1 + rng() % 70, 4);
    if (b.empty()) continue;
    const syntenic::Costs c = syntenic::costs_of(s, options_of(static_cast<int>(rng() % 30), trial % 3 ? Ends::charged : Ends::plain));
    const syntenic::LastCell want = syntenic::score_scalar(a, b, s, c);
    const syntenic::LastCell eight = strip_sweep<8>(a, b, s, c), three = strip_sweep<3>(a, b, s, c);
    INFO("trial " << trial);
    REQUIRE(eight.s == want.s);
    REQUIRE(eight.h == want.h);
    REQUIRE(three.s == want.s);
    REQUIRE(three.h == want.h);
  }
}

TEST_CASE("syntenic: the oracle and the full matrix equal brute force on every tiny pair", "[syntenic][brute]") {
  const ScoringScheme s = test::dna_scheme(2, -3, 3, 1);
  for (const Ends ends : {Ends::charged, Ends::plain})
    for (int d : {0, 2, 5, 9})
      for (int la = 0; la <= 3; ++la)
        for (int lb = 0; lb <= 3; ++lb)
          for (const Seq& a : all_sequences(la, 2))
            for (const Seq& b : all_sequences(lb, 2)) {
              INFO("d " << d << " ends " << syntenic::to_string(ends) << " |a| " << la << " |b| " << lb);
              REQUIRE(checked_score(a, b, s, options_of(d, ends)) == brute_syntenic(a, b, s, d, ends));
            }
}

TEST_CASE("syntenic: the oracle equals brute force on random small pairs and costs", "[syntenic][brute]") {
  std::mt19937 rng(61);
  std::uniform_int_distribution<int> length(0, 6), cost(0, 6), penalty(0, 14);
  for (int trial = 0; trial < 300; ++trial) {
    const ScoringScheme s = test::dna_scheme(1 + cost(rng) / 2, -1 - cost(rng), cost(rng), cost(rng) / 2);
    const Seq a = test::random_ranks(rng, static_cast<std::size_t>(length(rng)), 4);
    const Seq b = test::random_ranks(rng, static_cast<std::size_t>(length(rng)), 4);
    const int d = penalty(rng);
    const Ends ends = trial % 2 ? Ends::plain : Ends::charged;
    INFO("trial " << trial);
    REQUIRE(checked_score(a, b, s, options_of(d, ends)) == brute_syntenic(a, b, s, d, ends));
  }
}

TEST_CASE("syntenic: with a prohibitive block penalty the score is the global one", "[syntenic]") {
  std::mt19937 rng(62);
  const ScoringScheme s = test::dna_scheme();
  pairwise::Options global;
  global.mode = pairwise::Mode::global;
  global.score_only = true;
  for (int trial = 0; trial < 40; ++trial) {
    const Seq a = test::random_ranks(rng, 1 + rng() % 60, 4);
    const Seq b = trial % 2 ? test::mutate(rng, a, 4) : test::random_ranks(rng, 1 + rng() % 60, 4);
    if (b.empty()) continue;
    const int g = pairwise::align(a, b, s, global).score;
    // More than any alignment could gain by a block: every letter's worst cost.
    const int d = static_cast<int>((a.size() + b.size()) * 10 + 20);
    INFO("trial " << trial);
    REQUIRE(checked_score(a, b, s, options_of(d, Ends::plain)) == g);
    REQUIRE(checked_score(a, b, s, options_of(d, Ends::charged)) == std::max(g - 2 * d, -d));
  }
}

TEST_CASE("syntenic: homologous regions split by unrelated stretches align as regions and blocks", "[syntenic]") {
  std::mt19937 rng(63);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 20; ++trial) {
    const Seq left = test::random_ranks(rng, 80 + rng() % 40, 4), right = test::random_ranks(rng, 80 + rng() % 40, 4);
    Seq a = left, b = test::mutate(rng, left, 4, 0.05);
    const Seq junk_a = test::random_ranks(rng, 80 + rng() % 50, 4), junk_b = test::random_ranks(rng, rng() % 60, 4);
    a.insert(a.end(), junk_a.begin(), junk_a.end());
    b.insert(b.end(), junk_b.begin(), junk_b.end());
    const Seq right_b = test::mutate(rng, right, 4, 0.05);
    a.insert(a.end(), right.begin(), right.end());
    b.insert(b.end(), right_b.begin(), right_b.end());
    for (const Ends ends : {Ends::charged, Ends::plain}) {
      const syntenic::Options o = options_of(40, ends);
      const int score = checked_score(a, b, s, o);
      const syntenic::Alignment al = syntenic::align(a, b, s, o);
      INFO("trial " << trial << " ends " << syntenic::to_string(ends));
      REQUIRE(al.score == score);
      REQUIRE(std::any_of(al.regions.begin(), al.regions.end(), [](const syntenic::Region& r) { return r.block; }));
      REQUIRE(std::count_if(al.regions.begin(), al.regions.end(), [](const syntenic::Region& r) { return !r.block; }) >= 2);
    }
  }
}

TEST_CASE("syntenic: rescore refuses regions that do not cover both sequences", "[syntenic]") {
  const ScoringScheme s = test::dna_scheme();
  const Seq a{0, 1, 2, 3}, b{0, 1, 2, 3};
  const syntenic::Options o = options_of(1, Ends::charged);
  syntenic::Alignment al = syntenic::align(a, b, s, o);
  REQUIRE(al.regions.size() == 1);
  REQUIRE_FALSE(al.regions.front().block);
  REQUIRE(syntenic::rescore(al, a, b, s, o) == al.score);
  syntenic::Alignment short_one = al;
  short_one.regions.back().cigar.back().length -= 1;
  REQUIRE_THROWS(syntenic::rescore(short_one, a, b, s, o));
  syntenic::Alignment gap = al;
  gap.regions.front().query_begin = 1;
  REQUIRE_THROWS(syntenic::rescore(gap, a, b, s, o));
  syntenic::Alignment wrong_score = al;
  wrong_score.regions.front().score += 1;
  REQUIRE_THROWS(syntenic::rescore(wrong_score, a, b, s, o));
}

TEST_CASE("syntenic: the linear-space alignment equals the oracle on larger random pairs", "[syntenic]") {
  std::mt19937 rng(65);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  for (int trial = 0; trial < 40; ++trial) {
    const bool protein = trial % 4 == 3;
    const ScoringScheme& s = protein ? blosum : dna;
    const int letters = protein ? 20 : 4;
    Seq a = test::random_ranks(rng, 1 + rng() % 400, letters);
    Seq b = test::mutate(rng, a, letters, 0.1);
    const Seq junk = test::random_ranks(rng, rng() % 150, letters);
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(b.size() / 2), junk.begin(), junk.end());
    if (trial % 5 == 0) std::swap(a, b);
    syntenic::Options o = options_of(static_cast<int>(rng() % 80), trial % 2 ? Ends::plain : Ends::charged);
    if (trial % 3 == 0) o.backend = syntenic::Backend::cpu_openmp, o.threads = 3;
    const syntenic::Costs c = syntenic::costs_of(s, o);
    const syntenic::LastCell last = syntenic::score_scalar(a, b, s, c);
    const int score = syntenic::final_score(c, last.s, last.h);
    for (const std::int64_t base : {1, 64, 4096}) {
      const syntenic::Alignment al = syntenic::align_linear(a, b, s, c, o, base);
      INFO("trial " << trial << " " << a.size() << " x " << b.size() << " parts of " << base);
      REQUIRE(al.score == score);
      REQUIRE(syntenic::rescore(al, a, b, s, o) == score);
    }
  }
}

TEST_CASE("syntenic: the linear-space alignment on several threads, its small parts side by side, is one thread's", "[syntenic]") {
  // Pairs over the tiles' 4e6 cells: the first divisions run on the
  // threads' tiles, the parts below them are set aside and aligned side by
  // side, and their steps and scores joined in the path's order.
  std::mt19937 rng(67);
  const ScoringScheme s = test::dna_scheme();
  for (const auto& [m, junk] : std::vector<std::pair<std::size_t, std::size_t>>{{2100, 300}, {3000, 900}, {4500, 0}}) {
    Seq a = test::random_ranks(rng, m, 4);
    Seq b = test::mutate(rng, a, 4, 0.08);
    const Seq stretch = test::random_ranks(rng, junk, 4);
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(b.size() / 3), stretch.begin(), stretch.end());
    for (const Ends ends : {Ends::charged, Ends::plain}) {
      syntenic::Options one = options_of(40, ends);
      const syntenic::Costs c = syntenic::costs_of(s, one);
      const syntenic::Alignment want = syntenic::align_linear(a, b, s, c, one);
      for (const int threads : {2, 5}) {
        syntenic::Options many = one;
        many.backend = syntenic::Backend::cpu_openmp, many.threads = threads;
        const syntenic::Alignment got = syntenic::align_linear(a, b, s, c, many);
        INFO(a.size() << " x " << b.size() << ", " << threads << " threads");
        const syntenic::LastCell last = syntenic::score_scalar(a, b, s, c);
        REQUIRE(got.score == syntenic::final_score(c, last.s, last.h));
        REQUIRE(got.score == want.score);
        REQUIRE(syntenic::rescore(got, a, b, s, many) == got.score);
        REQUIRE(got.regions.size() == want.regions.size());
        for (std::size_t r = 0; r < got.regions.size(); ++r) {
          const syntenic::Region &x = got.regions[r], &y = want.regions[r];
          REQUIRE(x.block == y.block);
          REQUIRE(x.query_begin == y.query_begin);
          REQUIRE(x.target_end == y.target_end);
          REQUIRE(pairwise::cigar_string(x.cigar) == pairwise::cigar_string(y.cigar));
        }
      }
    }
  }
}

TEST_CASE("syntenic: every entry's borders, swept by the OpenMP tiles, equal the scalar sweep", "[syntenic]") {
  std::mt19937 rng(66);
  const ScoringScheme s = test::dna_scheme();
  const syntenic::Costs c = syntenic::costs_of(s, options_of(30, Ends::charged));
  for (int trial = 0; trial < 30; ++trial) {
    const Seq a = test::random_ranks(rng, rng() % 200, 4), b = test::random_ranks(rng, rng() % 200, 4);
    for (const syntenic::Entry entry : {syntenic::Entry::start, syntenic::Entry::clean, syntenic::Entry::gap, syntenic::Entry::block}) {
      const syntenic::Borders borders = syntenic::borders_of(entry, a.size(), b.size(), c);
      const std::vector<syntenic::Down> want = syntenic::last_row_tiled(a, b, s, c, borders, 1, nullptr, 1 << 20);
      const std::vector<syntenic::Down> got = syntenic::last_row_tiled(a, b, s, c, borders, 3, nullptr, 16);
      INFO("trial " << trial << " entry " << static_cast<int>(entry));
      REQUIRE(got.size() == b.size() + 1);
      for (std::size_t j = 0; j <= b.size(); ++j) {
        REQUIRE(got[j].s == want[j].s);
        REQUIRE(got[j].d == want[j].d);
        REQUIRE(got[j].h == want[j].h);
      }
    }
  }
}

TEST_CASE("syntenic: the OpenMP tiles equal the oracle on random shapes", "[syntenic]") {
  std::mt19937 rng(64);
  const ScoringScheme s = test::dna_scheme();
  for (int trial = 0; trial < 60; ++trial) {
    const Seq a = test::random_ranks(rng, 1 + rng() % 300, 4);
    const Seq b = trial % 3 ? test::mutate(rng, a, 4, 0.2) : test::random_ranks(rng, 1 + rng() % 300, 4);
    const syntenic::Options o = options_of(static_cast<int>(rng() % 60), trial % 2 ? Ends::plain : Ends::charged);
    const syntenic::Costs c = syntenic::costs_of(s, o);
    const syntenic::LastCell oracle = syntenic::score_scalar(a, b, s, c);
    for (const std::int64_t side : {1, 7, 64}) {
      const syntenic::LastCell tiled = syntenic::score_tiled(a, b, s, c, 4, nullptr, side);
      INFO("trial " << trial << " side " << side);
      REQUIRE(tiled.s == oracle.s);
      REQUIRE(tiled.h == oracle.h);
    }
  }
}
