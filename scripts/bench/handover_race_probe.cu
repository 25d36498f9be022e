// What compute-sanitizer's racecheck sees of a hand-over between two warps
// of a block through shared memory: warp 0 writes batches of rows into a
// ring, warp 1 reads them, as the strip engine's links do
// (src/pairwise/cuda/strip_handover.cuh). One kernel a way of ordering the
// reads after the writes (and the next writes after the reads):
//   counters:  block-scope atomic counters, release after writing and
//              acquire before reading (the engine's way today);
//   named:     named barriers, bar.arrive by the side that is done and
//              bar.sync by the side that waits;
//   mbarrier:  cuda::barrier objects in shared memory, one for "rows
//              ready" and one for "rows free".
// Each kernel checks what warp 1 read, so a way that does not order the
// accesses shows as wrong sums as well as hazards. Run under racecheck by
// handover-race-probe.sh.
#include <cuda/atomic>
#include <cuda/barrier>

#include <cstdio>
#include <string_view>

namespace {

constexpr int kLanes = 32, kBatch = 8, kRing = 64, kBatches = 4096;

__device__ int expected(int batch, int lane) { return batch * kBatch + lane; }

__global__ void counters(int* bad) {
  __shared__ int ring[kRing];
  __shared__ int published, consumed;
  if (threadIdx.x == 0) published = consumed = 0;
  __syncthreads();
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  cuda::atomic_ref<int, cuda::thread_scope_block> pub(published), con(consumed);
  int wrong = 0;
  for (int b = 0; b < kBatches; ++b) {
    const int upto = (b + 1) * kBatch;
    if (warp == 0) {
      while (con.load(cuda::memory_order_acquire) < upto - kRing) {
      }
      if (lane < kBatch) ring[(b * kBatch + lane) % kRing] = expected(b, lane);
      __syncwarp();
      if (lane == 0) pub.store(upto, cuda::memory_order_release);
    } else {
      while (pub.load(cuda::memory_order_acquire) < upto) {
      }
      if (lane < kBatch) wrong += ring[(b * kBatch + lane) % kRing] != expected(b, lane);
      __syncwarp();
      if (lane == 0) con.store(upto, cuda::memory_order_release);
    }
  }
  atomicAdd(bad, wrong);
}

// A ring of four slots of a batch; named barrier 1 + s: "slot s written"
// (warp 0 arrives, warp 1 syncs), 5 + s: "slot s read" (warp 1 arrives,
// warp 0 syncs before it writes the slot again). A barrier a slot, so that
// warp 0, running ahead by up to four batches, never arrives twice at one.
__global__ void named(int* bad) {
  constexpr int kSlots = 4;
  __shared__ int ring[kSlots * kBatch];
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  int wrong = 0;
  for (int b = 0; b < kBatches; ++b) {
    const int s = b % kSlots;
    if (warp == 0) {
      if (b >= kSlots) asm volatile("bar.sync %0, 64;" ::"r"(5 + s) : "memory");
      if (lane < kBatch) ring[s * kBatch + lane] = expected(b, lane);
      asm volatile("bar.arrive %0, 64;" ::"r"(1 + s) : "memory");
    } else {
      asm volatile("bar.sync %0, 64;" ::"r"(1 + s) : "memory");
      if (lane < kBatch) wrong += ring[s * kBatch + lane] != expected(b, lane);
      if (b + kSlots < kBatches) asm volatile("bar.arrive %0, 64;" ::"r"(5 + s) : "memory");
    }
  }
  atomicAdd(bad, wrong);
}

// The same with cuda::barrier objects (mbarrier) a slot: the signalling
// warp arrives, the waiting one arrives and waits.
__global__ void mbarrier(int* bad) {
  constexpr int kSlots = kRing / kBatch;
  __shared__ int ring[kRing];
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
#pragma nv_diag_suppress static_var_with_dynamic_init  // init() below sets them up
  __shared__ Barrier written[kSlots], read[kSlots];
  if (threadIdx.x == 0)
    for (int s = 0; s < kSlots; ++s) init(&written[s], 2 * kLanes), init(&read[s], 2 * kLanes);
  __syncthreads();
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  int wrong = 0;
  for (int b = 0; b < kBatches; ++b) {
    const int s = b % kSlots;
    if (warp == 0) {
      if (b >= kSlots) read[s].arrive_and_wait();
      if (lane < kBatch) ring[s * kBatch + lane] = expected(b, lane);
      (void)written[s].arrive();
    } else {
      written[s].arrive_and_wait();
      if (lane < kBatch) wrong += ring[s * kBatch + lane] != expected(b, lane);
      if (b + kSlots < kBatches) (void)read[s].arrive();
    }
  }
  atomicAdd(bad, wrong);
}

}  // namespace

int main(int argc, char** argv) {
  const char* way = argc > 1 ? argv[1] : "counters";
  int* bad = nullptr;
  cudaMalloc(&bad, sizeof(int));
  cudaMemset(bad, 0, sizeof(int));
  const std::string_view w(way);
  if (w == "counters") counters<<<1, 2 * kLanes>>>(bad);
  else if (w == "named") named<<<1, 2 * kLanes>>>(bad);
  else if (w == "mbarrier") mbarrier<<<1, 2 * kLanes>>>(bad);
  else return std::fprintf(stderr, "usage: handover_race_probe counters|named|mbarrier\n"), 2;
  int wrong = -1;
  const cudaError_t e = cudaMemcpy(&wrong, bad, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%s: %s, %d rows read wrong\n", way, cudaGetErrorString(e), wrong);
  return e == cudaSuccess && wrong == 0 ? 0 : 1;
}
