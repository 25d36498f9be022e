#pragma once
// Runs an executable through the shell with stdout and stderr captured to
// files in a directory; shared by the end-to-end tests of every tool.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gdp::test {

// Lines without their '\n'; a final newline does not make an empty line.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The fields of `s` between separators (an empty string has one field).
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = s.find(sep, from)) != std::string::npos; from = at + 1) parts.push_back(s.substr(from, at - from));
  parts.push_back(s.substr(from));
  return parts;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Whether `program` is on the PATH (for the optional peer tests).
inline bool have_program(const std::string& program) {
  return std::system(("command -v " + shell_quote(program) + " > /dev/null 2>&1").c_str()) == 0;
}

struct RunResult {
  int status = -1;
  std::string out, err;
};

// EXE ARGS < stdin_path, the captures kept in `dir`.
inline RunResult run_program(const std::string& exe, const std::vector<std::string>& args,
                             const std::filesystem::path& dir, const std::string& stdin_path = "/dev/null") {
  std::string cmd = shell_quote(exe);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  const std::string out = (dir / ".capture.out").string(), err = (dir / ".capture.err").string();
  cmd += " < " + shell_quote(stdin_path) + " > " + shell_quote(out) + " 2> " + shell_quote(err);
  const int w = std::system(cmd.c_str());
  RunResult r;
  r.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// EXE ARGS with stderr on a terminal (a pseudo-terminal of script(1), from
// util-linux) and stdout to a file: `err` is what the terminal showed,
// `out` the output.
inline RunResult run_on_terminal(const std::string& exe, const std::vector<std::string>& args,
                                 const std::filesystem::path& dir) {
  std::string cmd = shell_quote(exe);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  const std::filesystem::path out = dir / ".terminal.out";
  cmd += " < /dev/null > " + shell_quote(out.string());
  RunResult r = run_program("script", {"-qefc", cmd, "/dev/null"}, dir);
  r.err = r.out;
  r.out = read_text(out);
  return r;
}

// The shared libraries `exe` loads as it starts: ldd's listing (empty if
// ldd fails).
inline std::string libraries_of(const std::string& exe, const std::filesystem::path& dir) {
  const RunResult r = run_program("ldd", {exe}, dir);
  return r.status == 0 ? r.out : std::string();
}

}  // namespace gdp::test
