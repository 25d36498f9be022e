// The .npy format: a magic string, a version, a header length, then a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces to an aligned length, then the data.
#include "io/npy.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "core/enum_names.hpp"
#include "core/output_file.hpp"

namespace gdp::io {
namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr EnumNames<DType, 3> dtype_names{{{DType::f32, "f32"}, {DType::f64, "f64"}, {DType::i32, "i32"}}};

std::string_view descr_of(DType t) {
  switch (t) {
    case DType::f32: return "<f4";
    case DType::f64: return "<f8";
    case DType::i32: return "<i4";
  }
  return "?";
}

// The value after 'key': in the header dict, up to the next ',' or '}'
// outside parentheses; empty if the key is missing.
std::string value_of(const std::string& header, const std::string& key) {
  const auto at = header.find("'" + key + "'");
  if (at == std::string::npos) return {};
  auto p = header.find(':', at);
  if (p == std::string::npos) return {};
  ++p;
  int depth = 0;
  std::string v;
  for (; p < header.size(); ++p) {
    const char c = header[p];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
    v += c;
    if (depth == 0 && c == ')') break;
  }
  const auto first = v.find_first_not_of(' '), last = v.find_last_not_of(' ');
  return first == std::string::npos ? std::string{} : v.substr(first, last - first + 1);
}

}  // namespace

std::string_view to_string(DType t) { return name_of(dtype_names, t); }
DType parse_dtype(std::string_view name) { return parse_enum(dtype_names, name, "type"); }

std::size_t item_size(DType t) { return t == DType::f64 ? 8 : 4; }

NpyArray read_npy(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, 0, "cannot open: no such file");
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "cannot read: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_npy(file, path);
}

NpyArray parse_npy(std::string_view file, const std::string& path) {
  if (file.size() < 10 || file.compare(0, 6, magic, 6) != 0)
    throw InputError(path, 0, "not a NumPy .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(file[6]);
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(file[8]) | static_cast<std::size_t>(static_cast<unsigned char>(file[9])) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) throw InputError(path, 0, "truncated .npy header");
    for (int k = 0; k < 4; ++k) header_len |= static_cast<std::size_t>(static_cast<unsigned char>(file[8 + k])) << (8 * k);
    start = 12;
  } else {
    throw InputError(path, 0, "unsupported .npy version " + std::to_string(major));
  }
  if (file.size() < start + header_len) throw InputError(path, 0, "truncated .npy header");
  const std::string header(file.substr(start, header_len));

  NpyArray a;
  const std::string descr = value_of(header, "descr");
  if (descr == "'<f4'") a.dtype = DType::f32;
  else if (descr == "'<f8'") a.dtype = DType::f64;
  else if (descr == "'<i4'") a.dtype = DType::i32;
  else throw InputError(path, 0, "unsupported dtype " + (descr.empty() ? std::string("(none)") : descr) +
                                     " (use float32, float64 or int32, little-endian)");
  const std::string fortran = value_of(header, "fortran_order");
  if (fortran == "True") throw InputError(path, 0, "Fortran-order array: save it in C order (numpy.ascontiguousarray)");
  if (fortran != "False") throw InputError(path, 0, "malformed .npy header (fortran_order)");
  const std::string shape = value_of(header, "shape");
  long long rows = -1, cols = -1;
  char close = 0;
  if (std::sscanf(shape.c_str(), "(%lld, %lld%c", &rows, &cols, &close) != 3 || close != ')' || rows < 0 || cols < 0)
    throw InputError(path, 0, "not a 2-D array (shape " + (shape.empty() ? std::string("missing") : shape) + ")");
  a.rows = rows;
  a.cols = cols;
  const std::size_t have = file.size() - start - header_len, item = item_size(a.dtype);
  // rows x cols items without overflow: a shape larger than the data never matches it.
  const bool fits = cols == 0 || static_cast<std::size_t>(rows) <= have / item / static_cast<std::size_t>(cols);
  const std::size_t expected = fits ? static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * item : 0;
  if (!fits || have != expected)
    throw InputError(path, 0, "holds " + std::to_string(have) + " bytes of data; shape " + shape + " needs " +
                                  (fits ? std::to_string(expected) : std::string("more")));
  a.bytes.assign(file.begin() + static_cast<std::ptrdiff_t>(start + header_len), file.end());
  return a;
}

void write_npy(const std::string& path, DType dtype, std::int64_t rows, std::int64_t cols, const void* data) {
  std::string header = "{'descr': '" + std::string(descr_of(dtype)) + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  // Magic, version and length take 10 bytes; the header ends in '\n' and
  // the data starts at a multiple of 64.
  const std::size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  OutputFile out(path);
  std::ostream& os = out.stream();
  os.write(magic, 6);
  const char version[2] = {1, 0};
  os.write(version, 2);
  const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  os.write(len, 2);
  os << header;
  os.write(static_cast<const char*>(data), static_cast<std::streamsize>(static_cast<std::size_t>(rows * cols) * item_size(dtype)));
  out.commit();
}

}  // namespace gdp::io
