// Holds all but LEAVE MiB of the device's free memory until it is killed,
// so that another process sees that little free memory (a database "of
// twice the free device memory" without one of twice the device's size).
// Prints the free MiB it leaves once it holds the rest.
// Usage: hold_device_memory LEAVE_MIB
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hold_device_memory LEAVE_MIB\n");
    return 2;
  }
  const std::size_t leave = std::strtoull(argv[1], nullptr, 10) << 20;
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes <= leave) {
    std::fprintf(stderr, "hold_device_memory: cannot leave %s MiB free\n", argv[1]);
    return 1;
  }
  void* held = nullptr;
  if (cudaMalloc(&held, free_bytes - leave) != cudaSuccess || cudaMemset(held, 0, free_bytes - leave) != cudaSuccess) {
    std::fprintf(stderr, "hold_device_memory: cudaMalloc failed\n");
    return 1;
  }
  cudaMemGetInfo(&free_bytes, &total);
  std::printf("%zu\n", free_bytes >> 20);
  std::fflush(stdout);
  for (;;) pause();
}
