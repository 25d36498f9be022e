#pragma once
// GPU discovery, and the choice between the GPU and the CPU that every tool
// makes the same way (DESIGN.md: no GPU present means the CPU, said once,
// unless --device was given explicitly, which is then an error).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gdp {

struct GpuInfo {
  int id = 0;
  std::string name;
  std::size_t memory_bytes = 0;
  int sm_count = 0;
};

// The GPUs this process can use; empty without CUDA or without a GPU.
std::vector<GpuInfo> list_gpus();
// Whether this build has CUDA support compiled in.
bool built_with_cuda();
// Makes `device` current and creates its context, so that the tools time
// it apart (gpu-init) from their work. RunError on failure or without CUDA.
void start_gpu(int device);
// Lets `device` read and write `peer`'s memory directly where the GPUs
// allow it (else copies between them go through the host): once a process
// for each pair, as CUDA refuses to enable it twice. Leaves `device`
// current. Safe from several threads; RunError on a CUDA failure or
// without CUDA.
void enable_peer_access(int device, int peer);
// The bytes of `device`'s memory free now; 0 without CUDA.
std::size_t gpu_free_memory(int device);
// A short name of this machine's CPU (model name from /proc/cpuinfo).
std::string cpu_name();

struct DeviceChoice {
  bool use_gpu = false;
  GpuInfo gpu;         // valid when use_gpu
  std::string reason;  // why the CPU was chosen without --cpu ("" if asked for)
};

// `want_cpu`: --cpu; `device`: --device N if given. Throws InputError for
// an explicit --device that does not exist.
DeviceChoice choose_device(bool want_cpu, std::optional<int> device);

// --devices LIST: "all" (every GPU found) or ids apart by commas ("0,1"),
// each once. InputError for an id that does not exist, or without a GPU.
std::vector<int> parse_devices(const std::string& list);

}  // namespace gdp
