// The GPU's passes over the cube (the kernel: sloped_sweep.cuh): the last
// layer, the linear-space alignment's split point (on one device, or its
// two passes on two side by side), and phases 1 and 2 of the three-phase
// traceback.
#include <algorithm>
#include <climits>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "align3/cuda/gpu_pass.hpp"
#include "align3/cuda/sloped_sweep.cuh"
#include "align3/cuda/start_points.hpp"
#include "align3/recurrence.hpp"
#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/error.hpp"

namespace gdp::align3 {
namespace {

// The device memory of a pass, kept for the next: the linear-space
// alignment's passes after its first (the largest) allocate nothing.
struct Buffers {
  int device = 0;
  int blocks[2] = {0, 0};  // resident blocks, untraced and traced: all SMs at the kernel's occupancy
  cuda::DeviceArray<std::uint8_t> a, b, c;
  cuda::DeviceArray<int> sub, down, across, corner, last, order, done;
  cuda::DeviceArray<unsigned> ticket;
  cuda::DeviceArray<int> back;                  // the split's backward layer
  cuda::DeviceArray<unsigned long long> split;  // the split's best sum, then its first cell
  cuda::DeviceArray<int> kept_bottom, kept_right, end;  // the traced pass's faces, H(m, n, p) and its start
  cuda::DeviceArray<CubeCell> path;             // phase 2's cells
  cuda::DeviceArray<int> path_cells;            // and how many
  std::size_t held = 0;                         // bytes reserved so far
};

// The chunk grid of a cube and the bytes of a pass's hand-over buffers.
struct Grid {
  long long m, n, p;
  int rows, cols, chunks;
  long long down_stride, down_cells, across_cells, corner_cells;

  Grid(Residues a, Residues b, Residues c)
      : m(static_cast<long long>(a.size())), n(static_cast<long long>(b.size())), p(static_cast<long long>(c.size())),
        rows(static_cast<int>(m / kRows + 1)), cols(static_cast<int>(n / kLanes + 1)), chunks(rows * cols),
        down_stride(static_cast<long long>(cols) * kLanes), down_cells((p + kLanes) * down_stride),
        across_cells(rows * (p + 1) * kRows), corner_cells(rows * (p + 1)) {}
  std::size_t pass_bytes() const {
    return sizeof(int) * static_cast<std::size_t>(down_cells + across_cells + corner_cells + 2 * chunks);
  }
  FaceLayout faces() const { return {p, down_stride, rows, cols}; }
  std::string sizes() const {
    return "sequences of " + std::to_string(m) + ", " + std::to_string(n) + " and " + std::to_string(p) + " letters";
  }
};

// The device memory free to this pass: what the device has free and what
// the pass's buffers hold already.
std::size_t free_to(const Buffers& d) {
  std::size_t free_bytes = 0, total_bytes = 0;
  GDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes + d.held;
}

// A pass's parameters, its hand-over buffers reserved and its sequences
// uploaded; `extra` bytes (the layers or faces the caller keeps) counted
// in the memory check.
LayerParams prepare_pass(Buffers& d, const Grid& g, std::size_t extra, Residues a, Residues b, Residues c,
                         const ScoringScheme& scheme, int gap) {
  const std::size_t bytes = g.pass_bytes() + extra;
  if (bytes > d.held) {
    const std::size_t free_bytes = free_to(d);
    if (bytes > free_bytes)
      throw RunError(g.sizes() + " need " + std::to_string(bytes >> 20) + " MiB of GPU memory; " +
                     std::to_string(free_bytes >> 20) + " MiB are free");
    d.held = bytes;
  }
  auto upload = [](cuda::DeviceArray<std::uint8_t>& to, Residues from) {
    std::uint8_t* at = to.reserve(std::max<std::size_t>(from.size(), 1));
    if (!from.empty()) GDP_CUDA_CHECK(cudaMemcpy(at, from.data(), from.size(), cudaMemcpyHostToDevice));
    return at;
  };
  LayerParams lp{};
  lp.a = upload(d.a, a);
  lp.b = upload(d.b, b);
  lp.c = upload(d.c, c);
  lp.sub = d.sub.get();
  lp.dim = scheme.dim;
  lp.gap2 = 2 * gap;
  lp.m = static_cast<int>(g.m), lp.n = static_cast<int>(g.n), lp.p = static_cast<int>(g.p);
  lp.down = d.down.reserve(static_cast<std::size_t>(g.down_cells));
  lp.down_stride = g.down_stride;
  lp.across = d.across.reserve(static_cast<std::size_t>(g.across_cells));
  lp.corner = d.corner.reserve(static_cast<std::size_t>(g.corner_cells));
  std::vector<int> tickets;  // anti-diagonal order: a chunk after those above and to its left
  tickets.reserve(static_cast<std::size_t>(g.chunks));
  for (int diagonal = 0; diagonal <= g.rows + g.cols - 2; ++diagonal)
    for (int ci = std::max(0, diagonal - (g.cols - 1)); ci <= std::min(diagonal, g.rows - 1); ++ci)
      tickets.push_back(ci * g.cols + diagonal - ci);
  lp.order = d.order.reserve(tickets.size());
  GDP_CUDA_CHECK(cudaMemcpy(d.order.get(), tickets.data(), tickets.size() * sizeof(int), cudaMemcpyHostToDevice));
  lp.done = d.done.reserve(static_cast<std::size_t>(g.chunks));
  GDP_CUDA_CHECK(cudaMemset(lp.done, 0, static_cast<std::size_t>(g.chunks) * sizeof(int)));
  lp.ticket = d.ticket.reserve(1);
  GDP_CUDA_CHECK(cudaMemset(lp.ticket, 0, sizeof(unsigned)));
  lp.chunks = g.chunks;
  lp.rows = g.rows;
  lp.cols = g.cols;
  return lp;
}

template <bool kTraced>
void launch(const Buffers& d, const LayerParams& lp) {
  // As many warps as run at once: a chunk waits only for chunks of earlier
  // tickets, taken by running warps.
  const int blocks = std::min((lp.chunks + kWarps - 1) / kWarps, d.blocks[kTraced]);
  cuda::KernelTimer timer;
  timer.start();
  sloped_sweep<kTraced><<<blocks, kWarps * kLanes>>>(lp);
  GDP_CUDA_CHECK(cudaGetLastError());
  add_gpu_stats(1, timer.stop_seconds());
}

// One pass, its last layer left in `last` on the device. `layers`: the
// layers the caller keeps there (two for a split), for the memory check.
int* launch_pass(Buffers& d, cuda::DeviceArray<int>& last, int layers, Residues a, Residues b, Residues c,
                 const ScoringScheme& scheme, int gap) {
  const Grid g(a, b, c);
  const long long last_cells = (g.n + 1) * (g.p + 1);
  LayerParams lp = prepare_pass(d, g, sizeof(int) * static_cast<std::size_t>(layers * last_cells), a, b, c, scheme, gap);
  lp.last = last.reserve(static_cast<std::size_t>(last_cells));
  launch<false>(d, lp);
  return lp.last;
}

std::vector<int> run_pass(Buffers& d, Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap) {
  const int* last = launch_pass(d, d.last, 1, a, b, c, scheme, gap);
  std::vector<int> out((b.size() + 1) * (c.size() + 1));
  GDP_CUDA_CHECK(cudaMemcpy(out.data(), last, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  return out;
}

// The split's two reductions over the cells x = j * (p + 1) + k of the
// layer: the best sum forward[x] + backward[(n - j) * (p + 1) + p - k],
// then the first cell that has it (the host scan's choice).
__device__ __forceinline__ long long split_sum(const int* forward, const int* backward, long long x, long long n,
                                               long long p) {
  const long long w = p + 1, j = x / w, k = x % w;
  return static_cast<long long>(forward[x]) + backward[(n - j) * w + (p - k)];
}

__global__ void best_sum(const int* forward, const int* backward, long long n, long long p,
                         unsigned long long* best) {
  long long mine = LLONG_MIN;
  for (long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; x < (n + 1) * (p + 1);
       x += static_cast<long long>(gridDim.x) * blockDim.x)
    mine = max(mine, split_sum(forward, backward, x, n, p));
  for (int d = kLanes / 2; d > 0; d /= 2) mine = max(mine, __shfl_xor_sync(kFull, mine, d));
  // Order-preserving as unsigned: the sign bit flipped.
  if (threadIdx.x % kLanes == 0) atomicMax(best, static_cast<unsigned long long>(mine) ^ (1ull << 63));
}

__global__ void first_best(const int* forward, const int* backward, long long n, long long p,
                           unsigned long long* split) {
  const long long best = static_cast<long long>(split[0] ^ (1ull << 63));
  unsigned long long first = ~0ull;
  for (long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; x < (n + 1) * (p + 1);
       x += static_cast<long long>(gridDim.x) * blockDim.x)
    if (split_sum(forward, backward, x, n, p) == best) first = min(first, static_cast<unsigned long long>(x));
  for (int d = kLanes / 2; d > 0; d /= 2) first = min(first, __shfl_xor_sync(kFull, first, d));
  if (threadIdx.x % kLanes == 0) atomicMin(split + 1, first);
}

// The split point from the two layers on d's device: the first cell of
// the best sum, and the sum.
SplitPoint find_split(Buffers& d, const int* forward, const int* backward, long long n, long long p) {
  unsigned long long* split = d.split.reserve(2);
  const unsigned long long start[2] = {0, ~0ull};
  GDP_CUDA_CHECK(cudaMemcpy(split, start, sizeof start, cudaMemcpyHostToDevice));
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<long long>(((n + 1) * (p + 1) + threads - 1) / threads, 4096));
  best_sum<<<blocks, threads>>>(forward, backward, n, p, split);
  first_best<<<blocks, threads>>>(forward, backward, n, p, split);
  GDP_CUDA_CHECK(cudaGetLastError());
  unsigned long long found[2] = {0, 0};
  GDP_CUDA_CHECK(cudaMemcpy(found, split, sizeof found, cudaMemcpyDeviceToHost));
  const auto w = static_cast<std::size_t>(p + 1), x = static_cast<std::size_t>(found[1]);
  return {x / w, x % w, static_cast<long long>(found[0] ^ (1ull << 63))};
}

SplitPoint run_split(Buffers& d, Residues top, Residues bottom, Residues b, Residues c, const ScoringScheme& scheme,
                     int gap) {
  const int* forward = launch_pass(d, d.last, 2, top, b, c, scheme, gap);
  const std::vector<std::uint8_t> ra = reversed(bottom), rb = reversed(b), rc = reversed(c);
  const int* backward = launch_pass(d, d.back, 2, ra, rb, rc, scheme, gap);
  return find_split(d, forward, backward, static_cast<long long>(b.size()), static_cast<long long>(c.size()));
}

// The same split over two devices: the backward pass on the second, on a
// thread of its own, while the forward pass runs on the first; the
// backward layer then copied to the first (peer to peer where the devices
// have access, else through the host), where the split is found. The
// layers are the same numbers as one device's, so the point is the same.
SplitPoint run_split_on_two(Buffers& first, Buffers& second, Residues top, Residues bottom, Residues b, Residues c,
                            const ScoringScheme& scheme, int gap) {
  const std::vector<std::uint8_t> ra = reversed(bottom), rb = reversed(b), rc = reversed(c);
  auto backward_pass = std::async(std::launch::async, [&] {
    GDP_CUDA_CHECK(cudaSetDevice(second.device));
    const int* layer = launch_pass(second, second.back, 1, ra, rb, rc, scheme, gap);
    GDP_CUDA_CHECK(cudaDeviceSynchronize());
    return layer;
  });
  GDP_CUDA_CHECK(cudaSetDevice(first.device));
  const long long n = static_cast<long long>(b.size()), p = static_cast<long long>(c.size());
  const int* forward = nullptr;
  try {
    forward = launch_pass(first, first.last, 2, top, b, c, scheme, gap);
  } catch (...) {
    backward_pass.wait();  // the other thread's pass ends before its buffers may go
    throw;
  }
  const int* there = backward_pass.get();
  int* here = first.back.reserve(static_cast<std::size_t>((n + 1) * (p + 1)));
  GDP_CUDA_CHECK(cudaMemcpyPeer(here, first.device, there, second.device,
                                static_cast<std::size_t>((n + 1) * (p + 1)) * sizeof(int)));
  return find_split(first, forward, here, n, p);
}

// Phase 2 on one thread: the walk back along the kept faces.
__global__ void walk_back(const int* bottom, const int* right, FaceLayout faces, long long m, long long n,
                          const int* end, CubeCell* path, int* cells) {
  *cells = walk_starts(bottom, right, faces, m, n, end[1], path);
}

std::optional<std::vector<CubePoint>> run_chain(Buffers& d, std::size_t max_bytes, Residues a, Residues b, Residues c,
                                                const ScoringScheme& scheme, int gap) {
  const Grid g(a, b, c);
  if (g.p > kMaxStartPlane) return std::nullopt;
  const FaceLayout faces = g.faces();
  const int most = g.rows + g.cols;
  const std::size_t face_bytes = sizeof(int) * static_cast<std::size_t>(faces.bottom_cells() + faces.right_cells()) +
                                 sizeof(CubeCell) * static_cast<std::size_t>(most);
  if (max_bytes > 0 && face_bytes > max_bytes) return std::nullopt;
  if (g.pass_bytes() + face_bytes > free_to(d)) return std::nullopt;
  LayerParams lp = prepare_pass(d, g, face_bytes, a, b, c, scheme, gap);
  lp.kept_bottom = d.kept_bottom.reserve(static_cast<std::size_t>(faces.bottom_cells()));
  lp.kept_right = d.kept_right.reserve(static_cast<std::size_t>(faces.right_cells()));
  lp.end = d.end.reserve(2);
  launch<true>(d, lp);
  CubeCell* path = d.path.reserve(static_cast<std::size_t>(most));
  int* cells = d.path_cells.reserve(1);
  walk_back<<<1, 1>>>(lp.kept_bottom, lp.kept_right, faces, g.m, g.n, lp.end, path, cells);
  GDP_CUDA_CHECK(cudaGetLastError());
  int count = 0;
  GDP_CUDA_CHECK(cudaMemcpy(&count, cells, sizeof count, cudaMemcpyDeviceToHost));
  if (count <= 0) throw std::logic_error("gpu-align3: the traced pass's faces do not lead back to the origin");
  std::vector<CubeCell> back(static_cast<std::size_t>(count));
  GDP_CUDA_CHECK(cudaMemcpy(back.data(), path, back.size() * sizeof(CubeCell), cudaMemcpyDeviceToHost));
  std::vector<CubePoint> points;  // from the origin to the cube's last cell
  points.reserve(back.size() + 1);
  for (auto x = back.rbegin(); x != back.rend(); ++x)
    points.push_back({static_cast<std::size_t>(x->i), static_cast<std::size_t>(x->j), static_cast<std::size_t>(x->k)});
  points.push_back({a.size(), b.size(), c.size()});
  return points;
}

// A pass object's buffers, with what every pass shares: the scoring
// table on the device and the launch's width.
std::shared_ptr<Buffers> start(const ScoringScheme& scheme, int device) {
  if (scheme.dim > kMaxDim)
    throw RunError("the GPU engine takes alphabets of up to " + std::to_string(kMaxDim) + " letters, not " +
                   std::to_string(scheme.dim));
  GDP_CUDA_CHECK(cudaSetDevice(device));
  auto d = std::make_shared<Buffers>();
  d->device = device;
  int* sub = d->sub.reserve(scheme.scores.size());
  GDP_CUDA_CHECK(cudaMemcpy(sub, scheme.scores.data(), scheme.scores.size() * sizeof(int), cudaMemcpyHostToDevice));
  int untraced = 0, traced = 0, sms = 0;
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&untraced, sloped_sweep<false>, kWarps * kLanes, 0));
  GDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&traced, sloped_sweep<true>, kWarps * kLanes, 0));
  GDP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  d->blocks[0] = std::max(untraced, 1) * sms;
  d->blocks[1] = std::max(traced, 1) * sms;
  return d;
}

}  // namespace

LayerPass gpu_layer_pass_cuda(const ScoringScheme& scheme, int gap, int device) {
  return [buffers = start(scheme, device), scheme, gap](Residues a, Residues b, Residues c) {
    return run_pass(*buffers, a, b, c, scheme, gap);
  };
}

SplitPass gpu_split_pass_cuda(const ScoringScheme& scheme, int gap, int device) {
  return [buffers = start(scheme, device), scheme, gap](Residues top, Residues bottom, Residues b,
                                                                  Residues c) {
    return run_split(*buffers, top, bottom, b, c, scheme, gap);
  };
}

SplitPass gpu_split_pass_on_two_cuda(const ScoringScheme& scheme, int gap, int first, int second) {
  enable_peer_access(first, second);  // the backward layer's copy
  auto second_buffers = start(scheme, second);
  return [buffers = start(scheme, first), second_buffers, scheme, gap](Residues top, Residues bottom, Residues b,
                                                                         Residues c) {
    return run_split_on_two(*buffers, *second_buffers, top, bottom, b, c, scheme, gap);
  };
}

ChainPass gpu_chain_pass_cuda(const ScoringScheme& scheme, int gap, int device, std::size_t max_bytes) {
  return [buffers = start(scheme, device), scheme, gap, max_bytes](Residues a, Residues b, Residues c) {
    return run_chain(*buffers, max_bytes, a, b, c, scheme, gap);
  };
}

}  // namespace gdp::align3
