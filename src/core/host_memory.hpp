#pragma once
// How much host memory a run can count on, to refuse inputs that cannot
// fit before the work starts.
#include <cstdint>

namespace gdp {

// MemAvailable of /proc/meminfo in bytes; 0 where it cannot be read.
std::uint64_t available_memory_bytes();

}  // namespace gdp
