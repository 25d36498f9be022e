#include "core/device.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <mutex>
#include <set>
#include <utility>

#include "core/error.hpp"

#if GPUDP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gdp {

bool built_with_cuda() {
#if GPUDP_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

void start_gpu(int device) {
#if GPUDP_HAVE_CUDA
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaFree(nullptr);
  if (e != cudaSuccess) throw RunError(std::string("CUDA could not start GPU ") + std::to_string(device) + ": " + cudaGetErrorString(e));
#else
  throw RunError("this build of gpu-dp has no CUDA support; use --cpu (GPU " + std::to_string(device) + ")");
#endif
}

void enable_peer_access(int device, int peer) {
#if GPUDP_HAVE_CUDA
  static std::mutex mutex;
  static std::set<std::pair<int, int>> asked;
  const std::lock_guard lock(mutex);
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess && device != peer && asked.insert({device, peer}).second) {
    int can = 0;
    e = cudaDeviceCanAccessPeer(&can, device, peer);
    if (e == cudaSuccess && can) e = cudaDeviceEnablePeerAccess(peer, 0);
  }
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw RunError("CUDA could not let GPU " + std::to_string(device) + " reach GPU " + std::to_string(peer) + ": " +
                   cudaGetErrorString(e));
  }
#else
  throw RunError("this build of gpu-dp has no CUDA support (GPUs " + std::to_string(device) + " and " +
                 std::to_string(peer) + ")");
#endif
}

std::size_t gpu_free_memory(int device) {
#if GPUDP_HAVE_CUDA
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return free_bytes;
#else
  (void)device;
  return 0;
#endif
}

std::vector<GpuInfo> list_gpus() {
  std::vector<GpuInfo> gpus;
#if GPUDP_HAVE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return gpus;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    gpus.push_back({i, p.name, p.totalGlobalMem, p.multiProcessorCount});
  }
#endif
  return gpus;
}

std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "CPU";
}

DeviceChoice choose_device(bool want_cpu, std::optional<int> device) {
  DeviceChoice choice;
  if (want_cpu) {
    if (device) throw InputError("--cpu and --device cannot be used together");
    return choice;
  }
  const auto gpus = list_gpus();
  if (device) {
    if (!built_with_cuda()) throw InputError("--device " + std::to_string(*device) + " given, but this build has no CUDA support");
    if (*device < 0 || *device >= static_cast<int>(gpus.size()))
      throw InputError("--device " + std::to_string(*device) + " does not exist (" + std::to_string(gpus.size()) + " GPU(s) found)");
    choice.use_gpu = true;
    choice.gpu = gpus[static_cast<std::size_t>(*device)];
    return choice;
  }
  if (gpus.empty()) {
    choice.reason = built_with_cuda() ? "no GPU found; running on the CPU" : "built without CUDA; running on the CPU";
    return choice;
  }
  choice.use_gpu = true;
  choice.gpu = gpus.front();
  return choice;
}

std::vector<int> parse_devices(const std::string& list) {
  const auto gpus = list_gpus();
  if (gpus.empty())
    throw InputError("--devices " + list + ": " + (built_with_cuda() ? "no GPU found" : "this build has no CUDA support"));
  std::vector<int> ids;
  if (list == "all") {
    for (const GpuInfo& g : gpus) ids.push_back(g.id);
    return ids;
  }
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = list.find(',', at);
    const std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    int id = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw InputError("--devices " + list + ": '" + item + "' is not a GPU number (say 0,1 or all)");
    if (id < 0 || id >= static_cast<int>(gpus.size()))
      throw InputError("--devices " + list + ": GPU " + item + " does not exist (" + std::to_string(gpus.size()) + " GPU(s) found)");
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      throw InputError("--devices " + list + ": GPU " + item + " is named twice");
    ids.push_back(id);
    if (comma == std::string::npos) return ids;
    at = comma + 1;
  }
}

}  // namespace gdp
