#pragma once
// NumPy .npy files of 2-D arrays in C order: float32, float64 and int32,
// little-endian (NPY format 1.0 to 3.0 read, 1.0 written).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gdp::io {

enum class DType { f32, f64, i32 };
std::string_view to_string(DType t);     // "f32", "f64", "i32"
DType parse_dtype(std::string_view name);  // the same names; throws InputError
std::size_t item_size(DType t);

template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<float>() { return DType::f32; }
template <>
constexpr DType dtype_of<double>() { return DType::f64; }
template <>
constexpr DType dtype_of<std::int32_t>() { return DType::i32; }

struct NpyArray {
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0;
  std::vector<unsigned char> bytes;  // rows * cols items, C order
};

// Throws InputError naming the file: missing, not .npy, not 2-D, Fortran
// order, an unsupported dtype, or data shorter or longer than its shape.
NpyArray read_npy(const std::string& path);
// The same for a file's bytes already in memory, named `path` in messages.
NpyArray parse_npy(std::string_view file, const std::string& path);

// Writes atomically (no partial file is left behind); "-" is standard output.
void write_npy(const std::string& path, DType dtype, std::int64_t rows, std::int64_t cols, const void* data);

// The array's items as T; InputError if the file holds another type.
template <class T>
std::vector<T> items(const NpyArray& a, const std::string& path) {
  if (a.dtype != dtype_of<T>())
    throw InputError(path, 0, "holds " + std::string(to_string(a.dtype)) + ", not " +
                                  std::string(to_string(dtype_of<T>())));
  std::vector<T> out(static_cast<std::size_t>(a.rows * a.cols));
  if (!out.empty()) std::memcpy(out.data(), a.bytes.data(), a.bytes.size());
  return out;
}

}  // namespace gdp::io
