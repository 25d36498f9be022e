// An alignment's score from its columns, and its rows.
#include <stdexcept>
#include <string>

#include "align3/align3.hpp"
#include "align3/recurrence.hpp"

namespace gdp::align3 {

int rescore(const Alignment& al, Residues a, Residues b, Residues c, const ScoringScheme& s, int gap) {
  std::size_t i = 0, j = 0, k = 0;
  int total = 0;
  for (const std::uint8_t move : al.moves) {
    if (move == 0 || move > kMoves) throw std::logic_error("a column that advances no sequence");
    const bool da = move & kMoveA, db = move & kMoveB, dc = move & kMoveC;
    if ((da && i >= a.size()) || (db && j >= b.size()) || (dc && k >= c.size()))
      throw std::logic_error("the columns run past a sequence's end");
    const int ab = da && db ? s.score(a[i], b[j]) : 0, ac = da && dc ? s.score(a[i], c[k]) : 0,
              bc = db && dc ? s.score(b[j], c[k]) : 0;
    total += column_score(move, ab, ac, bc, gap);
    i += da, j += db, k += dc;
  }
  if (i != a.size() || j != b.size() || k != c.size()) throw std::logic_error("the columns do not cover the sequences");
  return total;
}

std::string row_of(const Alignment& al, int which, Residues s, const std::string& letters) {
  const unsigned bit = 1u << which;
  std::string row;
  row.reserve(al.moves.size());
  std::size_t x = 0;
  for (const std::uint8_t move : al.moves) row += (move & bit) ? letters[s[x++]] : '-';
  return row;
}

}  // namespace gdp::align3
