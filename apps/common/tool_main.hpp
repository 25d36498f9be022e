#pragma once
// What every executable shares: the common flags of DESIGN.md and the
// translation of failures into one line on stderr and an exit status.
#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/report.hpp"

namespace gdp::app {

struct CommonOptions {
  bool cpu = false;
  int threads = 0;  // 0: all cores
  std::optional<int> device;
  std::string devices;  // --devices LIST, on the tools that take it (add_devices_option)
  std::string output;  // "" = stdout
  std::string report;
  int verbose = 0;
  std::vector<std::string> tune;  // hidden --tune key=value, for benchmarks (core/tune.hpp)
  bool quiet = false;
  int verbosity() const { return quiet ? -1 : verbose; }
  int thread_count() const;  // threads, or all cores when 0
};

void add_common_options(CLI::App& app, CommonOptions& options);

// --devices LIST (0,1 or all), after add_common_options, on a tool that
// spreads its work over several GPUs: `spread` says what it spreads.
void add_devices_option(CLI::App& app, CommonOptions& options, const std::string& spread);
// The GPUs --devices names (parse_devices), none where it is not given.
// InputError with --cpu.
std::vector<int> chosen_devices(const CommonOptions& options);
// Makes the contexts of the GPUs a run uses (start_gpu), the first current
// after, and returns the seconds it took, for the report's gpu-init. (Made
// side by side, on a thread each, they took as long on the H200s.)
double start_devices(const std::vector<int>& devices);
// A report's device: the GPU's name, or "N x NAME" for several.
std::string devices_name(const std::vector<int>& devices);
// The run's device: the first GPU of `devices` (chosen_devices) where
// there are any, else as --cpu and --device say (choose_device).
DeviceChoice choose_run_device(const CommonOptions& options, const std::vector<int>& devices);
// Names in the report what the run ran on: where `on_gpu`, the GPUs
// (devices_name) or the one GPU, `gpu_name`, and for several
// `gpu.devices`; else the CPU. After the tool has set report.gpu.
void report_devices(TimingReport& report, bool on_gpu, const std::vector<int>& devices, const std::string& gpu_name);

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
