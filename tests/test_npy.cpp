// .npy files: round trips of each type and shape, and one clear error for
// each kind of bad file.
#include <catch2/catch.hpp>

#include <fstream>

#include "core/error.hpp"
#include "io/npy.hpp"
#include "temp_dir.hpp"

using namespace gdp;
using namespace gdp::io;

namespace {

std::string npy_bytes(const std::string& dict, const std::string& data, char major = 1) {
  std::string header = dict;
  const std::size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += major;
  out += '\0';
  const std::size_t n = header.size();
  out += static_cast<char>(n & 0xff);
  out += static_cast<char>(n >> 8);
  if (major != 1) out += std::string(2, '\0');
  return out + header + data;
}

void write_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string error_of(const std::string& path) {
  try {
    read_npy(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(".npy round trips for f32, f64 and i32", "[npy]") {
  test::TempDir dir("npy");
  const std::vector<float> f = {1.5f, -2.25f, 3.0f, 0.0f, 7.0f, -1e30f};
  const std::vector<double> d = {1e-300, 2.0, -3.5};
  const std::vector<std::int32_t> i = {-2147483647 - 1, 0, 2147483647, 42};
  write_npy(dir.path("f.npy"), DType::f32, 2, 3, f.data());
  write_npy(dir.path("d.npy"), DType::f64, 3, 1, d.data());
  write_npy(dir.path("i.npy"), DType::i32, 1, 4, i.data());
  const NpyArray af = read_npy(dir.path("f.npy"));
  REQUIRE((af.dtype == DType::f32 && af.rows == 2 && af.cols == 3));
  REQUIRE(items<float>(af, "f.npy") == f);
  REQUIRE(items<double>(read_npy(dir.path("d.npy")), "d.npy") == d);
  REQUIRE(items<std::int32_t>(read_npy(dir.path("i.npy")), "i.npy") == i);
  REQUIRE_THROWS_AS(items<double>(af, "f.npy"), InputError);
  // Empty matrices too; the data starts at a multiple of 64.
  write_npy(dir.path("e.npy"), DType::f32, 0, 5, nullptr);
  REQUIRE(read_npy(dir.path("e.npy")).cols == 5);
  std::ifstream in(dir.path("f.npy"), std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE((all.size() - f.size() * 4) % 64 == 0);
}

TEST_CASE(".npy files as NumPy writes them, versions 1 and 2", "[npy]") {
  test::TempDir dir("npy");
  const std::string data(2 * 2 * 4, '\0');
  write_file(dir.path("v1.npy"), npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", data));
  write_file(dir.path("v2.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data, 2));
  REQUIRE(read_npy(dir.path("v1.npy")).dtype == DType::i32);
  REQUIRE(read_npy(dir.path("v2.npy")).rows == 2);
}

TEST_CASE("bad .npy files: one line naming the file", "[npy]") {
  test::TempDir dir("npy");
  const std::string four(4 * 4, '\0');
  const auto check = [&](const std::string& name, const std::string& bytes, const std::string& words) {
    write_file(dir.path(name), bytes);
    const std::string e = error_of(dir.path(name));
    INFO(e);
    REQUIRE(e.find(name) != std::string::npos);
    REQUIRE(e.find(words) != std::string::npos);
  };
  check("text.npy", "just text\n", "not a NumPy");
  check("fortran.npy", npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", four), "Fortran");
  check("int64.npy", npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 1), }", four), "dtype");
  check("big_endian.npy", npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }", four), "dtype");
  check("vector.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four), "2-D");
  check("short.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", four), "bytes");
  check("long.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", four), "bytes");
  // A shape whose size overflows 64 bits (2^62 x 4 items of 4 bytes is 2^66) must not wrap to match no data.
  check("overflow.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", ""),
        "bytes");
  REQUIRE(error_of(dir.path("missing.npy")).find("cannot open") != std::string::npos);
}
