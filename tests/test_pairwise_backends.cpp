// Every faster path equals the scalar oracle: the tiled OpenMP pass (score,
// end cell, last row), the linear-space alignment against the full matrix,
// and the batch driver.
#include <catch2/catch.hpp>

#include "core/progress.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

const Mode all_modes[] = {Mode::local, Mode::global, Mode::semiglobal};

// Shapes the passes must survive: tiny, prime, multiples of the tile and one
// either side, and very unequal.
std::vector<std::pair<std::size_t, std::size_t>> shapes(std::int64_t tile) {
  const std::size_t k = static_cast<std::size_t>(tile);
  return {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {k, k}, {k - 1, k + 1}, {k + 1, k - 1}, {2 * k, 3 * k},
          {2 * k + 1, 3 * k - 1}, {31, 37}, {97, 13}, {1, 200}, {200, 1}, {3, 301}, {250, 7}, {101, 103}};
}

}  // namespace

TEST_CASE("tiled OpenMP pass equals the scalar oracle, ties and last row included", "[pairwise][backends]") {
  std::mt19937 rng(2024);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  for (std::int64_t tile : {1, 2, 3, 8, 16, 33})
    for (auto [m, n] : shapes(tile))
      for (int threads : {1, 2, 3})
        for (Mode mode : all_modes) {
          const bool protein = (m + n + static_cast<std::size_t>(tile)) % 2 == 0;
          const ScoringScheme& s = protein ? blosum : dna;
          const int alphabet = protein ? 20 : (tile % 2 ? 2 : 4);  // 2 letters: many ties
          const auto q = test::random_ranks(rng, m, alphabet);
          const auto t = rng() % 2 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, n, alphabet);
          for (const Shape& shape : {shape_of(mode, s), Shape{false, false, 0, End::anywhere},
                                     Shape{false, false, s.gap_open, End::last_row}}) {
            INFO("tile " << tile << " m " << q.size() << " n " << t.size() << " threads " << threads << " mode "
                         << to_string(mode));
            std::vector<int> h1(t.size() + 1), f1(t.size() + 1), h2(t.size() + 1), f2(t.size() + 1);
            const PassResult a = score_pass_scalar(q, t, s, shape, LastRow{h1.data(), f1.data()});
            const PassResult b = score_pass_tiled(q, t, s, shape, threads, LastRow{h2.data(), f2.data()}, nullptr, {.tile_side = tile});
            REQUIRE(a.score == b.score);
            REQUIRE(a.end_i == b.end_i);
            REQUIRE(a.end_j == b.end_j);
            REQUIRE(h1 == h2);
            REQUIRE(f1 == f2);
          }
        }
}

TEST_CASE("pruned local passes on tiles keep the oracle's score and end cell", "[pairwise][backends]") {
  // Similar pairs (high scores: many tiles pruned), random ones (few), and
  // two-letter ones (many ties), on tiles of many sizes and 1 to 3 threads.
  std::mt19937 rng(314);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  std::int64_t pruned_in_all = 0;
  for (int round = 0; round < 60; ++round) {
    const bool protein = round % 3 == 0;
    const ScoringScheme& s = protein ? blosum : dna;
    const int alphabet = protein ? 20 : (round % 3 == 1 ? 2 : 4);
    const std::size_t m = 50 + rng() % 900;
    const auto q = test::random_ranks(rng, m, alphabet);
    auto t = round % 2 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, 50 + rng() % 900, alphabet);
    if (round % 4 == 1) t.insert(t.begin(), q.begin(), q.begin() + static_cast<std::ptrdiff_t>(m / 2));  // shifted
    const std::int64_t tile = std::int64_t{1} << (2 + round % 5);
    const int threads = 1 + round % 3;
    const Shape local = shape_of(Mode::local, s);
    const PassResult want = score_pass_scalar(q, t, s, local);
    std::int64_t pruned = -1, none = -1;
    const PassResult got = score_pass_tiled(q, t, s, local, threads, {}, nullptr, {tile, true, &pruned});
    const PassResult unpruned = score_pass_tiled(q, t, s, local, threads, {}, nullptr, {tile, false, &none});
    INFO("round " << round << ": " << q.size() << " x " << t.size() << ", tile " << tile << ", threads " << threads
                  << ", cells pruned " << pruned);
    REQUIRE(got.score == want.score);
    REQUIRE(got.end_i == want.end_i);
    REQUIRE(got.end_j == want.end_j);
    REQUIRE(unpruned.score == want.score);
    REQUIRE(unpruned.end_i == want.end_i);
    REQUIRE(unpruned.end_j == want.end_j);
    REQUIRE(none == 0);
    REQUIRE(pruned >= 0);
    REQUIRE(pruned < static_cast<std::int64_t>(q.size() * t.size()));
    pruned_in_all += pruned;
  }
  REQUIRE(pruned_in_all > 0);
}

TEST_CASE("a pruned pass skips over 30% of a long similar pair's cells", "[pairwise][backends]") {
  std::mt19937 rng(27);
  const ScoringScheme dna = test::dna_scheme();
  const auto q = test::random_ranks(rng, 3000, 4);
  const auto t = test::mutate(rng, q, 4);
  const Shape local = shape_of(Mode::local, dna);
  std::int64_t pruned = 0;
  const PassResult got = score_pass_tiled(q, t, dna, local, 2, {}, nullptr, {.tile_side = 64, .pruned_cells = &pruned});
  const PassResult want = score_pass_scalar(q, t, dna, local);
  REQUIRE(got.score == want.score);
  REQUIRE(got.end_i == want.end_i);
  REQUIRE(got.end_j == want.end_j);
  INFO("cells pruned: " << pruned << " of " << q.size() * t.size());
  REQUIRE(static_cast<double>(pruned) > 0.3 * static_cast<double>(q.size() * t.size()));
}

TEST_CASE("linear-space alignment scores what the full matrix scores", "[pairwise][backends]") {
  std::mt19937 rng(99);
  const ScoringScheme blosum = test::protein_scheme();
  std::uniform_int_distribution<int> len(0, 120);
  for (int round = 0; round < 120; ++round) {
    const bool protein = round % 2 == 1;
    ScoringScheme s = protein ? blosum : test::dna_scheme(2, -3, round % 7, 1 + round % 3);
    const int alphabet = protein ? 20 : 4;
    const auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    const auto t = round % 3 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    for (Mode mode : all_modes)
      for (Backend backend : {Backend::cpu_scalar, Backend::cpu_openmp}) {
        INFO("round " << round << " mode " << to_string(mode) << " m " << q.size() << " n " << t.size());
        const Alignment full = align_full_matrix(q, t, s, mode);
        const Alignment lin = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = backend, .threads = 3});
        REQUIRE(lin.score == full.score);
        REQUIRE(rescore(lin, q, t, s) == full.score);
        REQUIRE(lin.query_end == full.query_end);    // the same end cell:
        REQUIRE(lin.target_end == full.target_end);  // both take the first best
        const Alignment only = align(q, t, s, Options{.mode = mode, .score_only = true, .backend = backend, .threads = 3});
        REQUIRE(only.score == full.score);
        REQUIRE(only.cigar.empty());
      }
  }
}

TEST_CASE("Myers-Miller hands sub-problems to a whole aligner and splits the rest", "[pairwise][backends]") {
  // A whole aligner that takes the parts with both corners' gaps at the
  // full open (those the full matrix aligns) up to a size, as the GPU's
  // chunked traceback takes the parts whose kept edges fit.
  std::mt19937 rng(57);
  const ScoringScheme dna = test::dna_scheme(2, -3, 6, 1);  // long gaps: parts whose corners continue one
  std::uniform_int_distribution<int> len(2, 300);
  int taken = 0, declined = 0;
  for (int round = 0; round < 60; ++round) {
    auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 4);
    auto t = round % 3 ? test::mutate(rng, q, 4) : test::random_ranks(rng, static_cast<std::size_t>(len(rng)), 4);
    if (round % 4 == 0) {  // a block of the query against nothing, across the middle row
      const auto block = test::random_ranks(rng, q.size(), 4);
      q.insert(q.begin() + static_cast<std::ptrdiff_t>(q.size() / 2), block.begin(), block.end());
    }
    const std::size_t limit = q.size() * t.size() / (1 + round % 5);
    const WholeAligner whole = [&](const Part& part, const Options&, Cigar& cigar) -> std::optional<PartStart> {
      if (part.local_start || part.ends.top_open != dna.gap_open || part.ends.bottom_open != dna.gap_open ||
          part.q.size() * part.t.size() > limit) {
        ++declined;
        return std::nullopt;
      }
      ++taken;
      for (const auto& r : align_full_matrix(part.q, part.t, dna, Mode::global).cigar) push_run(cigar, r.op, r.length);
      return PartStart{};
    };
    INFO("round " << round << " m " << q.size() << " n " << t.size());
    Alignment a;
    a.query_end = static_cast<std::int64_t>(q.size());
    a.target_end = static_cast<std::int64_t>(t.size());
    const int score = align_linear_global(q, t, dna, Options{.mode = Mode::global}, a.cigar, whole);
    const int expected = score_pass_scalar(q, t, dna, shape_of(Mode::global, dna)).score;
    REQUIRE(score == expected);
    REQUIRE(rescore(a, q, t, dna) == expected);
  }
  REQUIRE(taken > 0);
  REQUIRE(declined > 0);
}

TEST_CASE("Myers-Miller from a local alignment's end cell finds an optimal start", "[pairwise][backends]") {
  std::mt19937 rng(58);
  const ScoringScheme blosum = test::protein_scheme();
  std::uniform_int_distribution<int> len(1, 250);
  for (int round = 0; round < 150; ++round) {
    const bool protein = round % 3 == 2;
    const ScoringScheme s = protein ? blosum : test::dna_scheme(1 + round % 2, -3, round % 8, round % 3);
    const int alphabet = protein ? 20 : 4;
    auto q = test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    auto t = round % 3 ? test::mutate(rng, q, alphabet) : test::random_ranks(rng, static_cast<std::size_t>(len(rng)), alphabet);
    if (round % 4 == 0) {  // a block of the query against nothing
      const auto block = test::random_ranks(rng, 1 + q.size() / 2, alphabet);
      q.insert(q.begin() + static_cast<std::ptrdiff_t>(q.size() / 3), block.begin(), block.end());
    }
    const PassResult end = score_pass_scalar(q, t, s, shape_of(Mode::local, s));
    if (end.score == 0) continue;
    // Parts to the full matrix where global with the scheme's opens, as
    // the GPU's chunked traceback would take them; or none.
    const std::size_t limit = q.size() * t.size() / (2 + round % 3);
    const WholeAligner full = [&](const Part& part, const Options&, Cigar& cigar) -> std::optional<PartStart> {
      if (part.local_start || part.ends.top_open != s.gap_open || part.ends.bottom_open != s.gap_open ||
          part.q.size() * part.t.size() > limit)
        return std::nullopt;
      for (const auto& r : align_full_matrix(part.q, part.t, s, Mode::global).cigar) push_run(cigar, r.op, r.length);
      return PartStart{};
    };
    for (const WholeAligner& whole : {WholeAligner{}, full}) {
      INFO("round " << round << " m " << q.size() << " n " << t.size() << " end " << end.end_i << " " << end.end_j
                    << " whole " << static_cast<bool>(whole));
      Alignment a;
      PartStart start;
      const int score = align_linear_local_end(Residues(q).first(static_cast<std::size_t>(end.end_i)),
                                               Residues(t).first(static_cast<std::size_t>(end.end_j)), s, Options{},
                                               a.cigar, start, whole);
      REQUIRE(score == end.score);
      a.query_begin = start.i, a.target_begin = start.j;
      a.query_end = end.end_i, a.target_end = end.end_j;
      REQUIRE(rescore(a, q, t, s) == end.score);
    }
  }
}

TEST_CASE("one long pair: the OpenMP path equals the oracle", "[pairwise][backends]") {
  std::mt19937 rng(7);
  const ScoringScheme s = test::dna_scheme();
  const auto q = test::random_ranks(rng, 3001, 4);
  const auto t = test::mutate(rng, q, 4, 0.1);
  for (Mode mode : all_modes) {
    const Alignment a = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = Backend::cpu_scalar, .threads = 1});
    const PassResult tiled = score_pass_tiled(q, t, s, shape_of(mode, s), 2, {}, nullptr, {.tile_side = 256});
    REQUIRE(tiled.score == a.score);
    const Alignment b = align(q, t, s, Options{.mode = mode, .score_only = false, .backend = Backend::cpu_openmp, .threads = 2});
    REQUIRE(b.score == a.score);
    REQUIRE(rescore(b, q, t, s) == a.score);
  }
}

TEST_CASE("align_all: every pair, or each query's top K best first", "[pairwise][batch]") {
  std::mt19937 rng(5);
  const ScoringScheme s = test::dna_scheme();
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (int i = 0; i < 3; ++i) qs.push_back(test::random_ranks(rng, 40 + 10 * static_cast<std::size_t>(i), 4));
  for (int i = 0; i < 7; ++i) ts.push_back(i % 2 ? test::mutate(rng, qs[static_cast<std::size_t>(i % 3)], 4) : test::random_ranks(rng, 50, 4));
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  for (int threads : {1, 4}) {
    const Options o{.backend = threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar, .threads = threads};
    const auto all = align_all(q, t, s, o);
    REQUIRE(all.size() == 21);
    for (const Hit& h : all) {
      REQUIRE(h.alignment.score == align(q[h.query], t[h.target], s, Options{}).score);
      REQUIRE(rescore(h.alignment, q[h.query], t[h.target], s) == h.alignment.score);
    }
    const auto sorted = align_all(q, t, s, o, 7);  // K = every target: all, best first
    REQUIRE(sorted.size() == 21);
    for (std::size_t k = 1; k < sorted.size(); ++k)
      if (sorted[k].query == sorted[k - 1].query) REQUIRE(sorted[k].alignment.score <= sorted[k - 1].alignment.score);
    const auto top = align_all(q, t, s, o, 2);
    REQUIRE(top.size() == 6);
    for (std::size_t qi = 0; qi < 3; ++qi) {
      std::vector<int> scores;
      for (std::size_t ti = 0; ti < 7; ++ti) scores.push_back(all[qi * 7 + ti].alignment.score);
      std::sort(scores.rbegin(), scores.rend());
      REQUIRE(top[qi * 2].query == qi);
      REQUIRE(top[qi * 2].alignment.score == scores[0]);
      REQUIRE(top[qi * 2 + 1].alignment.score == scores[1]);
      REQUIRE_FALSE(top[qi * 2].alignment.cigar.empty());
    }
  }
}

TEST_CASE("align_all's top K of many targets: the best scores, ties in target order", "[pairwise][batch]") {
  // 70,000 targets (more than one block of the threads' search for the
  // best), of few scores: many ties across the blocks.
  std::mt19937 rng(12);
  const ScoringScheme s = test::dna_scheme();
  const auto query = test::random_ranks(rng, 6, 4);
  std::vector<std::vector<std::uint8_t>> ts;
  for (int i = 0; i < 70000; ++i) ts.push_back(test::random_ranks(rng, 1 + rng() % 6, 4));
  const std::vector<Residues> q{query}, t(ts.begin(), ts.end());
  const Options o{.score_only = true, .backend = Backend::cpu_openmp, .threads = 3};
  std::vector<Hit> all = align_all(q, t, s, o);
  std::stable_sort(all.begin(), all.end(), [](const Hit& a, const Hit& b) { return a.alignment.score > b.alignment.score; });
  for (const std::size_t top : {std::size_t{1}, std::size_t{10}, std::size_t{1000}, std::size_t{5000}}) {
    INFO("top " << top);
    const std::vector<Hit> got = align_all(q, t, s, o, top);
    REQUIRE(got.size() == top);
    for (std::size_t k = 0; k < top; ++k) {
      REQUIRE(got[k].target == all[k].target);
      REQUIRE(got[k].alignment.score == all[k].alignment.score);
    }
  }
}

TEST_CASE("align_each_query: each query's hits in order, as align_all's; progress counts every unit once",
          "[pairwise][batch]") {
  std::mt19937 rng(8);
  const ScoringScheme s = test::dna_scheme();
  std::vector<std::vector<std::uint8_t>> qs, ts;
  // More queries than one run holds (64 pairs a thread), so that they come in several runs.
  for (int i = 0; i < 150; ++i) qs.push_back(test::random_ranks(rng, 5 + static_cast<std::size_t>(i % 17), 4));
  for (int i = 0; i < 3; ++i) ts.push_back(test::random_ranks(rng, 30 + 200 * static_cast<std::size_t>(i), 4));
  const std::vector<Residues> q(qs.begin(), qs.end()), t(ts.begin(), ts.end());
  for (const bool score_only : {false, true})
    for (const std::size_t top : {std::size_t{0}, std::size_t{1}, std::size_t{3}})
      for (const int threads : {1, 2}) {
        INFO("score_only " << score_only << ", top " << top << ", threads " << threads);
        Progress progress("test", 0, false);
        Options o{.score_only = score_only, .backend = threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar,
                  .threads = threads, .progress = &progress};
        std::vector<std::size_t> order;
        std::vector<Hit> streamed;
        align_each_query(q, t, s, o, top, [&](std::span<const Hit> hits) {
          REQUIRE_FALSE(hits.empty());
          for (const Hit& h : hits) REQUIRE(h.query == hits[0].query);
          order.push_back(hits[0].query);
          streamed.insert(streamed.end(), hits.begin(), hits.end());
        });
        REQUIRE(order.size() == q.size());
        for (std::size_t k = 0; k < order.size(); ++k) REQUIRE(order[k] == k);
        o.progress = nullptr;
        const std::vector<Hit> all = align_all(q, t, s, o, top);
        REQUIRE(streamed.size() == all.size());
        for (std::size_t k = 0; k < all.size(); ++k) {
          REQUIRE(streamed[k].target == all[k].target);
          REQUIRE(streamed[k].alignment.score == all[k].alignment.score);
          REQUIRE(cigar_string(streamed[k].alignment.cigar) == cigar_string(all[k].alignment.cigar));
        }
        REQUIRE(progress.total() > 0);
        REQUIRE(progress.done() == progress.total());
      }
}

TEST_CASE("Progress: a part adds its share of the whole once, however far its own count goes", "[progress]") {
  Progress whole("test", 100, false);
  {
    Progress part(&whole, 40, 10);
    part.add(5);
    REQUIRE(whole.done() == 20);
    part.set_total(20);  // a larger estimate: what was added stays added
    part.add(5);
    REQUIRE(whole.done() == 20);
    part.add(100);  // past its total: all but the last hundredth, which comes when it ends
    REQUIRE(whole.done() == 39);
  }
  REQUIRE(whole.done() == 40);
  { Progress idle(&whole, 30, 1000); }  // added nothing: its share comes when it ends
  REQUIRE(whole.done() == 70);
  { Progress nowhere(nullptr, 30, 10); nowhere.add(10); }  // no whole: nothing to count
  REQUIRE(whole.done() == 70);
}
