// BPMax's tables filled on the GPU by cuda/bpmax_kernels.cuh: the order of
// the launches, and the tiles the host's traceback asks for.
#include <algorithm>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/stream_progress.cuh"
#include "fold/cuda/bpmax_device.hpp"
#include "fold/cuda/bpmax_kernels.cuh"

namespace gdp::fold {

using namespace bpmax_gpu;
static_assert(kB == kBpmaxTile);

struct BpmaxDeviceTables::Impl {
  DeviceTables t;
  cuda::DeviceArray<int> f, s2, s1;
  cuda::DeviceArray<std::uint8_t> a, b;
  BpmaxFillTiming timing;
};

namespace {

template <class Task>
void launch_products(const Task& task, long long blocks) {
  if (blocks <= 0) return;
  products<Task><<<static_cast<unsigned>(blocks), kProductThreads>>>(task);
  cuda::check(cudaGetLastError(), "bpmax products");
}

// Blocks a tile for a launch of `tiles` tiles of up to `segments`
// segments each: enough for two rounds of the device's blocks, at least
// two segments a slice.
int product_splits(long long tiles, long long segments, long long device_blocks) {
  const long long wanted = (2 * device_blocks + tiles - 1) / tiles;
  return static_cast<int>(std::clamp(std::min(wanted, segments / 2), 1LL, 1024LL));
}

// Device time of the launches between start() and stop(), summed over
// every such pair once the device has finished them.
class PhaseTime {
 public:
  ~PhaseTime() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  void start() { record(); }
  void stop() { record(); }
  double seconds() {
    double total = 0;
    for (std::size_t x = 0; x + 1 < events_.size(); x += 2) {
      float ms = 0;
      cuda::check(cudaEventElapsedTime(&ms, events_[x], events_[x + 1]), "cudaEventElapsedTime");
      total += ms / 1000.0;
    }
    return total;
  }

 private:
  void record() {
    cudaEvent_t e{};
    cuda::check(cudaEventCreate(&e), "cudaEventCreate");
    events_.push_back(e);
    cuda::check(cudaEventRecord(e), "cudaEventRecord");
  }
  std::vector<cudaEvent_t> events_;
};

template <class T>
void upload(cuda::DeviceArray<T>& to, const std::vector<T>& from) {
  to.reserve(from.size());
  cuda::check(cudaMemcpy(to.get(), from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
}

}  // namespace

std::size_t bpmax_device_free_bytes(int device) {
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return free_bytes;
}

BpmaxDeviceTables::BpmaxDeviceTables(const bpmax_cpu::Strands& s, int device, Progress* whole, std::uint64_t share)
    : impl_(std::make_unique<Impl>()) {
  const long long m = s.m, n = s.n, p = bpmax_padded_length(n), nb = p / kB;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  Impl& x = *impl_;
  DeviceTables& t = x.t;
  t.w = s.w;
  t.m = static_cast<int>(m);
  t.n = n;
  t.p = p;
  t.stride = bpmax_row_stride(n, s.span2);
  t.span1 = s.span1;
  t.span2 = s.span2;
  t.band = bpmax_band_blocks(n, s.span2);
  // S2 of the padded strand on the band: S2(i, j) past the end is S2(i, n-1).
  std::vector<int> s2(static_cast<std::size_t>(t.matrix_cells()), kNeg);
  for (long long i = 0; i < p; ++i)
    for (long long j = i; j < p && j - i <= s.span2; ++j)
      s2[static_cast<std::size_t>(t.cell(i, j))] = i < n ? s.s2(i, std::min(j, n - 1)) : 0;
  std::vector<std::uint8_t> b(static_cast<std::size_t>(p), kNoBase);
  std::copy(s.b.begin(), s.b.end(), b.begin());

  t.f = x.f.reserve(static_cast<std::size_t>(s.intervals() * t.matrix_cells()), "cudaMalloc (BPMax's tables)");
  cuda::check(cudaMemset(t.f, 0xC0, x.f.bytes()), "cudaMemset");  // kNeg everywhere
  upload(x.s2, s2);
  upload(x.s1, s.s1.s);
  upload(x.a, s.a);
  upload(x.b, b);
  t.s2 = x.s2.get();
  t.s1 = x.s1.get();
  t.a = x.a.get();
  t.b = x.b.get();
  cuda::check(cudaFuncSetAttribute(close_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize, sizeof(CloseShared)),
              "cudaFuncSetAttribute");

  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  const long long device_blocks = 2LL * prop.multiProcessorCount;  // the product kernel runs two blocks an SM

  // The products' terms: block products of kB^3, every segment of every tile.
  const double block_terms = static_cast<double>(kB) * kB * kB;
  cuda::KernelTimer timer;
  PhaseTime product_time, finish_time;
  cuda::StreamProgress progress(whole, share, s.fill_weight());
  timer.start();
  double shorter_blocks = 0;  // block products a matrix's tiles take per k1
  for (long long d = 0; d <= t.band; ++d) shorter_blocks += static_cast<double>((nb - d) * (d + 1));
  for (int d1 = 0; d1 <= s.span1; ++d1) {
    const int count = static_cast<int>(m - d1);
    Shorter shorter{t, d1, count};
    const long long tiles = count * band_tiles(nb, t.band);
    shorter.splits = product_splits(tiles, d1 * (t.band + 1), device_blocks);
    product_time.start();
    launch_products(shorter, tiles * shorter.splits);
    product_time.stop();
    x.timing.product_terms += block_terms * count * d1 * shorter_blocks;
    for (int d = 0; d <= t.band; ++d) {
      if (d >= 1) {
        Close close{t, d1, count, d};
        close.splits = product_splits(count * (nb - d), 2 * d, device_blocks);
        product_time.start();
        launch_products(close, count * (nb - d) * close.splits);
        product_time.stop();
        x.timing.product_terms += block_terms * count * static_cast<double>((nb - d) * 2 * d);
      }
      finish_time.start();
      close_blocks<<<static_cast<unsigned>(count * (nb - d)), kCloseThreads, sizeof(CloseShared)>>>(t, d1, count, d);
      cuda::check(cudaGetLastError(), "bpmax close_blocks");
      finish_time.stop();
    }
    progress.add(s.diagonal_weight(d1));
  }
  x.timing.fill_seconds = timer.stop_seconds();
  x.timing.product_seconds = product_time.seconds();
  x.timing.finish_seconds = finish_time.seconds();
}

BpmaxDeviceTables::~BpmaxDeviceTables() = default;

const BpmaxFillTiming& BpmaxDeviceTables::timing() const { return impl_->timing; }

void BpmaxDeviceTables::copy_tile(long long i1, long long j1, long long I, long long J, int* to) const {
  const DeviceTables& t = impl_->t;
  cuda::check(cudaMemcpy2D(to, kB * sizeof(int), t.at(i1, j1) + t.cell(I * kB, J * kB),
                           static_cast<std::size_t>(t.stride) * sizeof(int), kB * sizeof(int), kB, cudaMemcpyDeviceToHost),
              "cudaMemcpy2D (a tile for the traceback)");
}

std::vector<int> BpmaxDeviceTables::longest() const {
  const DeviceTables& t = impl_->t;
  std::vector<int> out(static_cast<std::size_t>((t.m - t.span1) * (t.n - t.span2)));
  cuda::DeviceArray<int> cells;
  cells.reserve(out.size(), "cudaMalloc (the longest intervals' cells)");
  const long long blocks = std::min<long long>(4096, (static_cast<long long>(out.size()) + 255) / 256);
  longest_cells<<<static_cast<unsigned>(blocks), 256>>>(t, cells.get());
  cuda::check(cudaGetLastError(), "bpmax longest_cells");
  cuda::check(cudaMemcpy(out.data(), cells.get(), out.size() * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return out;
}

}  // namespace gdp::fold
