#pragma once
// Checks shared by the end-to-end tests of every tool.
#include <catch2/catch.hpp>
#include <string>

#include "cli_run.hpp"

namespace gdp::test {

// A failed run as the tools fail: exit `status` (2: bad input or usage; 1:
// a run error), nothing on stdout, and exactly one line on stderr, "TOOL:
// error: " then a message containing `mentions`.
template <class Run>
void check_error_line(const Run& r, const std::string& tool, const std::string& mentions, int status = 2) {
  INFO("stderr: " << r.err);
  CHECK(r.status == status);
  CHECK(r.out.empty());
  const auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], Catch::Matchers::StartsWith(tool + ": error: "));
  CHECK_THAT(lines[0], Catch::Matchers::Contains(mentions));
}

}  // namespace gdp::test
