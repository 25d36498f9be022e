#pragma once
namespace gdp {
inline constexpr const char* version = GPUDP_VERSION;  // from CMakeLists.txt
}
