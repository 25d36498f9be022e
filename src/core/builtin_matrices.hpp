#pragma once
// The matrices of data/matrices, embedded at build time (cmake/EmbedMatrices.cmake).
#include <span>
#include <string_view>

namespace gdp {

struct BuiltinMatrix {
  std::string_view name;
  std::string_view text;  // NCBI format
};

std::span<const BuiltinMatrix> builtin_matrices();

}  // namespace gdp
