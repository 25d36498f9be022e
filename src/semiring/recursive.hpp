#pragma once
// Strassen's and Winograd's recursion (dissertation chapter 3), written once
// for every backend: seven half-size products a level instead of eight.
// Odd sides are padded with a row or column of zeros at each level, which
// leaves the product unchanged.
//
// A level is three steps: the quarters of the padded inputs, the seven
// products (each one's operands made from the quarters), and C combined
// from them. The products do not depend on one another, so a caller may
// compute them on several devices (cuda/spread_products.cu); the bits are
// the same wherever each is computed.
//
// A Backend supplies the matrix type and its operations:
//   Matrix                     the matrix (host or device), default-constructible
//   rows(m), cols(m)
//   padded(m)                  sides rounded up to even, the new cells zero
//   quadrant(m, qi, qj)        one quarter of an even-sided matrix
//   add(x, y), sub(x, y)       elementwise, wrapping on integers
//   base(a, b)                 the classical product
//   assemble(c11, c12, c21, c22, rows, cols)   the quarters, cropped
#include <array>
#include <cstdint>

namespace gdp::semiring {

template <class Backend>
struct StrassenRecursion {
  using M = typename Backend::Matrix;
  static constexpr int products = 7;
  const Backend& be;
  bool winograd;

  // One level's padded inputs (kept: the quarters may be views into them)
  // and their quarters.
  struct Quarters {
    M ap, bp;
    M a11, a12, a21, a22, b11, b12, b21, b22;
  };

  // True where a and b are multiplied by the base product, not split.
  bool is_base(const M& a, const M& b, int levels) const {
    return levels == 0 || be.rows(a) < 2 || be.cols(a) < 2 || be.cols(b) < 2;
  }

  Quarters quarters(const M& a, const M& b) const {
    Quarters q;
    q.ap = be.padded(a), q.bp = be.padded(b);
    q.a11 = be.quadrant(q.ap, 0, 0), q.a12 = be.quadrant(q.ap, 0, 1);
    q.a21 = be.quadrant(q.ap, 1, 0), q.a22 = be.quadrant(q.ap, 1, 1);
    q.b11 = be.quadrant(q.bp, 0, 0), q.b12 = be.quadrant(q.bp, 0, 1);
    q.b21 = be.quadrant(q.bp, 1, 0), q.b22 = be.quadrant(q.bp, 1, 1);
    return q;
  }

  // The level's product number p (0 to 6), `levels` deeper: Strassen's
  // M1..M7, or Winograd's P1..P7 (each making the sums its operands need).
  M product(const Quarters& q, int p, int levels) const {
    if (!winograd) {
      switch (p) {
        case 0: return multiply(be.add(q.a11, q.a22), be.add(q.b11, q.b22), levels);
        case 1: return multiply(be.add(q.a21, q.a22), q.b11, levels);
        case 2: return multiply(q.a11, be.sub(q.b12, q.b22), levels);
        case 3: return multiply(q.a22, be.sub(q.b21, q.b11), levels);
        case 4: return multiply(be.add(q.a11, q.a12), q.b22, levels);
        case 5: return multiply(be.sub(q.a21, q.a11), be.add(q.b11, q.b12), levels);
        default: return multiply(be.sub(q.a12, q.a22), be.add(q.b21, q.b22), levels);
      }
    }
    // Winograd's variant: 15 additions a level instead of 18 when all seven
    // are made in one place; s1..s4 and t1..t4 as the dissertation names them.
    auto s1 = [&] { return be.add(q.a21, q.a22); };
    auto s2 = [&] { return be.sub(s1(), q.a11); };
    auto t1 = [&] { return be.sub(q.b12, q.b11); };
    auto t2 = [&] { return be.sub(q.b22, t1()); };
    switch (p) {
      case 0: return multiply(q.a11, q.b11, levels);
      case 1: return multiply(q.a12, q.b21, levels);
      case 2: return multiply(be.sub(q.a12, s2()), q.b22, levels);
      case 3: return multiply(q.a22, be.sub(t2(), q.b21), levels);
      case 4: return multiply(s1(), t1(), levels);
      case 5: return multiply(s2(), t2(), levels);
      default: return multiply(be.sub(q.a11, q.a21), be.sub(q.b22, q.b12), levels);
    }
  }

  // C (rows x cols) from the level's seven products.
  M combine(const std::array<M, products>& m, std::int64_t rows, std::int64_t cols) const {
    if (!winograd)
      return be.assemble(be.add(be.sub(be.add(m[0], m[3]), m[4]), m[6]), be.add(m[2], m[4]), be.add(m[1], m[3]),
                         be.add(be.add(be.sub(m[0], m[1]), m[2]), m[5]), rows, cols);
    const M u2 = be.add(m[0], m[5]), u3 = be.add(u2, m[6]), u4 = be.add(u2, m[4]);
    return be.assemble(be.add(m[0], m[1]), be.add(u4, m[2]), be.sub(u3, m[3]), be.add(u3, m[4]), rows, cols);
  }

  M multiply(const M& a, const M& b, int levels) const {
    if (is_base(a, b, levels)) return be.base(a, b);
    const Quarters q = quarters(a, b);
    std::array<M, products> m;
    for (int p = 0; p < products; ++p) m[p] = product(q, p, levels - 1);
    return combine(m, be.rows(a), be.cols(b));
  }
};

}  // namespace gdp::semiring
