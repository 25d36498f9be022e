#pragma once
// How a [gpu] test behaves where there is no GPU: it says it was skipped
// (under ctest, exit code 77, which ctest reports as "Skipped"), unless
// GPUDP_REQUIRE_GPU is set (scripts/gpu-test.sh), where it fails.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <vector>

#include "core/device.hpp"

namespace gdp::test {

inline bool skip_without_gpu() {
  if (!list_gpus().empty()) return false;
  if (std::getenv("GPUDP_REQUIRE_GPU")) FAIL("GPUDP_REQUIRE_GPU is set, but no GPU was found");
  WARN("SKIPPED: no GPU on this machine (scripts/gpu-test.sh runs this on the GPU machine)");
  if (std::getenv("GPUDP_CTEST")) std::exit(77);
  return true;
}

// The device lists a [gpu] test of several devices runs over: GPU 0 listed
// two and three times stands for several GPUs where the machine has one;
// with two or more, 0,1 too.
inline std::vector<std::vector<int>> device_lists() {
  std::vector<std::vector<int>> lists{{0, 0}, {0, 0, 0}};
  if (list_gpus().size() >= 2) lists.push_back({0, 1});
  return lists;
}

}  // namespace gdp::test
