#pragma once
// Strassen's and Winograd's recursion (dissertation chapter 3), written once
// for every backend: seven half-size products a level instead of eight.
// Odd sides are padded with a row or column of zeros at each level, which
// leaves the product unchanged.
//
// A Backend supplies the matrix type and its operations:
//   Matrix                     the matrix (host or device)
//   rows(m), cols(m)
//   padded(m)                  sides rounded up to even, the new cells zero
//   quadrant(m, qi, qj)        one quarter of an even-sided matrix
//   add(x, y), sub(x, y)       elementwise, wrapping on integers
//   base(a, b)                 the classical product
//   assemble(c11, c12, c21, c22, rows, cols)   the quarters, cropped
namespace gdp::semiring {

template <class Backend>
struct StrassenRecursion {
  using M = typename Backend::Matrix;
  const Backend& be;
  bool winograd;

  M multiply(const M& a, const M& b, int levels) const {
    if (levels == 0 || be.rows(a) < 2 || be.cols(a) < 2 || be.cols(b) < 2) return be.base(a, b);
    const M ap = be.padded(a), bp = be.padded(b);
    const M a11 = be.quadrant(ap, 0, 0), a12 = be.quadrant(ap, 0, 1), a21 = be.quadrant(ap, 1, 0),
            a22 = be.quadrant(ap, 1, 1);
    const M b11 = be.quadrant(bp, 0, 0), b12 = be.quadrant(bp, 0, 1), b21 = be.quadrant(bp, 1, 0),
            b22 = be.quadrant(bp, 1, 1);
    const int l = levels - 1;
    if (!winograd) {
      const M m1 = multiply(be.add(a11, a22), be.add(b11, b22), l), m2 = multiply(be.add(a21, a22), b11, l);
      const M m3 = multiply(a11, be.sub(b12, b22), l), m4 = multiply(a22, be.sub(b21, b11), l);
      const M m5 = multiply(be.add(a11, a12), b22, l), m6 = multiply(be.sub(a21, a11), be.add(b11, b12), l);
      const M m7 = multiply(be.sub(a12, a22), be.add(b21, b22), l);
      return be.assemble(be.add(be.sub(be.add(m1, m4), m5), m7), be.add(m3, m5), be.add(m2, m4),
                         be.add(be.add(be.sub(m1, m2), m3), m6), be.rows(a), be.cols(b));
    }
    // Winograd's variant: 15 additions instead of 18.
    const M s1 = be.add(a21, a22), s2 = be.sub(s1, a11), s3 = be.sub(a11, a21), s4 = be.sub(a12, s2);
    const M t1 = be.sub(b12, b11), t2 = be.sub(b22, t1), t3 = be.sub(b22, b12), t4 = be.sub(t2, b21);
    const M p1 = multiply(a11, b11, l), p2 = multiply(a12, b21, l), p3 = multiply(s4, b22, l);
    const M p4 = multiply(a22, t4, l), p5 = multiply(s1, t1, l), p6 = multiply(s2, t2, l), p7 = multiply(s3, t3, l);
    const M u2 = be.add(p1, p6), u3 = be.add(u2, p7), u4 = be.add(u2, p5);
    return be.assemble(be.add(p1, p2), be.add(u4, p3), be.sub(u3, p4), be.add(u3, p5), be.rows(a), be.cols(b));
  }
};

}  // namespace gdp::semiring
