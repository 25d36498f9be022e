// The database-search kernels' host layout (batch_layout.hpp): the order of
// the targets, the pairs' offsets, and the letters as the kernels read them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <algorithm>
#include <vector>

#include "pairwise/batch_layout.hpp"

using namespace gdp::pairwise;

TEST_CASE("the layout sorts the targets longest first and writes each pair's letters interleaved", "[batch]") {
  const int threads = GENERATE(1, 3, 7, 40);  // blocks of the pairs
  INFO(threads << " threads");
  std::mt19937 rng(5);
  std::vector<std::vector<std::uint8_t>> store;
  for (int k = 0; k < 301; ++k) {
    // Many ties, some empty targets (left out), lengths across SIMD widths.
    std::vector<std::uint8_t> t(static_cast<std::size_t>(rng() % 4 == 0 ? rng() % 3 : rng() % 90));
    for (auto& c : t) c = static_cast<std::uint8_t>(rng() % 20);
    store.push_back(t);
  }
  store.emplace_back(batch::kMaxTarget + 1, std::uint8_t{3});  // left to the long-pair engine
  const std::vector<Residues> targets(store.begin(), store.end());
  const batch::ByLength by_length = batch::by_length(targets);
  const auto& sorted = by_length.index;
  std::size_t all_letters = 0;
  std::vector<std::int64_t> empty;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    all_letters += targets[t].size();
    if (targets[t].empty()) empty.push_back(static_cast<std::int64_t>(t));
  }
  REQUIRE(by_length.residues == all_letters - (batch::kMaxTarget + 1));
  REQUIRE(by_length.all_residues == all_letters);
  REQUIRE(by_length.empty == empty);
  REQUIRE(sorted.size() == targets.size() - empty.size() - 1);
  REQUIRE(by_length.length.size() == sorted.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    REQUIRE(by_length.length[k] == static_cast<int>(targets[static_cast<std::size_t>(sorted[k])].size()));
    if (k == 0) continue;
    const int a = by_length.length[k - 1], b = by_length.length[k];
    REQUIRE((a > b || (a == b && sorted[k - 1] < sorted[k])));
  }
  const int pad = 23;
  for (const bool pairs16 : {false, true}) {
    for (const std::size_t begin : {std::size_t{0}, std::size_t{7}}) {
      INFO("pairs16 " << pairs16 << ", from " << begin);
      const batch::Layout l = batch::lay_out(by_length, begin, sorted.size(), pairs16, threads);
      const std::size_t step = pairs16 ? 2 : 1;
      REQUIRE(l.offset.size() == (sorted.size() - begin + step - 1) / step);
      // From the third pair on, through 3 threads.
      const std::size_t k0 = 2;
      std::vector<std::uint8_t> out(l.bytes() - static_cast<std::size_t>(l.offset[k0]) * step, 0xee);
      batch::write_letters(l, k0, l.offset.size(), targets, pad, out.data(), 3);
      std::int64_t residues = 0;
      for (std::size_t k = 0; k < l.offset.size(); ++k) {
        const Residues a = targets[static_cast<std::size_t>(l.first(k))];
        REQUIRE(l.first(k) == sorted[begin + step * k]);
        REQUIRE(l.length[k] == static_cast<int>(a.size()));
        const Residues b = l.second(k) >= 0 ? targets[static_cast<std::size_t>(l.second(k))] : Residues{};
        residues += static_cast<std::int64_t>(a.size() + b.size());
        if (k < k0) continue;
        const std::size_t at = static_cast<std::size_t>(l.offset[k] - l.offset[k0]) * step;
        for (std::size_t j = 0; j < a.size(); ++j) {
          REQUIRE(out[at + step * j] == a[j]);
          if (pairs16) REQUIRE(out[at + 2 * j + 1] == (j < b.size() ? b[j] : pad));
        }
      }
      REQUIRE(l.residues == residues);
    }
  }
}

TEST_CASE("split_by_residues deals the targets into shares of about equal residues, each longest first", "[batch]") {
  std::mt19937 rng(8);
  std::vector<std::vector<std::uint8_t>> store;
  for (int k = 0; k < 500; ++k)  // lengths of a skewed spread, many ties, some empty
    store.emplace_back(static_cast<std::size_t>(rng() % 7 == 0 ? 0 : (rng() % 40) * (rng() % 40)), std::uint8_t{1});
  const std::vector<Residues> targets(store.begin(), store.end());
  const batch::ByLength sorted = batch::by_length(targets);
  REQUIRE_THROWS_AS(batch::split_by_residues(sorted, 0), std::invalid_argument);
  for (const std::size_t parts : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}}) {
    INFO(parts << " shares");
    const std::vector<batch::ByLength> shares = batch::split_by_residues(sorted, parts);
    REQUIRE(shares.size() == parts);
    REQUIRE(shares[0].empty == sorted.empty);
    std::vector<int> seen(targets.size(), 0);
    std::uint64_t least = sorted.residues, most = 0;
    for (std::size_t d = 0; d < parts; ++d) {
      const batch::ByLength& share = shares[d];
      if (d > 0) REQUIRE(share.empty.empty());
      REQUIRE(share.all_residues == sorted.all_residues);
      REQUIRE(share.length.size() == share.index.size());
      std::uint64_t residues = 0;
      for (std::size_t k = 0; k < share.index.size(); ++k) {
        ++seen[share.index[k]];
        REQUIRE(share.length[k] == static_cast<int>(targets[share.index[k]].size()));
        residues += static_cast<std::uint64_t>(share.length[k]);
        if (k > 0) {  // longest first, ties in the search's order
          const int a = share.length[k - 1], b = share.length[k];
          REQUIRE((a > b || (a == b && share.index[k - 1] < share.index[k])));
        }
      }
      REQUIRE(share.residues == residues);
      least = std::min(least, residues), most = std::max(most, residues);
    }
    for (std::size_t t = 0; t < targets.size(); ++t) REQUIRE(seen[t] == (targets[t].empty() ? 0 : 1));
    // No share more than the longest target past the least.
    REQUIRE(most - least <= static_cast<std::uint64_t>(sorted.length.front()));
  }
}

TEST_CASE("a chunk's pieces: doubling shares of its columns, on whole bundles, ending at its last pair", "[batch]") {
  for (const std::size_t count : {std::size_t{1}, std::size_t{40}, std::size_t{700}, std::size_t{30000}}) {
    std::mt19937 rng(static_cast<unsigned>(count));
    std::vector<std::vector<std::uint8_t>> store;
    for (std::size_t k = 0; k < count; ++k) store.emplace_back(1 + rng() % 500, std::uint8_t{0});
    const std::vector<Residues> targets(store.begin(), store.end());
    const batch::ByLength sorted = batch::by_length(targets);
    const batch::Layout l = batch::lay_out(sorted, 0, count, true, 2);
    const std::vector<std::size_t> ends = batch::piece_ends(l);
    INFO(count << " targets, " << l.offset.size() << " pairs");
    REQUIRE(!ends.empty());
    REQUIRE(ends.back() == l.offset.size());
    REQUIRE(ends.size() <= 7);
    for (std::size_t x = 0; x < ends.size(); ++x) {
      REQUIRE(ends[x] > (x ? ends[x - 1] : 0));
      if (x + 1 < ends.size()) REQUIRE(ends[x] % 32 == 0);
    }
    if (count == 30000) {
      // 15,000 pairs: every piece is there, the first about 1/64 of the columns.
      REQUIRE(ends.size() == 7);
      const long long first = l.offset[ends[0]];
      REQUIRE(first >= l.columns / 64);
      REQUIRE(first < l.columns / 64 + 32 * 500);
    }
  }
}

TEST_CASE("the kernels' results are filed under their targets, overflows in pair order", "[batch]") {
  std::vector<std::vector<std::uint8_t>> store;
  for (int k = 0; k < 40001; ++k) store.emplace_back(1 + k % 300, std::uint8_t{0});
  const std::vector<Residues> targets(store.begin(), store.end());
  const batch::ByLength sorted = batch::by_length(targets);
  for (const bool pairs16 : {true, false}) {
    const batch::Layout l = batch::lay_out(sorted, 0, targets.size(), pairs16, 4);
    const std::size_t pairs = l.offset.size();
    std::vector<int> raw(4 * pairs);
    // Each target's result names it; every 1,000th pair overflows.
    for (std::size_t k = 0; k < pairs; ++k) {
      if (pairs16) {
        raw[2 * k] = k % 1000 == 0 ? 40000 : static_cast<int>(l.first(k) % 30000);
        raw[2 * k + 1] = l.second(k) < 0 ? 0 : static_cast<int>(l.second(k) % 30000);
      } else {
        raw[4 * k] = static_cast<int>(l.first(k)), raw[4 * k + 1] = 7, raw[4 * k + 2] = static_cast<int>(k);
      }
    }
    std::vector<PassResult> results(targets.size());
    std::vector<std::int64_t> overflowed;
    if (pairs16)
      batch::file_scores16(l, raw.data(), 32000, results, overflowed, 4);
    else
      batch::file_ends(l, raw.data(), results, 4);
    for (std::size_t k = 0; k < pairs; ++k) {
      const PassResult& a = results[static_cast<std::size_t>(l.first(k))];
      if (pairs16) {
        REQUIRE(a.score == (k % 1000 == 0 ? 40000 : static_cast<int>(l.first(k) % 30000)));
        if (l.second(k) >= 0) REQUIRE(results[static_cast<std::size_t>(l.second(k))].score == l.second(k) % 30000);
      } else {
        REQUIRE(a.score == l.first(k));
        REQUIRE(a.end_i == 7);
        REQUIRE(a.end_j == static_cast<std::int64_t>(k));
      }
    }
    if (pairs16) {
      REQUIRE(overflowed.size() == (pairs + 999) / 1000);
      for (std::size_t x = 0; x < overflowed.size(); ++x) REQUIRE(overflowed[x] == l.first(1000 * x));
    }
  }
}
