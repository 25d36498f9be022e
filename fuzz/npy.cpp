// Fuzz target: the .npy reader (io/npy.hpp, parse_npy) on any bytes, then
// its items as the type it says it holds. An InputError is the answer to a
// bad file; anything else is a bug. Run by scripts/fuzz.sh; ctest replays
// fuzz/corpus/npy through corpus_main.cpp.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const gdp::io::NpyArray a = gdp::io::parse_npy(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.npy");
    std::size_t items = 0;
    switch (a.dtype) {
      case gdp::io::DType::f32: items = gdp::io::items<float>(a, "fuzz.npy").size(); break;
      case gdp::io::DType::f64: items = gdp::io::items<double>(a, "fuzz.npy").size(); break;
      case gdp::io::DType::i32: items = gdp::io::items<std::int32_t>(a, "fuzz.npy").size(); break;
    }
    if (items != static_cast<std::size_t>(a.rows * a.cols)) throw std::logic_error("items do not match the shape");
  } catch (const gdp::InputError&) {
  }
  return 0;
}
