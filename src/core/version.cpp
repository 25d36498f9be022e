#include "core/version.hpp"

namespace gdp {

// GPUDP_BUILD_INFO is set on this file alone (src/core/CMakeLists.txt), so
// that a new commit rebuilds one file, not the project.
const char* build_info() { return GPUDP_BUILD_INFO; }

}  // namespace gdp
