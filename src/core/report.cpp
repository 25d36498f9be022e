#include "core/report.hpp"

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"
#include "core/version.hpp"

namespace gdp {

double TimingReport::rate_giga() const {
  double s = 0;
  for (const auto& [name, sec] : phases)
    if (name == "compute" || name == "traceback") s += sec;
  return s > 0 ? work / s / 1e9 : 0.0;
}

std::string TimingReport::to_json() const {
  nlohmann::ordered_json j;
  j["tool"] = tool;
  j["version"] = version;
  j["backend"] = backend;
  j["device"] = device;
  j["threads"] = threads;
  // Counts print as integers.
  auto number = [](double v) -> nlohmann::ordered_json {
    if (v == static_cast<double>(static_cast<long long>(v))) return static_cast<long long>(v);
    return v;
  };
  j["inputs"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : inputs) j["inputs"][k] = number(v);
  j[work_unit] = work;
  j["seconds"] = nlohmann::ordered_json::object();
  double total = 0;
  for (const auto& [k, v] : phases) {
    j["seconds"][k] = v;
    total += v;
  }
  j["seconds"]["total"] = total;
  if (!gpu.empty()) {
    j["gpu"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : gpu) j["gpu"][k] = number(v);
  }
  j[work_unit == "cells" ? "gcups" : "gops"] = rate_giga();
  return j.dump(2) + "\n";
}

void write_report(const TimingReport& report, const std::string& path) {
  OutputFile out(path);
  out.stream() << report.to_json();
  out.commit();
}

}  // namespace gdp
