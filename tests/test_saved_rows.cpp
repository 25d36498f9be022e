// align_by_saved_rows (cpu/linear_space.cpp): the traceback that splits a
// pair at the rows its forward pass saved, against the scalar oracle, on
// random and similar pairs with long gaps across those rows, local and
// global, at many row spacings.
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "pairwise/cpu/band_start.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

TEST_CASE("the split at a forward pass's saved rows aligns as the oracle scores, and re-scores", "[pairwise][saved-rows]") {
  std::mt19937 rng(2718);
  const ScoringScheme dna = test::dna_scheme(), blosum = test::protein_scheme();
  const ScoringScheme cheap_gaps = test::dna_scheme(1, -1, 1, 1);
  std::uniform_int_distribution<std::size_t> len(1, 320);
  std::int64_t similar_cells = 0, similar_matrix = 0;  // the bands' windows on similar pairs, saving every 7th row
  std::int64_t widened = 0;                            // bands whose window missed a score to beat set too high
  for (int round = 0; round < 120; ++round) {
    const bool protein = round % 3 == 2;
    const ScoringScheme& s = protein ? blosum : round % 4 == 1 ? cheap_gaps : dna;
    const int alphabet = protein ? 20 : round % 5 == 0 ? 2 : 4;
    auto q = test::random_ranks(rng, len(rng), alphabet);
    auto t = round % 3 ? test::mutate(rng, q, alphabet, 0.08) : test::random_ranks(rng, len(rng), alphabet);
    if (round % 4 == 3) {  // query letters against nothing, across the saved rows
      const auto block = test::random_ranks(rng, 20 + q.size() / 3, alphabet);
      q.insert(q.begin() + static_cast<std::ptrdiff_t>(q.size() / 2), block.begin(), block.end());
    }
    if (t.empty()) continue;
    const auto m = static_cast<std::int64_t>(q.size());
    for (const bool local : {true, false})
      for (const std::int64_t every : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{7},
                                       std::int64_t{16}, std::int64_t{64}, m + 1}) {
        INFO("round " << round << " m " << q.size() << " n " << t.size() << (local ? " local" : " global")
                      << " every " << every);
        SavedRows saved;
        saved.every = every;
        if (round % 2) saved.spill_dir = std::filesystem::temp_directory_path().string();  // rows in a file
        const PassResult pass =
            score_pass_scalar(q, t, s, shape_of(local ? Mode::local : Mode::global, s), {}, nullptr, &saved);
        REQUIRE(saved.rows() == m / every);
        REQUIRE(saved.spilled() == (round % 2 == 1 && saved.rows() > 0));
        if (local && pass.score == 0) continue;
        const auto end_i = static_cast<std::size_t>(pass.end_i), end_j = static_cast<std::size_t>(pass.end_j);
        Alignment a;
        PartStart start;
        SavedRowsSplit split;
        const int score = align_by_saved_rows(Residues(q).first(end_i), Residues(t).first(end_j), s, local, saved,
                                              pass.score, Options{}, a.cigar, start, {}, &split);
        REQUIRE(score == pass.score);
        // Each band's score to beat is its best path's: no window misses.
        REQUIRE(split.widened == 0);
        REQUIRE(split.cells <= pass.end_i * pass.end_j);
        if (round % 3 && every == 7) similar_cells += split.cells, similar_matrix += pass.end_i * pass.end_j;
        a.query_begin = start.i, a.target_begin = start.j;
        a.query_end = pass.end_i, a.target_end = pass.end_j;
        REQUIRE(rescore(a, q, t, s) == pass.score);
        if (!local) REQUIRE((start.i == 0 && start.j == 0));
        // The parts on three threads, each as its crossing is found: the
        // same path, put together in order.
        Cigar threaded;
        PartStart threaded_start;
        REQUIRE(align_by_saved_rows(Residues(q).first(end_i), Residues(t).first(end_j), s, local, saved, pass.score,
                                    Options{}, threaded, threaded_start, {}, nullptr, 3) == pass.score);
        REQUIRE(cigar_string(threaded) == cigar_string(a.cigar));
        REQUIRE((threaded_start.i == start.i && threaded_start.j == start.j));
        // A score to beat set too high or too low only widens the windows.
        for (const int off : {-5, 1}) {
          Alignment b = a;
          b.cigar.clear();
          SavedRowsSplit wide;
          PartStart b_start;
          REQUIRE(align_by_saved_rows(Residues(q).first(end_i), Residues(t).first(end_j), s, local, saved,
                                      pass.score + off, Options{}, b.cigar, b_start, {}, &wide) == pass.score);
          b.query_begin = b_start.i, b.target_begin = b_start.j;
          REQUIRE(rescore(b, q, t, s) == pass.score);
          REQUIRE(wide.cells >= split.cells);
          widened += wide.widened;
        }
      }
  }
  // Left of the path, a band's pass would cover about half the matrix.
  INFO(similar_cells << " of " << similar_matrix << " cells");
  REQUIRE(similar_cells * 8 < similar_matrix);
  REQUIRE(widened > 0);
}

TEST_CASE("saved rows spilled to a file: written, read back, the file unlinked; a bad directory is an error",
          "[pairwise][saved-rows]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gpu-dp-test-saved-rows";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  {
    SavedRows rows;
    rows.spill_dir = dir.string();
    rows.allocate(3, 1000);
    REQUIRE(rows.spilled());
    REQUIRE(std::filesystem::is_empty(dir));  // unlinked as soon as made
    for (std::int64_t k = 1; k <= 3; ++k)
      for (std::size_t j = 0; j < 1000; ++j) {
        rows.h(k)[j] = static_cast<int>(k * 10000) + static_cast<int>(j);
        rows.f(k)[j] = -static_cast<int>(j);
      }
    for (std::int64_t k = 1; k <= 3; ++k) {
      REQUIRE(rows.h(k)[999] == static_cast<int>(k * 10000 + 999));
      REQUIRE(rows.f(k)[7] == -7);
    }
    rows.allocate(0, 1000);  // dropped
    REQUIRE_FALSE(rows.spilled());
  }
  std::filesystem::remove_all(dir);
  SavedRows missing;
  missing.spill_dir = dir.string() + "/no-such-directory";
  REQUIRE_THROWS_AS(missing.allocate(2, 10), RunError);
}

TEST_CASE("a part that fails on one of the split's threads fails the split", "[pairwise][saved-rows]") {
  std::mt19937 rng(31);
  const ScoringScheme s = test::dna_scheme();
  const auto q = test::random_ranks(rng, 600, 4);
  const auto t = test::mutate(rng, q, 4, 0.05);
  SavedRows saved;
  saved.every = 8;  // 75 rows, so many bands
  const PassResult pass = score_pass_scalar(q, t, s, shape_of(Mode::global, s), {}, nullptr, &saved);
  std::atomic<int> offered{0};
  const WholeAligner failing = [&](const Part&, const Options&, Cigar&) -> std::optional<PartStart> {
    ++offered;
    throw std::runtime_error("a part failed");
  };
  Cigar cigar;
  PartStart start;
  SavedRowsSplit split;
  REQUIRE_THROWS_WITH(align_by_saved_rows(q, Residues(t).first(static_cast<std::size_t>(pass.end_j)), s, false, saved,
                                          pass.score, Options{}, cigar, start, failing, &split, 3),
                      "a part failed");
  CHECK(offered >= 1);
}

// band_start looks at no column left of where its bound lets a path reach
// the score (band_scan_from): it must return the first column the whole
// row's scan returns, and leave out many.
TEST_CASE("a band's first column is the whole row's scan's, on saved rows of local and global passes",
          "[pairwise][saved-rows]") {
  std::mt19937 rng(1618);
  const ScoringScheme schemes[] = {test::dna_scheme(), test::dna_scheme(1, -3, 3, 2), test::dna_scheme(5, -4, 10, 1),
                                   test::protein_scheme()};
  std::int64_t skipped = 0, columns = 0;
  for (int round = 0; round < 60; ++round) {
    const ScoringScheme& s = schemes[round % 4];
    const int alphabet = round % 4 == 3 ? 20 : 4, open = s.gap_open, extend = gap_costs(s).extend;
    const long long best_substitution = std::max(0, *std::max_element(s.scores.begin(), s.scores.end()));
    const auto q = test::random_ranks(rng, 200 + static_cast<std::size_t>(round) * 7, alphabet);
    const auto t = round % 3 ? test::mutate(rng, q, alphabet, 0.05 * (round % 4)) : test::random_ranks(rng, 300, alphabet);
    for (const bool local : {true, false}) {
      SavedRows saved;
      saved.every = 16;
      score_pass_scalar(q, t, s, shape_of(local ? Mode::local : Mode::global, s), {}, nullptr, &saved);
      for (std::int64_t k = 1; k <= saved.rows(); ++k) {
        const std::span<const int> h = std::as_const(saved).h(k), f = std::as_const(saved).f(k);
        const auto n = static_cast<std::int64_t>(t.size());
        for (int probe = 0; probe < 8; ++probe) {
          const std::int64_t end_j = std::uniform_int_distribution<std::int64_t>(0, n)(rng);
          const std::int64_t rows = std::uniform_int_distribution<std::int64_t>(1, 3 * saved.every)(rng);
          // Scores to beat around the row's own, and far off it.
          const long long at = h[static_cast<std::size_t>(end_j)];
          const long long need = at + std::uniform_int_distribution<long long>(-40, 40 + best_substitution * rows)(rng);
          std::int64_t scanned = end_j;
          for (std::int64_t j = 0; j < end_j; ++j) {
            const long long w = end_j - j;
            const long long reach = best_substitution * std::min<long long>(rows, w) -
                                    static_cast<long long>(extend) * std::max<long long>(0, w - rows);
            const auto x = static_cast<std::size_t>(j);
            if (std::max<long long>(h[x], static_cast<long long>(f[x]) + open) + reach >= need) {
              scanned = j;
              break;
            }
          }
          INFO("round " << round << (local ? " local" : " global") << " row " << k * saved.every << " end_j " << end_j
                        << " rows " << rows << " need " << need);
          const std::int64_t from = band_scan_from(end_j, rows, need, best_substitution, open, extend);
          REQUIRE(from <= scanned);
          REQUIRE(band_start(h, f, end_j, rows, need, best_substitution, open, extend) == scanned);
          skipped += from, columns += end_j;
        }
      }
    }
  }
  // The bound must leave many columns out, not only be safe.
  INFO("skipped " << skipped << " of " << columns << " columns");
  REQUIRE(skipped * 3 > columns);
}
