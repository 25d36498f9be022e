#pragma once
// Logging on stderr through spdlog: "TOOL: LEVEL: message".
#include <spdlog/spdlog.h>

#include <string>

namespace gdp {

// verbosity: -1 quiet (errors only), 0 normal, 1 verbose (debug).
void init_logging(const std::string& tool, int verbosity);

}  // namespace gdp
