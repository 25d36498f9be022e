// Both strands of nucleotide queries: the complement of IUPAC codes, and
// align_each_query_on_strands against each strand aligned on its own.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/alphabet.hpp"
#include "core/progress.hpp"
#include "pairwise/pairwise.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

TEST_CASE("complement: IUPAC codes pair up, N, S and W are their own, U for RNA", "[alphabet][strand]") {
  const std::string codes = "ACGTRYKMBVDHSWN";
  const std::string pairs = "TGCAYRMKVBHDSWN";
  for (std::size_t k = 0; k < codes.size(); ++k) {
    INFO(codes[k]);
    CHECK(complement(codes[k], Alphabet::dna) == pairs[k]);
    CHECK(complement(pairs[k], Alphabet::dna) == codes[k]);
  }
  CHECK(complement('U', Alphabet::dna) == 'A');
  CHECK(complement('A', Alphabet::rna) == 'U');
  CHECK(complement('U', Alphabet::rna) == 'A');
  CHECK(complement('E', Alphabet::dna) == '\0');
  CHECK(reverse_complement("AACGTN", Alphabet::dna) == "NACGTT");
  CHECK(reverse_complement("AACGUN", Alphabet::rna) == "NACGUU");
  CHECK(reverse_complement("", Alphabet::dna).empty());
}

namespace {

// Ranks 0..3 are A, C, G, T in the match/mismatch scheme: the complement is 3 - r.
std::vector<std::uint8_t> rc_ranks(const std::vector<std::uint8_t>& s) {
  std::vector<std::uint8_t> r(s.rbegin(), s.rend());
  for (auto& c : r) c = static_cast<std::uint8_t>(3 - c);
  return r;
}

// The CPU backend on `threads`, counting into `progress`.
Options cpu_options(bool score_only, int threads, Progress& progress) {
  return {.score_only = score_only,
          .backend = threads > 1 ? Backend::cpu_openmp : Backend::cpu_scalar,
          .threads = threads,
          .progress = &progress};
}

// run(strand, top, options, progress) for each strand and top K given, score
// only or not, on 1 and 2 threads, each with a progress of its own.
template <class Run>
void for_each_setting(std::initializer_list<Strand> strands, std::initializer_list<std::size_t> tops, Run run) {
  for (const Strand strand : strands)
    for (const std::size_t top : tops)
      for (const bool score_only : {false, true})
        for (const int threads : {1, 2}) {
          INFO("strand " << to_string(strand) << ", top " << top << ", score_only " << score_only << ", threads "
                         << threads);
          Progress progress("test", 0, false);
          run(strand, top, cpu_options(score_only, threads, progress), progress);
        }
}

}  // namespace

TEST_CASE("align_each_query_on_strands: each strand's pairs as align() gives them, in a fixed order",
          "[pairwise][batch][strand]") {
  const ScoringScheme s = test::dna_scheme();
  REQUIRE(s.letters.substr(0, 4) == "ACGT");
  std::mt19937 rng(12);
  std::vector<std::vector<std::uint8_t>> qs, rcs, ts;
  // Enough queries for several runs of pairs; some targets hold a query's
  // reverse complement, some its copy, and two are equal (ties).
  for (int i = 0; i < 40; ++i) qs.push_back(test::random_ranks(rng, 6 + static_cast<std::size_t>(i % 13), 4));
  for (const auto& q : qs) rcs.push_back(rc_ranks(q));
  ts.push_back(test::mutate(rng, rcs[3], 4));
  ts.push_back(test::random_ranks(rng, 40, 4));
  ts.push_back(test::mutate(rng, qs[3], 4));
  ts.push_back(ts[1]);
  const std::vector<Residues> q(qs.begin(), qs.end()), rc(rcs.begin(), rcs.end()), t(ts.begin(), ts.end());

  // Every query's hits over both strands, target by target, plus then minus.
  struct Expected {
    std::size_t target;
    bool minus;
    int score;
  };
  std::vector<std::vector<Expected>> expected(q.size());
  for (std::size_t qi = 0; qi < q.size(); ++qi)
    for (std::size_t ti = 0; ti < t.size(); ++ti)
      for (const bool minus : {false, true})
        expected[qi].push_back({ti, minus, align(minus ? rc[qi] : q[qi], t[ti], s, Options{}).score});

  for_each_setting({Strand::both, Strand::plus, Strand::minus}, {0, 1, 3, 8},
                   [&](Strand strand, std::size_t top, const Options& o, Progress& progress) {
          std::size_t next = 0;
          align_each_query_on_strands(q, rc, strand, t, s, o, top, [&](std::span<const Hit> hits) {
            REQUIRE_FALSE(hits.empty());
            const std::size_t qi = hits[0].query;
            REQUIRE(qi == next++);
            // The expectation: this strand's hits, then with top the K best
            // by score, target and plus first.
            std::vector<Expected> want;
            for (const Expected& e : expected[qi])
              if (strand == Strand::both || e.minus == (strand == Strand::minus)) want.push_back(e);
            if (top > 0) {
              std::stable_sort(want.begin(), want.end(), [](const Expected& a, const Expected& b) {
                return std::make_tuple(-a.score, a.target, a.minus) < std::make_tuple(-b.score, b.target, b.minus);
              });
              want.resize(std::min(top, want.size()));
            }
            REQUIRE(hits.size() == want.size());
            for (std::size_t k = 0; k < hits.size(); ++k) {
              const Hit& h = hits[k];
              INFO("hit " << k);
              CHECK(h.query == qi);
              CHECK(h.target == want[k].target);
              CHECK(h.reverse_strand == want[k].minus);
              CHECK(h.alignment.score == want[k].score);
              if (!o.score_only)
                CHECK(rescore(h.alignment, h.reverse_strand ? rc[qi] : q[qi], t[h.target], s) == h.alignment.score);
            }
          });
          CHECK(next == q.size());
          CHECK(progress.total() > 0);
          CHECK(progress.done() == progress.total());
        });
}

TEST_CASE("align_each_query on strands: both strands count twice the work of one", "[pairwise][batch][strand]") {
  const ScoringScheme s = test::dna_scheme();
  std::mt19937 rng(3);
  std::vector<std::vector<std::uint8_t>> qs{test::random_ranks(rng, 30, 4)}, ts{test::random_ranks(rng, 50, 4)};
  const std::vector<std::vector<std::uint8_t>> rcs{rc_ranks(qs[0])};
  const std::vector<Residues> q(qs.begin(), qs.end()), rc(rcs.begin(), rcs.end()), t(ts.begin(), ts.end());
  const auto total = [&](Strand strand) {
    Progress progress("test", 0, false);
    Options o;
    o.progress = &progress;
    align_each_query_on_strands(q, rc, strand, t, s, o, 0, [](std::span<const Hit>) {});
    return progress.total();
  };
  CHECK(total(Strand::plus) == 2 * 30 * 50);  // the score pass, then the traceback
  CHECK(total(Strand::minus) == total(Strand::plus));
  CHECK(total(Strand::both) == 2 * total(Strand::plus));
  CHECK_THROWS_AS(align_each_query_on_strands(q, {}, Strand::both, t, s, Options{}, 0, [](std::span<const Hit>) {}),
                  std::invalid_argument);
  CHECK_THROWS_AS(align_each_query(q, t, s, Options{}, 0, [](std::span<const Hit>) {}, 2), std::invalid_argument);
}

TEST_CASE("parse_strand: both, plus, minus", "[strand]") {
  CHECK(parse_strand("both") == Strand::both);
  CHECK(parse_strand("plus") == Strand::plus);
  CHECK(parse_strand("minus") == Strand::minus);
  CHECK_THROWS_WITH(parse_strand("+"), "unknown strand '+' (use both, plus or minus)");
}

TEST_CASE("a hit filter drops hits after top K has chosen, as dropping them afterwards would", "[pairwise][batch][strand]") {
  const ScoringScheme s = test::dna_scheme();
  std::mt19937 rng(31);
  std::vector<std::vector<std::uint8_t>> qs, rcs, ts;
  for (int i = 0; i < 24; ++i) qs.push_back(test::random_ranks(rng, 5 + static_cast<std::size_t>(i % 11), 4));
  for (const auto& q : qs) rcs.push_back(rc_ranks(q));
  for (int i = 0; i < 9; ++i) ts.push_back(test::random_ranks(rng, 10 + static_cast<std::size_t>(i) * 3, 4));
  ts.push_back(test::mutate(rng, qs[2], 4));
  const std::vector<Residues> q(qs.begin(), qs.end()), rc(rcs.begin(), rcs.end()), t(ts.begin(), ts.end());
  // Any rule of the query, the target and the score; this one drops about
  // a third, and every hit of query 5.
  std::atomic<std::size_t> calls{0};
  const HitFilter keep = [&](std::size_t qi, std::size_t ti, int score) {
    ++calls;
    return qi != 5 && (score + static_cast<int>(qi + 2 * ti)) % 3 != 0;
  };
  using Got = std::tuple<std::size_t, std::size_t, bool, int, std::int64_t, std::int64_t, std::string>;
  for_each_setting({Strand::both, Strand::plus}, {0, 2, 7},
                   [&](Strand strand, std::size_t top, const Options& o, Progress& progress) {
          auto run = [&](const HitFilter& filter) {
            std::vector<std::vector<Got>> out(q.size());
            std::size_t next = 0, calls_of_done = 0;
            align_each_query_on_strands(
                q, rc, strand, t, s, o, top,
                [&](std::span<const Hit> hits) {
                  ++calls_of_done;
                  for (const Hit& h : hits) {
                    REQUIRE(h.query >= next);
                    next = h.query;
                    out[h.query].emplace_back(h.query, h.target, h.reverse_strand, h.alignment.score,
                                              h.alignment.query_end, h.alignment.target_end,
                                              cigar_string(h.alignment.cigar));
                  }
                },
                filter);
            CHECK(calls_of_done == q.size());  // once a query, even with no hit left
            return out;
          };
          calls = 0;
          const auto filtered = run(keep);
          CHECK(calls > 0);
          CHECK(progress.done() == progress.total());
          const auto all = run({});
          std::size_t dropped = 0;
          for (std::size_t qi = 0; qi < q.size(); ++qi) {
            std::vector<Got> want;
            for (const Got& g : all[qi])
              if (keep(std::get<0>(g), std::get<1>(g), std::get<3>(g)))
                want.push_back(g);
              else
                ++dropped;
            CHECK(filtered[qi] == want);
          }
          CHECK(filtered[5].empty());
          CHECK(dropped > 0);
        });
}
