// GPU discovery and the GPU/CPU choice every tool makes.
#include <catch2/catch.hpp>

#include "core/device.hpp"
#include "core/error.hpp"
#include "gpu_test.hpp"

using namespace gdp;

TEST_CASE("the GPUs are found and described", "[gpu]") {
  if (test::skip_without_gpu()) return;
  const auto gpus = list_gpus();
  REQUIRE(built_with_cuda());
  for (const GpuInfo& g : gpus) {
    CHECK_FALSE(g.name.empty());
    CHECK(g.memory_bytes > (1ull << 30));
    CHECK(g.sm_count > 0);
  }
  const DeviceChoice first = choose_device(false, std::nullopt);
  REQUIRE(first.use_gpu);
  CHECK(first.gpu.id == 0);
  CHECK(choose_device(false, 0).gpu.name == gpus[0].name);
  CHECK_THROWS_AS(choose_device(false, static_cast<int>(gpus.size())), InputError);
}

TEST_CASE("device choice: the CPU when asked, and only GPUs that exist", "[device]") {
  const DeviceChoice cpu = choose_device(true, std::nullopt);
  CHECK_FALSE(cpu.use_gpu);
  CHECK(cpu.reason.empty());
  CHECK_THROWS_AS(choose_device(true, 0), InputError);
  CHECK_THROWS_AS(choose_device(false, 4096), InputError);
  CHECK_THROWS_AS(choose_device(false, -1), InputError);
  if (list_gpus().empty()) {
    const DeviceChoice none = choose_device(false, std::nullopt);
    CHECK_FALSE(none.use_gpu);
    CHECK_THAT(none.reason, Catch::Matchers::Contains("CPU"));
  }
}

TEST_CASE("parse_devices (--devices): every GPU, or the ones named once each; a bad list is one InputError", "[device]") {
  const auto gpus = list_gpus();
  auto refused = [](const std::string& list, const std::string& words) {
    INFO(list);
    try {
      parse_devices(list);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains("--devices " + list + ": ") && Catch::Contains(words));
    }
  };
  if (gpus.empty()) {  // every list is refused, saying why
    refused("0", built_with_cuda() ? "no GPU found" : "no CUDA support");
    refused("all", built_with_cuda() ? "no GPU found" : "no CUDA support");
    return;
  }
  std::vector<int> every;
  for (const GpuInfo& g : gpus) every.push_back(g.id);
  CHECK(parse_devices("all") == every);
  CHECK(parse_devices("0") == std::vector<int>{0});
  if (gpus.size() > 1) CHECK(parse_devices("1,0") == std::vector<int>{1, 0});
  refused("0,0", "GPU 0 is named twice");
  refused(std::to_string(gpus.size()), "does not exist");
  refused("-1", "does not exist");
  refused("0,x", "'x' is not a GPU number");
  refused("0,", "'' is not a GPU number");
  refused("", "'' is not a GPU number");
}
