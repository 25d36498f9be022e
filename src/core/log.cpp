#include "core/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

namespace gdp {

void init_logging(const std::string& tool, int verbosity) {
  auto logger = spdlog::get(tool);
  if (!logger) logger = spdlog::stderr_logger_st(tool);
  logger->set_pattern("%n: %l: %v");
  logger->set_level(verbosity < 0 ? spdlog::level::err : verbosity > 0 ? spdlog::level::debug : spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace gdp
