// recurrence.hpp: the pair rule against its table, and each rewritten form
// (rows_cell for CPU2 and OMP2, packed_cell for the short records' 16-bit
// tables, block_cell for the blocked fill) against the plain cell(), on
// tables of random cells, so that the rewrites are proved on the CPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "fold/fold.hpp"
#include "fold/recurrence.hpp"
#include "fold/table.hpp"

using namespace gdp::fold;

namespace {

// C(i, j) = random cells above the main diagonal, 0 on and below it.
struct RandomTable {
  int n;
  std::vector<int> v;
  RandomTable(std::mt19937& rng, int size, int max_value) : n(size), v(static_cast<std::size_t>(size * size), 0) {
    std::uniform_int_distribution<int> d(0, max_value);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) v[static_cast<std::size_t>(i * n + j)] = d(rng);
  }
  int operator()(long long i, long long j) const { return j <= i ? 0 : v[static_cast<std::size_t>(i * n + j)]; }
};

std::vector<std::uint8_t> random_codes(std::mt19937& rng, int n, int padding) {
  std::uniform_int_distribution<int> d(0, 3);
  std::vector<std::uint8_t> codes(static_cast<std::size_t>(n), kNoBase);
  for (int i = 0; i < n - padding; ++i) codes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(d(rng));
  return codes;
}

// The plain form over `c`.
int plain(const RandomTable& c, const std::vector<std::uint8_t>& codes, long long i, long long j, const Rules& r) {
  const bool closes_pair =
      closes(codes[static_cast<std::size_t>(i)], codes[static_cast<std::size_t>(j)], j - i, r.min_loop, r.gu);
  return cell(closes_pair, [&] { return c(i + 1, j - 1); }, i, j, [&](long long k) { return c(i, k); },
              [&](long long k) { return c(k + 1, j); });
}

// block_cell against plain() on every cell of every block of a random
// table of `blocks` blocks of B, Cell-typed tiles laid out as the kernel's.
template <int B, class Cell>
void check_blocks(std::mt19937& rng, int blocks, const Rules& r) {
  using Tile = Cell[B][B + 4 / sizeof(Cell)];
  const int n = blocks * B;
  const RandomTable c(rng, n, 1000);
  const std::vector<std::uint8_t> codes = random_codes(rng, n, B / 2);
  std::uniform_int_distribution<int> garbage(20000, 30000);  // what the kernel leaves unset, never read
  for (int d = 0; d < blocks; ++d)
    for (int I = 0; I + d < blocks; ++I) {
      const int J = I + d, i0 = I * B, j0 = J * B;
      Tile cur{}, left{}, below{};
      std::vector<int> next_row(B), left_column(B);
      std::vector<std::uint8_t> column_bases(B);
      for (int x = 0; x < B; ++x) {
        column_bases[static_cast<std::size_t>(x)] = codes[static_cast<std::size_t>(j0 + x)];
        next_row[static_cast<std::size_t>(x)] = d >= 1 ? c(i0 + B, j0 + x) : garbage(rng);
        left_column[static_cast<std::size_t>(x)] = d >= 1 ? c(i0 + x + 1, j0 - 1) : garbage(rng);
        for (int y = 0; y < B; ++y) {
          cur[x][y] = static_cast<Cell>(c(i0 + x, j0 + y));
          left[x][y] = static_cast<Cell>(d >= 1 ? c(i0 + x, i0 + y) : garbage(rng));
          below[x][y] = static_cast<Cell>(d >= 1 ? c(j0 + x, j0 + y) : garbage(rng));
        }
      }
      const BlockTiles<Tile> tiles{cur, left, below, next_row.data(), left_column.data(), column_bases.data()};
      for (int row = 0; row < B; ++row)
        for (int col = d == 0 ? row + 1 : 0; col < B; ++col) {
          const long long i = i0 + row, j = j0 + col;
          // The cell being finished holds the bulk: the splits through the
          // blocks strictly between I and J, from 0.
          int bulk = 0;
          for (long long k = i0 + B; k < j0; ++k) bulk = std::max(bulk, c(i, k) + c(k + 1, j));
          const Cell kept = cur[row][col];
          cur[row][col] = static_cast<Cell>(bulk);
          INFO("block " << I << ", " << J << " cell " << row << ", " << col << " min loop " << r.min_loop << " gu "
                        << r.gu);
          REQUIRE(block_cell<B>(tiles, row, col, i, j, d == 0, codes[static_cast<std::size_t>(i)], r.min_loop, r.gu) ==
                  plain(c, codes, i, j, r));
          cur[row][col] = kept;
        }
    }
}

}  // namespace

TEST_CASE("the pair rule: A-U, G-C and, with G-U, G-U, either way round", "[fold]") {
  const char* bases = "ACGU";
  for (bool gu : {true, false})
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const char x = bases[a], y = bases[b];
        const auto is = [&](char p, char q) { return (x == p && y == q) || (x == q && y == p); };
        const bool want = is('A', 'U') || is('G', 'C') || (gu && is('G', 'U'));
        INFO(x << y << " gu " << gu);
        REQUIRE(base_code(x) == a);
        REQUIRE(pairs(base_code(x), base_code(y), gu) == want);
        REQUIRE(can_pair(x, y, Rules{gu, 3}) == want);
        REQUIRE_FALSE(pairs(base_code(x), kNoBase, gu));
        REQUIRE_FALSE(pairs(kNoBase, base_code(y), gu));
      }
  REQUIRE(base_code('T') == kNoBase);
  REQUIRE(base_code('a') == kNoBase);
  REQUIRE(closes(kBaseG, kBaseC, 4, 3, true));
  REQUIRE_FALSE(closes(kBaseG, kBaseC, 3, 3, true));  // a loop of two is too short
}

TEST_CASE("CPU2's cell over a row and a transposed row (rows_cell) equals the plain cell on random tables", "[fold]") {
  std::mt19937 rng(30);
  std::uniform_int_distribution<int> garbage(20000, 30000);  // on and below the diagonal: never read
  for (int n : {2, 3, 4, 5, 9, 17, 40})
    for (int min_loop : {0, 1, 3, 4})
      for (bool gu : {true, false}) {
        const RandomTable c(rng, n, 1000);
        const std::vector<std::uint8_t> codes = random_codes(rng, n, 0);
        std::vector<int> rows(static_cast<std::size_t>(n * n)), transposed(static_cast<std::size_t>(n * n));
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) {
            rows[static_cast<std::size_t>(i * n + j)] = j > i ? c(i, j) : garbage(rng);
            transposed[static_cast<std::size_t>(j * n + i)] = j > i ? c(i, j) : garbage(rng);
          }
        const Rules r{gu, min_loop};
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j) {
            INFO("n " << n << " cell " << i << ", " << j << " min loop " << min_loop << " gu " << gu);
            const bool closes_pair =
                closes(codes[static_cast<std::size_t>(i)], codes[static_cast<std::size_t>(j)], j - i, min_loop, gu);
            REQUIRE(rows_cell(closes_pair, [&] { return c(i + 1, j - 1); }, &rows[static_cast<std::size_t>(i * n)],
                              &transposed[static_cast<std::size_t>(j * n)], i, j) == plain(c, codes, i, j, r));
          }
      }
}

TEST_CASE("the short records' 16-bit cell (packed_cell) equals the plain cell on random tables", "[fold]") {
  std::mt19937 rng(31);
  for (int n : {2, 3, 4, 5, 9, 17, 40})
    for (int min_loop : {0, 1, 3, 4})
      for (bool gu : {true, false}) {
        const RandomTable c(rng, n, 30000);  // sums past 16 bits, as int adds them
        const std::vector<std::uint8_t> codes = random_codes(rng, n, 0);
        std::vector<int> row(static_cast<std::size_t>(n));
        std::vector<std::uint16_t> cells(static_cast<std::size_t>(std::max<long long>(Table::packed_cells(n), 1)));
        for (int i = 0; i < n; ++i) {
          row[static_cast<std::size_t>(i)] = static_cast<int>(Table::row_start(n, i) - (i + 1));
          for (int j = i + 1; j < n; ++j)
            cells[static_cast<std::size_t>(row[static_cast<std::size_t>(i)] + j)] = static_cast<std::uint16_t>(c(i, j));
        }
        const RowTable<std::uint16_t> at{cells.data(), row.data()};
        const Rules r{gu, min_loop};
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j) {
            INFO("n " << n << " cell " << i << ", " << j << " min loop " << min_loop << " gu " << gu);
            REQUIRE(at(i, j) == c(i, j));
            REQUIRE(packed_cell(at, codes.data(), i, j, min_loop, gu) == plain(c, codes, i, j, r));
          }
      }
}

TEST_CASE("the blocked fill's cell (block_cell) equals the plain cell on random tables", "[fold]") {
  std::mt19937 rng(32);
  for (int min_loop : {0, 1, 3, 4})
    for (bool gu : {true, false}) {
      const Rules r{gu, min_loop};
      check_blocks<8, std::uint16_t>(rng, 4, r);
      check_blocks<8, int>(rng, 4, r);
      check_blocks<4, std::uint16_t>(rng, 5, r);  // min_loop reaching across a whole block
    }
}

TEST_CASE("the traceback's tests", "[fold]") {
  const auto at = [](int i, int j) { return j <= i ? 0 : j - i; };
  REQUIRE(pair_gives(at, kBaseG, kBaseC, 0, 5, 4, 3, true));        // C(1, 4) + 1 = 4
  REQUIRE_FALSE(pair_gives(at, kBaseG, kBaseA, 0, 5, 4, 3, true));  // G-A does not pair
  REQUIRE_FALSE(pair_gives(at, kBaseG, kBaseU, 0, 5, 4, 3, false));  // nor G-U without the wobble
  REQUIRE_FALSE(pair_gives(at, kBaseG, kBaseC, 0, 5, 4, 5, true));  // a loop too short
  REQUIRE_FALSE(pair_gives(at, kBaseG, kBaseC, 0, 5, 5, 3, true));  // not the value
  REQUIRE(split_gives(7, 3, 4));
  REQUIRE_FALSE(split_gives(7, 3, 3));
}
