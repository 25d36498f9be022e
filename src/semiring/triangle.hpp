#pragma once
// The upper triangle of a square matrix kept by block rows: the dissertation's
// triangular storage (Ours2, chapter 7), in blocks so that every block is
// an ordinary strided matrix that a product kernel can tile.
//
// The matrix has `padded` = blocks x `block` rows and columns. Block row I
// (rows I*block .. I*block + block - 1) keeps columns I*block .. padded - 1
// of each of its rows, row after row, so its row stride is
// padded - I*block. Cell (i, j) is stored for j >= (i / block) * block:
// every block (I, J >= I) whole, the diagonal blocks' lower halves
// included. Plain C++, usable on the host and, under nvcc, on the device
// (GDP_HD).
#include <cstdint>

#include "core/host_device.hpp"

namespace gdp::semiring {

struct BlockRowTriangle {
  std::int64_t padded = 0;  // a multiple of block
  std::int64_t block = 1;

  GDP_HD std::int64_t blocks() const { return padded / block; }
  // The row stride of block row I.
  GDP_HD std::int64_t ld(std::int64_t I) const { return padded - I * block; }
  // Where block row I begins: block x (the row lengths of block rows 0 .. I-1).
  GDP_HD std::int64_t block_row_start(std::int64_t I) const {
    return block * (I * padded - block * (I * (I - 1) / 2));
  }
  // Row i's cell j is at row_start(i) + j (for j >= (i / block) * block).
  GDP_HD std::int64_t row_start(std::int64_t i) const {
    const std::int64_t I = i / block;
    return block_row_start(I) + (i - I * block) * ld(I) - I * block;
  }
  GDP_HD std::int64_t at(std::int64_t i, std::int64_t j) const { return row_start(i) + j; }
  GDP_HD std::int64_t cells() const { return block_row_start(blocks()); }
};

}  // namespace gdp::semiring
