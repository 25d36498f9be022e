#pragma once
// What every executable shares: the common flags of DESIGN.md and the
// translation of failures into one line on stderr and an exit status.
#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gdp::app {

struct CommonOptions {
  bool cpu = false;
  int threads = 0;  // 0: all cores
  std::optional<int> device;
  std::string output;  // "" = stdout
  std::string report;
  int verbose = 0;
  std::vector<std::string> tune;  // hidden --tune key=value, for benchmarks (core/tune.hpp)
  bool quiet = false;
  int verbosity() const { return quiet ? -1 : verbose; }
  int thread_count() const;  // threads, or all cores when 0
};

void add_common_options(CLI::App& app, CommonOptions& options);

// A whole number of at least `least`, said so ("--top: must be at least 1,
// not 0") where CLI11's own checks print a range up to 1.8e308.
CLI::Validator at_least(long long least);

// The command line as one string (for @PG and report headers).
std::string command_line(int argc, char** argv);

// Parses, then runs `body`. InputError and usage errors exit 2, RunError and
// anything unexpected exit 1, each with one line "TOOL: error: ...".
int tool_main(const std::string& tool, CLI::App& app, int argc, char** argv, const CommonOptions& common,
              const std::function<void()>& body);

}  // namespace gdp::app
