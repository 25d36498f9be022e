#pragma once
// The two kinds of failure every tool reports, and the exit status of each:
// bad input or usage (2), a failure while running (1). DESIGN.md, "Errors".
// A run that stopped where it was asked to, its work saved to be taken up
// again, exits 75 (EX_TEMPFAIL: try again).
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gdp {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_stopped = 75;

// Bad input or usage. `where` is "FILE:LINE", "FILE" or empty.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
  InputError(const std::string& file, std::size_t line, const std::string& what)
      : std::runtime_error(locate(file, line) + what) {}

 private:
  static std::string locate(const std::string& file, std::size_t line) {
    if (file.empty()) return {};
    return line ? file + ":" + std::to_string(line) + ": " : file + ": ";
  }
};

// A failure while running (out of memory, a device error, a write that failed).
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run stopped as asked (gpu-sw --stop-after), its work saved.
class Stopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gdp
