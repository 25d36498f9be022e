#include "common/tool_main.hpp"

#include <omp.h>

#include <cstdio>
#include <new>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"

namespace gdp::app {

int CommonOptions::thread_count() const { return threads > 0 ? threads : omp_get_num_procs(); }

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_flag("--cpu", o.cpu, "Run the CPU reference instead of the GPU")->group("Common");
  app.add_option("--threads", o.threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 4096))->group("Common");
  app.add_option("--device", o.device, "GPU to use (default: the first); an error if it does not exist")->group("Common");
  app.add_option("-o,--output", o.output, "Write results to FILE (default: standard output)")->group("Common");
  app.add_option("--report", o.report, "Write a JSON timing report to FILE")->group("Common");
  app.add_flag("-v,--verbose", o.verbose, "More messages on stderr")->group("Common");
  app.add_flag("-q,--quiet", o.quiet, "Only errors on stderr")->group("Common");
  // Benchmark knobs, left out of --help: each engine's table of keys says what they set.
  app.add_option("--tune", o.tune, "key=value: a benchmark knob of the engine")
      ->allow_extra_args(false)  // one pair a --tune: the positional files after it stay files
      ->group("");
  // "NAME VERSION (build)", GNU style, as help2man and package tools read it.
  app.set_version_flag("--version", app.get_name() + " " + std::string(version) + " (" + build_info() + ")");
}

void add_devices_option(CLI::App& app, CommonOptions& o, const std::string& spread) {
  app.add_option("--devices", o.devices, spread + ": 0,1 or all (default: one GPU, --device)")
      ->excludes("--device")
      ->group("Common");
}

std::vector<int> chosen_devices(const CommonOptions& o) {
  if (o.devices.empty()) return {};
  if (o.cpu) throw InputError("--cpu and --devices cannot be used together");
  return parse_devices(o.devices);
}

double start_devices(const std::vector<int>& devices) {
  const Timer timer;
  for (const int device : devices) start_gpu(device);
  if (devices.size() > 1) start_gpu(devices.front());  // current again
  return timer.seconds();
}

std::string devices_name(const std::vector<int>& devices) {
  const auto gpus = list_gpus();
  const std::string name = gpus.at(static_cast<std::size_t>(devices.front())).name;
  return devices.size() > 1 ? std::to_string(devices.size()) + " x " + name : name;
}

DeviceChoice choose_run_device(const CommonOptions& o, const std::vector<int>& devices) {
  return devices.empty() ? choose_device(o.cpu, o.device) : choose_device(false, devices.front());
}

void report_devices(TimingReport& report, bool on_gpu, const std::vector<int>& devices, const std::string& gpu_name) {
  report.device = !on_gpu ? cpu_name() : !devices.empty() ? devices_name(devices) : gpu_name;
  if (on_gpu && devices.size() > 1) report.gpu.push_back({"devices", static_cast<double>(devices.size())});
}

CLI::Validator at_least(long long least) {
  return CLI::Validator(
      [least](std::string& value) -> std::string {
        long long v = 0;
        if (!CLI::detail::lexical_cast(value, v)) return "must be a whole number, not " + value;
        return v < least ? "must be at least " + std::to_string(least) + ", not " + value : std::string();
      },
      "INT>=" + std::to_string(least));
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

int tool_main(const std::string& tool, CLI::App& app, int argc, char** argv, const CommonOptions& common,
              const std::function<void()>& body) {
  init_logging(tool, 0);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    spdlog::error("{} (see {} --help)", e.what(), tool);
    return exit_bad_input;
  }
  init_logging(tool, common.verbosity());
  try {
    body();
    return exit_ok;
  } catch (const InputError& e) {
    spdlog::error("{}", e.what());
    return exit_bad_input;
  } catch (const Stopped& e) {
    spdlog::warn("{}", e.what());
    return exit_stopped;
  } catch (const RunError& e) {
    spdlog::error("{}", e.what());
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory");
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
  }
  return exit_failure;
}

}  // namespace gdp::app
