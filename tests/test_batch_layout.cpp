// The database-search kernels' host layout (batch_layout.hpp): the order of
// the targets, the pairs' offsets, and the letters as the kernels read them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "pairwise/batch_layout.hpp"

using namespace gdp::pairwise;

TEST_CASE("the layout sorts the targets longest first and writes each pair's letters interleaved", "[batch]") {
  std::mt19937 rng(5);
  std::vector<std::vector<std::uint8_t>> store;
  for (int k = 0; k < 301; ++k) {
    // Many ties, some empty targets (left out), lengths across SIMD widths.
    std::vector<std::uint8_t> t(static_cast<std::size_t>(rng() % 4 == 0 ? rng() % 3 : rng() % 90));
    for (auto& c : t) c = static_cast<std::uint8_t>(rng() % 20);
    store.push_back(t);
  }
  const std::vector<Residues> targets(store.begin(), store.end());
  const std::vector<std::int64_t> sorted = batch::by_length(targets);
  std::size_t non_empty = 0;
  for (const auto& t : targets) non_empty += !t.empty();
  REQUIRE(sorted.size() == non_empty);
  for (std::size_t k = 1; k < sorted.size(); ++k) {
    const std::size_t a = targets[static_cast<std::size_t>(sorted[k - 1])].size(), b = targets[static_cast<std::size_t>(sorted[k])].size();
    REQUIRE((a > b || (a == b && sorted[k - 1] < sorted[k])));
  }
  const int pad = 23;
  for (const bool pairs16 : {false, true}) {
    for (const std::size_t begin : {std::size_t{0}, std::size_t{7}}) {
      INFO("pairs16 " << pairs16 << ", from " << begin);
      const batch::Layout l = batch::lay_out(sorted, begin, sorted.size(), targets, pairs16);
      const std::size_t step = pairs16 ? 2 : 1;
      REQUIRE(l.offset.size() == (sorted.size() - begin + step - 1) / step);
      // From the third pair on, through 3 threads.
      const std::size_t k0 = 2;
      std::vector<std::uint8_t> out(l.bytes() - static_cast<std::size_t>(l.offset[k0]) * step, 0xee);
      batch::write_letters(l, k0, l.offset.size(), targets, pad, out.data(), 3);
      std::int64_t residues = 0;
      for (std::size_t k = 0; k < l.offset.size(); ++k) {
        const Residues a = targets[static_cast<std::size_t>(l.first[k])];
        REQUIRE(l.first[k] == sorted[begin + step * k]);
        REQUIRE(l.length[k] == static_cast<int>(a.size()));
        const Residues b = l.second[k] >= 0 ? targets[static_cast<std::size_t>(l.second[k])] : Residues{};
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
