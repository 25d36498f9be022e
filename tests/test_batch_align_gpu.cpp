// The GPU's full alignments of many pairs at once (batch_gpu.hpp's
// batch_align): every pair's score and end cell the oracle's, its CIGAR
// re-scoring to it and spanning its begin and end; in every mode, for
// lengths around a strip's 128 columns, similar pairs (long paths), ties,
// and batches cut small. Tagged [gpu].
#include <catch2/catch.hpp>

#include "gpu_test.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

struct Pairs {
  std::vector<std::vector<std::uint8_t>> owned_q, owned_t;
  std::vector<Residues> queries, targets;
  std::vector<Hit> hits;
};

// Each query against each target.
Pairs every_pair(std::vector<std::vector<std::uint8_t>> qs, std::vector<std::vector<std::uint8_t>> ts) {
  Pairs p;
  p.owned_q = std::move(qs), p.owned_t = std::move(ts);
  for (const auto& q : p.owned_q) p.queries.push_back(q);
  for (const auto& t : p.owned_t) p.targets.push_back(t);
  for (std::size_t q = 0; q < p.queries.size(); ++q)
    for (std::size_t t = 0; t < p.targets.size(); ++t) p.hits.push_back({q, t, {}});
  return p;
}

// batch_align's alignments against align() on the CPU; returns how many
// pairs it left (empty sequences, or too large for `batch_bytes`).
std::size_t require_oracle(Pairs& p, const ScoringScheme& s, Mode mode, std::size_t batch_bytes = 0) {
  std::vector<Hit*> todo;
  for (Hit& h : p.hits) todo.push_back(&h);
  const std::vector<Hit*> left = batch_align(todo, p.queries, p.targets, s, mode, 0, 2, nullptr, batch_bytes);
  const Options cpu{.mode = mode};
  std::size_t k = 0;
  for (Hit& h : p.hits) {
    const Residues q = p.queries[h.query], t = p.targets[h.target];
    INFO("mode " << to_string(mode) << ", query " << h.query << " of " << q.size() << ", target " << h.target << " of "
                 << t.size());
    if (k < left.size() && left[k] == &h) {
      ++k;
      REQUIRE((q.empty() || t.empty() || batch_bytes > 0));
      continue;
    }
    const Alignment want = align(q, t, s, cpu);
    const Alignment& got = h.alignment;
    REQUIRE(got.score == want.score);
    REQUIRE(got.query_end == want.query_end);
    REQUIRE(got.target_end == want.target_end);
    REQUIRE(got.has_begin);
    if (mode == Mode::global) REQUIRE((got.query_begin == 0 && got.target_begin == 0));
    if (mode == Mode::semiglobal) REQUIRE(got.query_begin == 0);
    REQUIRE(rescore(got, q, t, s) == got.score);
  }
  REQUIRE(k == left.size());
  return left.size();
}

}  // namespace

TEST_CASE("GPU batch alignment equals the oracle's score and end, and re-scores", "[gpu][pairwise][batch][align]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(17);
  const ScoringScheme blosum = test::protein_scheme(), dna = test::dna_scheme();
  for (const ScoringScheme* s : {&blosum, &dna}) {
    const int alphabet = s == &dna ? 4 : 20;
    std::vector<std::vector<std::uint8_t>> qs, ts;
    for (std::size_t m : {1, 2, 31, 32, 33, 127, 128, 129, 300, 700}) qs.push_back(test::random_ranks(rng, m, alphabet));
    for (std::size_t n : {1, 3, 64, 127, 128, 129, 256, 257, 500}) ts.push_back(test::random_ranks(rng, n, alphabet));
    for (std::size_t k = 2; k < qs.size(); k += 2) ts.push_back(test::mutate(rng, qs[k], alphabet));  // long paths
    ts.push_back({});
    for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) {
      Pairs p = every_pair(qs, ts);
      CHECK(require_oracle(p, *s, mode) == qs.size());  // the empty target's pairs are left
    }
  }
}

TEST_CASE("GPU batch alignment keeps the oracle's end among ties", "[gpu][pairwise][batch][align]") {
  if (test::skip_without_gpu()) return;
  const ScoringScheme s = test::dna_scheme(1, -1, 1, 1);
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (int m : {9, 90, 200}) {
    std::vector<std::uint8_t> q;
    for (int k = 0; k < m; ++k) q.push_back(static_cast<std::uint8_t>(k % 2));
    qs.push_back(q);
  }
  for (int k = 0; k < 30; ++k) {
    std::vector<std::uint8_t> t;
    for (int j = 0; j < 20 + 11 * k; ++j) t.push_back(static_cast<std::uint8_t>((j / (1 + k % 3)) % 2));
    ts.push_back(t);
  }
  for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) {
    Pairs p = every_pair(qs, ts);
    require_oracle(p, s, mode);
  }
}

TEST_CASE("GPU batch alignment in small batches, a pair too large for them left", "[gpu][pairwise][batch][align]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(23);
  const ScoringScheme s = test::protein_scheme();
  std::vector<std::vector<std::uint8_t>> qs{test::random_ranks(rng, 150, 20), test::random_ranks(rng, 40, 20)};
  std::vector<std::vector<std::uint8_t>> ts;
  for (int k = 0; k < 40; ++k) ts.push_back(k % 4 == 0 ? test::mutate(rng, qs[0], 20) : test::random_ranks(rng, 20 + 9 * k, 20));
  ts.push_back(test::random_ranks(rng, 3000, 20));  // 150 x 3000: its direction bits alone pass the batch's share
  Pairs p = every_pair(qs, ts);
  // 512 KiB batches: a pair taken where at most 32 KiB (up to 256 target
  // letters for the longer query), a batch some 20 pairs.
  CHECK(require_oracle(p, s, Mode::local, std::size_t{512} << 10) >= 1);
}
