#include "io/mm_writer.hpp"

#include <cstdio>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"

namespace gdp::io {
namespace {

constexpr EnumNames<MmFormat, 3> format_names{
    {{MmFormat::table, "table"}, {MmFormat::tsv, "tsv"}, {MmFormat::json, "json"}}};

using semiring::BenchmarkRow;

// An error as the stream writes a double ("-" where not checked).
std::string error_text(const BenchmarkRow& r, double v) {
  if (!r.checked) return "-";
  std::ostringstream text;
  text << v;
  return text.str();
}

// The speed relative to cuBLAS to three decimals ("-" where cuBLAS did not run).
std::string ratio_text(const BenchmarkRow& r) {
  if (r.vs_cublas <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", r.vs_cublas);
  return text;
}

void write_json(std::ostream& out, const MmRun& run, const std::vector<BenchmarkRow>& rows) {
  for (const BenchmarkRow& r : rows) {
    nlohmann::ordered_json j;
    j["algorithm"] = r.algo;
    j["type"] = to_string(run.type);
    j["semiring"] = semiring::to_string(run.semiring);
    j["m"] = run.m, j["k"] = run.k, j["n"] = run.n, j["batch"] = run.batch, j["levels"] = r.levels;
    j["ms"] = r.ms;
    j["gops"] = r.gops;
    j["vs_cublas"] = r.vs_cublas > 0 ? nlohmann::ordered_json(r.vs_cublas) : nlohmann::ordered_json();
    j["max_error"] = r.checked ? nlohmann::ordered_json(r.max_error) : nlohmann::ordered_json();
    j["avg_error"] = r.checked ? nlohmann::ordered_json(r.avg_error) : nlohmann::ordered_json();
    out << j.dump() << "\n";
  }
}

void write_tsv(std::ostream& out, const MmRun& run, const std::vector<BenchmarkRow>& rows) {
  out << "#algorithm\ttype\tsemiring\tm\tk\tn\tbatch\tlevels\tms\tgops\tvs_cublas\tmax_error\tavg_error\n";
  for (const BenchmarkRow& r : rows)
    out << r.algo << '\t' << to_string(run.type) << '\t' << semiring::to_string(run.semiring) << '\t' << run.m << '\t'
        << run.k << '\t' << run.n << '\t' << run.batch << '\t' << r.levels << '\t' << r.ms << '\t' << r.gops << '\t'
        << ratio_text(r) << '\t' << error_text(r, r.max_error) << '\t' << error_text(r, r.avg_error) << '\n';
}

void write_table(std::ostream& out, const MmRun& run, const std::vector<BenchmarkRow>& rows) {
  const std::string shape = std::to_string(run.m) + "x" + std::to_string(run.k) + "x" + std::to_string(run.n);
  const std::string type(to_string(run.type)), semiring_name(semiring::to_string(run.semiring));
  char line[300];
  std::snprintf(line, sizeof line, "%-16s %-5s %-10s %-20s %6s %6s %12s %12s %10s %12s %12s\n", "algorithm", "type",
                "semiring", "shape", "batch", "levels", "ms", "G ops/s", "vs cuBLAS", "max error", "avg error");
  out << line;
  for (const BenchmarkRow& r : rows) {
    std::snprintf(line, sizeof line, "%-16s %-5s %-10s %-20s %6d %6d %12.3f %12.3f %10s %12s %12s\n", r.algo.c_str(),
                  type.c_str(), semiring_name.c_str(), shape.c_str(), run.batch, r.levels, r.ms, r.gops,
                  ratio_text(r).c_str(), error_text(r, r.max_error).c_str(), error_text(r, r.avg_error).c_str());
    out << line;
  }
}

}  // namespace

MmFormat parse_mm_format(std::string_view name) { return parse_enum(format_names, name, "format"); }

void write_mm_rows(MmFormat format, std::ostream& out, const MmRun& run, const std::vector<BenchmarkRow>& rows) {
  switch (format) {
    case MmFormat::table: write_table(out, run, rows); break;
    case MmFormat::tsv: write_tsv(out, run, rows); break;
    case MmFormat::json: write_json(out, run, rows); break;
  }
}

}  // namespace gdp::io
