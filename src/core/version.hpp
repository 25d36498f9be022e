#pragma once
namespace gdp {
inline constexpr const char* version = GPUDP_VERSION;  // from CMakeLists.txt
// What --version adds: "commit C, BUILD_TYPE, CUDA V for sm_A" (or "CPU
// only"); the commit is the one CMake was configured at.
const char* build_info();
}  // namespace gdp
