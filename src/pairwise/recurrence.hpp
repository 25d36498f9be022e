#pragma once
// The affine-gap cell update (Gotoh), the one copy every backend uses.
//
//   E(i,j) = max(E(i,j-1) - extend, H(i,j-1) - open - extend)   gap in the query (consumes target)
//   F(i,j) = max(F(i-1,j) - extend, H(i-1,j) - open - extend)   gap in the target (consumes query)
//   H(i,j) = max(H(i-1,j-1) + s(q_i, t_j), E(i,j), F(i,j), floor)
//
// floor is 0 for local alignment and minus infinity otherwise. A gap of
// length k costs open + k * extend. Rows are query positions, columns target.
//
// update_cell is the plain form (the CPU oracle's). The kernels run two
// rewritten forms, each beside it here and proven equal to it on random
// cells by tests/test_recurrence.cpp:
//   - update_cell_from_a (32 bits): E carried from A = max(diag + s, F[, 0])
//     instead of H, so that only one instruction a column lies on a row's
//     critical path;
//   - the 16-bit pair form (local alignment only): two cells a register,
//     E and F carried plus open + extend.
// Their building blocks are Hopper's DPX instructions on the device and
// the same arithmetic in plain C++ on the host.
#include <cstdint>

#include "core/host_device.hpp"

namespace gdp::pairwise {

// Minus infinity: far below any score, yet minus a gap stays inside int32
// (scores are checked to stay within +-2^30 before an engine runs).
inline constexpr int neg_inf = -(1 << 30) - (1 << 29);

GDP_HD int max2(int a, int b) { return a > b ? a : b; }

struct GapCosts {
  int open_extend;  // open + extend: the cost of a gap's first residue
  int extend;
};

// One cell. `e` holds E(i,j-1) on entry and E(i,j) on return; `f` holds
// F(i-1,j) on entry and F(i,j) on return. Returns H(i,j).
template <bool Local>
GDP_HD int update_cell(int diag_h, int up_h, int left_h, int sub, int& e, int& f, GapCosts g) {
  e = max2(e - g.extend, left_h - g.open_extend);
  f = max2(f - g.extend, up_h - g.open_extend);
  int h = max2(max2(diag_h + sub, e), f);
  if constexpr (Local) h = max2(h, 0);
  return h;
}

// ---- DPX building blocks -------------------------------------------------

// max(a + b, c)
GDP_HD int add_max(int a, int b, int c) {
#if defined(__CUDA_ARCH__)
  return __viaddmax_s32(a, b, c);
#else
  return max2(a + b, c);
#endif
}
// max(a + b, c, 0)
GDP_HD int add_max_relu(int a, int b, int c) {
#if defined(__CUDA_ARCH__)
  return __viaddmax_s32_relu(a, b, c);
#else
  return max2(max2(a + b, c), 0);
#endif
}

// Two 16-bit cells a 32-bit word: `lo` in bits 0..15, `hi` in 16..31.
GDP_HD unsigned pair(int lo, int hi) { return (static_cast<unsigned>(lo) & 0xffffu) | (static_cast<unsigned>(hi) << 16); }
GDP_HD int low(unsigned x) { return static_cast<int>(static_cast<short>(x & 0xffffu)); }
GDP_HD int high(unsigned x) { return static_cast<int>(x) >> 16; }

// max(a + b, c) in each 16-bit half; the sum wraps as the instruction's does.
GDP_HD unsigned add_max_s16x2(unsigned a, unsigned b, unsigned c) {
#if defined(__CUDA_ARCH__)
  return __viaddmax_s16x2(a, b, c);
#else
  auto half = [](int x, int y, int z) {
    const int sum = static_cast<short>(static_cast<unsigned short>(x + y));
    return sum > z ? sum : z;
  };
  return pair(half(low(a), low(b), low(c)), half(high(a), high(b), high(c)));
#endif
}

// ---- The 32-bit rewrite: E from A ----------------------------------------
//
// Along a row only E depends on the cell before. With A = max(diag + s, F
// [, 0]) and H = max(A, E), E(c+1) = max(E(c) - extend, H(c) - open -
// extend) equals max(E(c) - extend, A(c) - open - extend), because E(c) -
// open - extend never beats E(c) - extend (open >= 0).

// One cell: `e` holds E(i,j-1) on entry and E(i,j) on return; `e_open`
// holds the open candidate of E(i,j): H(i,j-1) - open - extend at a row's
// first cell, else A(i,j-1) - open - extend, and on return A(i,j)'s;
// `f` holds F(i,j) on entry and F(i+1,j) on return. Returns H(i,j).
template <bool Local>
GDP_HD int update_cell_from_a(int diag_h, int sub, int& e, int& e_open, int& f, GapCosts g) {
  e = add_max(e, -g.extend, e_open);
  const int a = Local ? add_max_relu(diag_h, sub, f) : add_max(diag_h, sub, f);
  e_open = a - g.open_extend;
  const int h = max2(a, e);
  f = add_max(f, -g.extend, h - g.open_extend);
  return h;
}

// ---- The 16-bit pair form (local alignment) -------------------------------
//
// E and F are carried plus open + extend (es = E + oe, fs = F + oe), which
// turns each update into one instruction:
//   A = max(diag + s, fs - oe, 0)        H = max(es - oe, A)
//   es(c+1) = max(es(c) - extend, A(c))  fs(i+1) = max(fs(i) - extend, H)
// (es from A as in the 32-bit rewrite). Local scores make A >= 0, so es
// and fs stay >= 0 and nothing needs a floor; only growth can overflow,
// which the kernels detect before a half reaches 32767. Every argument is
// a pair of 16-bit halves; minus_oe and minus_extend hold -(open + extend)
// and -extend in both.

// A cell's diagonal part, max(diag + s, 0).
GDP_HD unsigned diag_s16x2(unsigned diag, unsigned sub) { return add_max_s16x2(diag, sub, 0u); }
// A = max(diag + s, F, 0) of a cell, from fs(i, c).
GDP_HD unsigned a_s16x2(unsigned diag, unsigned sub, unsigned fs, unsigned minus_oe) {
  return add_max_s16x2(fs, minus_oe, diag_s16x2(diag, sub));
}
// The rest of a cell from its A: returns H; `es` goes from the cell's to
// the next column's, `fs` from this row's to the next row's.
GDP_HD unsigned finish_s16x2(unsigned a, unsigned& es, unsigned& fs, unsigned minus_oe, unsigned minus_extend) {
  const unsigned h = add_max_s16x2(es, minus_oe, a);
  es = add_max_s16x2(es, minus_extend, a);
  fs = add_max_s16x2(fs, minus_extend, h);
  return h;
}
// The same cell from its diagonal part t = diag_s16x2(diag, sub), with F's
// chain one instruction long: since es - oe <= es - extend and fs - oe <=
// fs - extend,
//   u = max(es - oe, t)   H = max(fs - oe, u)
//   fs(i+1) = max(fs - extend, u)   es(c+1) = max(es - extend, H)
// give finish_s16x2's values, and only fs(i+1) waits on the row above.
GDP_HD unsigned update_cell_s16x2_from_diag(unsigned from_diag, unsigned& es, unsigned& fs, unsigned minus_oe,
                                            unsigned minus_extend) {
  const unsigned u = add_max_s16x2(es, minus_oe, from_diag);
  const unsigned h = add_max_s16x2(fs, minus_oe, u);
  fs = add_max_s16x2(fs, minus_extend, u);
  es = add_max_s16x2(es, minus_extend, h);
  return h;
}
// One cell: a_s16x2 then finish_s16x2.
GDP_HD unsigned update_cell_s16x2(unsigned diag, unsigned sub, unsigned& es, unsigned& fs, unsigned minus_oe,
                                  unsigned minus_extend) {
  return finish_s16x2(a_s16x2(diag, sub, fs, minus_oe), es, fs, minus_oe, minus_extend);
}
// es out of a run of Cols cells whose A are `a`, from es in = 0 (that is,
// E in = -oe, no better than a gap opened inside the run): the row kernel's
// per-lane term. es out of the run from any es in is then
// max(es in - Cols * extend, this), a max-plus recurrence that a scan
// across lanes combines.
template <int Cols>
GDP_HD unsigned es_out_s16x2(const unsigned (&a)[Cols], unsigned minus_extend) {
  unsigned x = a[0];
GDP_UNROLL
  for (int c = 1; c < Cols; ++c) x = add_max_s16x2(x, minus_extend, a[c]);
  return x;
}

}  // namespace gdp::pairwise
