#pragma once
// The timing report (--report FILE): what ran, on what, how big, how long.
#include <string>
#include <utility>
#include <vector>

namespace gdp {

struct TimingReport {
  std::string tool;
  std::string backend;  // "cpu-scalar", "cpu-openmp", "cuda", ...
  std::string device;   // CPU or GPU name
  int threads = 1;
  std::vector<std::pair<std::string, double>> inputs;  // name -> size
  double work = 0;               // cells or operations
  std::string work_unit = "cells";
  std::vector<std::pair<std::string, double>> phases;  // name -> seconds
  // GPU figures inside the phases (kernel seconds, peak memory); not summed.
  std::vector<std::pair<std::string, double>> gpu;

  void add_phase(const std::string& name, double seconds) { phases.emplace_back(name, seconds); }
  // Work per second over the compute (and traceback) phases, in G units.
  double rate_giga() const;
  std::string to_json() const;
};

// Writes the report to `path` (atomically). Throws InputError/RunError.
void write_report(const TimingReport& report, const std::string& path);

}  // namespace gdp
