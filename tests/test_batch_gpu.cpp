// The database-search kernels (batch_gpu.hpp) equal the scalar oracle: the
// score of every pair, and the end cell (ties included) where asked; in
// every mode, across the group sizes, rows a lane and passes the query's length
// chooses, with targets of many lengths (0 included), 16-bit scores that
// overflow, and a database streamed in chunks. Tagged [gpu].
#include <catch2/catch.hpp>
#include <algorithm>
#include <stdexcept>

#include "gpu_test.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/modes.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;

namespace {

struct Database {
  std::vector<std::vector<std::uint8_t>> owned;
  std::vector<Residues> spans;
};

// Targets of random lengths up to `longest`, some of them mutated copies
// of the query (high scores, long alignments), some empty.
Database random_database(std::mt19937& rng, const std::vector<std::uint8_t>& query, int alphabet, std::size_t count,
                         std::size_t longest) {
  Database d;
  std::uniform_int_distribution<std::size_t> length(0, longest);
  for (std::size_t k = 0; k < count; ++k) {
    if (k % 5 == 1)
      d.owned.push_back(test::mutate(rng, query, alphabet));
    else
      d.owned.push_back(test::random_ranks(rng, k % 17 == 3 ? 0 : length(rng), alphabet));
  }
  for (const auto& t : d.owned) d.spans.push_back(t);
  return d;
}

// Every query's results equal the oracle's, in a first call (which lays
// the database out, or streams it) and a second (which finds it on the
// device, when it fits).
void require_oracle(const std::vector<Residues>& qs, const Database& d, const ScoringScheme& s, Mode mode, bool ends,
                    SearchTuning tuning = {}, const std::vector<int>& devices = {0}) {
  BatchDatabase db(d.spans, s, devices, tuning);
  for (Residues q : qs) REQUIRE(db.can_score(q));
  const Shape shape = shape_of(mode, s);
  for (int call = 0; call < 2; ++call) {
    std::vector<int> seen(qs.size(), 0);
    db.score(qs, shape, ends, nullptr, [&](std::size_t k, const std::vector<PassResult>& got) {
      REQUIRE(k < qs.size());
      REQUIRE(++seen[k] == 1);
      REQUIRE(got.size() == d.spans.size());
      for (std::size_t t = 0; t < d.spans.size(); ++t) {
        const PassResult want = score_pass_scalar(qs[k], d.spans[t], s, shape);
        INFO("call " << call << ", " << devices.size() << " devices, rows a lane " << tuning.rows16 << ", target " << t << " of " << d.spans[t].size()
                     << " letters, query " << k << " of " << qs[k].size() << ", mode " << to_string(mode) << (ends ? ", with ends" : ""));
        REQUIRE(got[t].score == want.score);
        if (ends) {
          REQUIRE(got[t].end_i == want.end_i);
          REQUIRE(got[t].end_j == want.end_j);
        }
      }
    });
    REQUIRE(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(qs.size()));
  }
}
void require_oracle(Residues q, const Database& d, const ScoringScheme& s, Mode mode, bool ends,
                    SearchTuning tuning = {}, const std::vector<int>& devices = {0}) {
  require_oracle(std::vector<Residues>{q}, d, s, mode, ends, tuning, devices);
}

}  // namespace

TEST_CASE("GPU database search equals the oracle on many shapes", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(11);
  const ScoringScheme blosum = test::protein_scheme(), dna = test::dna_scheme();
  // Query lengths around a lane's rows (8, 12, 16), the group sizes (4..32
  // lanes) and several passes.
  for (std::size_t m : {1, 7, 8, 17, 31, 48, 49, 64, 65, 127, 129, 144, 200, 300, 513, 1100}) {
    for (const ScoringScheme* s : {&blosum, &dna}) {
      const int alphabet = s == &dna ? 4 : 20;
      const auto q = test::random_ranks(rng, m, alphabet);
      const Database d = random_database(rng, q, alphabet, 150, 700);
      for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) require_oracle(q, d, *s, mode, true);
      // The 16-bit kernel, as chosen and at each of its rows a lane.
      require_oracle(q, d, *s, Mode::local, false);
      for (const int rows : batch_rows16()) require_oracle(q, d, *s, Mode::local, false, {.rows16 = rows});
    }
  }
}

TEST_CASE("a database search refuses rows a lane its 16-bit kernel has not", "[pairwise][batch]") {
  const ScoringScheme s = test::protein_scheme();
  const std::vector<std::uint8_t> t{1, 2, 3};
  const std::vector<Residues> targets{t};
  REQUIRE_THROWS_AS(BatchDatabase(targets, s, {0}, {.rows16 = 7}), std::invalid_argument);
  REQUIRE_THROWS_AS(BatchDatabase(targets, s, {}), std::invalid_argument);
}

TEST_CASE("GPU database search keeps the oracle's ties", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  // Repeats score the same in many cells: the first in row-major order wins.
  const ScoringScheme s = test::dna_scheme(1, -1, 1, 1);
  std::mt19937 rng(5);
  std::vector<std::uint8_t> q;
  for (int k = 0; k < 90; ++k) q.push_back(static_cast<std::uint8_t>(k % 2));
  Database d;
  for (int k = 0; k < 70; ++k) {
    std::vector<std::uint8_t> t;
    for (int j = 0; j < 20 + 7 * k; ++j) t.push_back(static_cast<std::uint8_t>((j / (1 + k % 3)) % 2));
    d.owned.push_back(t);
  }
  for (const auto& t : d.owned) d.spans.push_back(t);
  for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal}) require_oracle(q, d, s, mode, true);
}

TEST_CASE("GPU database search: the first query runs on the database's pieces as they go up", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  // 10,000 pairs: seven pieces, the first query's kernels on each while
  // the next is written and copied; the later queries' over the whole.
  std::mt19937 rng(17);
  const ScoringScheme s = test::protein_scheme();
  const auto q = test::random_ranks(rng, 150, 20), q2 = test::random_ranks(rng, 40, 20);
  const Database d = random_database(rng, q, 20, 20000, 200);
  const std::vector<Residues> qs{q, q2};
  require_oracle(qs, d, s, Mode::local, false);
  require_oracle(qs, d, s, Mode::semiglobal, true);
}

TEST_CASE("GPU database search reruns 16-bit overflows in 32 bits", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  // Matches score 100: similar pairs pass 32,767 within a few hundred letters.
  const ScoringScheme s = test::dna_scheme(100, -90, 50, 20);
  std::mt19937 rng(3);
  const auto q = test::random_ranks(rng, 700, 4);
  const Database d = random_database(rng, q, 4, 90, 900);
  const int before = gpu_stats().overflow_reruns;
  require_oracle(q, d, s, Mode::local, false);
  REQUIRE(gpu_stats().overflow_reruns > before);
}

TEST_CASE("GPU database search streamed in chunks equals one that fits", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(9);
  const ScoringScheme s = test::protein_scheme();
  const auto q = test::random_ranks(rng, 250, 20), q2 = test::random_ranks(rng, 90, 20),
             q3 = test::random_ranks(rng, 600, 20);
  const Database d = random_database(rng, q, 20, 400, 600);
  const std::vector<Residues> qs{q, q2, q3};
  for (std::int64_t chunk : {0, 1, 997, 20000}) {  // 0: one chunk, from the free memory
    require_oracle(qs, d, s, Mode::local, false, {.chunk_residues = chunk});
    require_oracle(qs, d, s, Mode::semiglobal, true, {.chunk_residues = chunk});
  }
}

TEST_CASE("GPU database search over several devices (GPU 0 listed two and three times) equals the oracle",
          "[gpu][pairwise][batch][devices]") {
  if (test::skip_without_gpu()) return;
  // Each device searches its share of the targets side by side, with its
  // own streams and buffers; a query's results are merged from all.
  std::mt19937 rng(23);
  const ScoringScheme s = test::protein_scheme(), high = test::dna_scheme(100, -90, 50, 20);
  const auto q = test::random_ranks(rng, 150, 20), q2 = test::random_ranks(rng, 40, 20),
             q3 = test::random_ranks(rng, 600, 20);
  const Database d = random_database(rng, q, 20, 3000, 400);
  const std::vector<Residues> qs{q, q2, q3};
  for (const std::vector<int>& devices : {std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}}) {
    require_oracle(qs, d, s, Mode::local, false, {}, devices);
    require_oracle(qs, d, s, Mode::semiglobal, true, {}, devices);
    require_oracle(qs, d, s, Mode::local, false, {.chunk_residues = 20000}, devices);  // streamed
    // 16-bit overflows redone on the device that found them.
    const auto dq = test::random_ranks(rng, 700, 4);
    const Database dd = random_database(rng, dq, 4, 90, 900);
    const int before = gpu_stats().overflow_reruns;
    require_oracle(dq, dd, high, Mode::local, false, {}, devices);
    REQUIRE(gpu_stats().overflow_reruns > before);
  }
}

TEST_CASE("align_all through the database-search and batch-alignment kernels equals the CPU's, streamed or not", "[gpu][pairwise][batch]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(21);
  const ScoringScheme s = test::protein_scheme();
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (int k = 0; k < 3; ++k) qs.push_back(test::random_ranks(rng, 60 + 90 * k, 20));
  for (int k = 0; k < 300; ++k) ts.push_back(k % 7 == 0 ? test::mutate(rng, qs[k % 3], 20) : test::random_ranks(rng, 10 + k, 20));
  const std::vector<Residues> queries(qs.begin(), qs.end()), targets(ts.begin(), ts.end());
  for (Mode mode : {Mode::local, Mode::global, Mode::semiglobal})
    for (bool score_only : {true, false})
      for (std::size_t top : {std::size_t{0}, std::size_t{5}}) {
        Options cpu;
        cpu.mode = mode, cpu.score_only = score_only;
        Options gpu = cpu;
        gpu.backend = Backend::gpu, gpu.min_batch_cells = 0;
        const auto want = align_all(queries, targets, s, cpu, top);
        for (const long long chunk : {0LL, 2000LL}) {  // 2000: the targets streamed in chunks
          for (const std::vector<int>& devices : {std::vector<int>{}, std::vector<int>{0, 0}}) {  // GPU 0 twice: two shares
            gpu.tuning.db_chunk_residues = chunk;
            gpu.devices = devices;
            const auto got = align_all(queries, targets, s, gpu, top);
            INFO("mode " << to_string(mode) << (score_only ? ", score only" : "") << ", top " << top << ", chunk "
                         << chunk << ", " << devices.size() << " devices");
            REQUIRE(got.size() == want.size());
            for (std::size_t k = 0; k < got.size(); ++k) {
              REQUIRE(got[k].query == want[k].query);
              REQUIRE(got[k].target == want[k].target);
              REQUIRE(got[k].alignment.score == want[k].alignment.score);
              REQUIRE(got[k].alignment.query_end == want[k].alignment.query_end);
              REQUIRE(got[k].alignment.target_end == want[k].alignment.target_end);
              if (!score_only)
                REQUIRE(rescore(got[k].alignment, queries[got[k].query], targets[got[k].target], s) ==
                        got[k].alignment.score);
            }
          }
        }
      }
}

TEST_CASE("align_all's large pairs, each aligned whole on the GPU, spread over several devices (GPU 0 twice)",
          "[gpu][pairwise][batch][devices]") {
  if (test::skip_without_gpu()) return;
  std::mt19937 rng(29);
  const ScoringScheme s = test::dna_scheme();
  std::vector<std::vector<std::uint8_t>> qs, ts;
  for (int k = 0; k < 3; ++k) qs.push_back(test::random_ranks(rng, 50 + 70 * k, 4));
  for (int k = 0; k < 12; ++k) ts.push_back(k % 3 == 0 ? test::mutate(rng, qs[k % 3], 4) : test::random_ranks(rng, 30 + 40 * k, 4));
  const std::vector<Residues> queries(qs.begin(), qs.end()), targets(ts.begin(), ts.end());
  for (Mode mode : {Mode::local, Mode::global}) {
    Options cpu;
    cpu.mode = mode;
    Options gpu = cpu;
    gpu.backend = Backend::gpu, gpu.min_gpu_cells = 0, gpu.devices = {0, 0};
    const auto want = align_all(queries, targets, s, cpu);
    const auto got = align_all(queries, targets, s, gpu);
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      INFO("mode " << to_string(mode) << ", pair " << k);
      REQUIRE(got[k].alignment.score == want[k].alignment.score);
      REQUIRE(got[k].alignment.query_end == want[k].alignment.query_end);
      REQUIRE(got[k].alignment.target_end == want[k].alignment.target_end);
      REQUIRE(rescore(got[k].alignment, queries[got[k].query], targets[got[k].target], s) == got[k].alignment.score);
    }
  }
}
