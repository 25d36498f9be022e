#pragma once
// The chunked traceback's kept cells in 4 bytes, as the rebased 16-bit
// kernel's kept pass writes them (striped_score16.cu) and the walk's
// recomputation reads them (cuda/chunk_recompute.cuh): half the memory of
// a cell's two 32-bit values, so a pair twice the size aligns without
// Myers-Miller's splits.
//
// A kept cell is H and the gap value X it hands on: F(i+1, j) below a
// checkpoint row's cell, E(i, j+1) right of a strip's edge. X lies in
// [H - open - extend, H - extend] (F(i, j) and E(i, j) are at most H), so
// H - X - extend, in 12 bits, holds it for any open up to 4095. H keeps
// its low 20 bits, read back against an anchor: an H known in full within
// 2^19 - 1 of it. Neighbouring cells' H differ by at most open + extend +
// the largest score (rebased16.hpp), so an anchor serves kept_rows rows or
// columns where `packs` says so.
#include "core/host_device.hpp"

namespace gdp::pairwise::kept_cell {

constexpr int kHBits = 20;
constexpr unsigned kHMask = (1u << kHBits) - 1;

constexpr bool packs(int open, int open_extend, int max_score, int span) {
  return open >= 0 && open < (1 << (32 - kHBits)) &&
         static_cast<long long>(span) * (open_extend + (max_score > 1 ? max_score : 1)) < (1 << (kHBits - 1));
}

GDP_HD unsigned pack(int h, int x, int extend) {
  return (static_cast<unsigned>(h) & kHMask) | static_cast<unsigned>(h - x - extend) << kHBits;
}
// H, from an anchor within 2^19 - 1 of it.
GDP_HD int h_of(unsigned w, int anchor) {
  const unsigned offset = (w - static_cast<unsigned>(anchor)) & kHMask;  // H - anchor, modulo 2^20
  return anchor + (static_cast<int>(offset << (32 - kHBits)) >> (32 - kHBits));
}
GDP_HD int x_of(unsigned w, int h, int extend) { return h - extend - static_cast<int>(w >> kHBits); }

}  // namespace gdp::pairwise::kept_cell
