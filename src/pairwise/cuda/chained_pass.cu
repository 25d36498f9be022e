// One pair's score pass chained over several GPUs (gpu_pass.hpp:
// chained_pass, which calls chained_striped_pass here): the places' buffers, a host thread a place, the barrier
// before the first launch, and the places' results merged. The kernels'
// side is strip_handover.cuh's (Params::left_flag); each place's run is
// striped_score.cu's, with its ChainLink.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "pairwise/cuda/chain_link.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise {

using striped::ChainLink;

namespace {

// A place's left edge and its flag: in its device's memory where the place
// before can write there (the same device, or a peer), else in page-locked
// host memory, which every GPU reaches.
class EdgeBuffer {
 public:
  EdgeBuffer(int device, int writer, long long m) : device_(device) {
    int reach = device == writer ? 1 : 0;
    if (!reach) GDP_CUDA_CHECK(cudaDeviceCanAccessPeer(&reach, writer, device));
    if (reach) {
      if (device != writer) enable_peer_access(writer, device);
      GDP_CUDA_CHECK(cudaSetDevice(device));
      edge_ = device_edge_.reserve(static_cast<std::size_t>(m), "cudaMalloc (a chained pass's edges)");
      flag_ = device_flag_.reserve(1);
      GDP_CUDA_CHECK(cudaMemset(flag_, 0, sizeof *flag_));
      GDP_CUDA_CHECK(cudaDeviceSynchronize());  // zero before the place before can write it
    } else {
      edge_ = host_edge_.reserve(static_cast<std::size_t>(m), "cudaMallocHost (a chained pass's edges)");
      flag_ = host_flag_.reserve(1);
      *flag_ = 0;
    }
  }
  EdgeBuffer(const EdgeBuffer&) = delete;
  EdgeBuffer& operator=(const EdgeBuffer&) = delete;
  ~EdgeBuffer() { cudaSetDevice(device_); }  // the device memory is freed there
  GotohEdge* edge() const { return edge_; }
  unsigned long long* flag() const { return flag_; }

 private:
  int device_;
  cuda::DeviceArray<GotohEdge> device_edge_;
  cuda::DeviceArray<unsigned long long> device_flag_;
  cuda::PinnedArray<GotohEdge> host_edge_;
  cuda::PinnedArray<unsigned long long> host_flag_;
  GotohEdge* edge_ = nullptr;
  unsigned long long* flag_ = nullptr;
};

// The places' meeting before the first launch (ChainLink::ready), and the
// word that stops every wait once a place has failed.
class Barrier {
 public:
  Barrier(std::size_t places, int* abort) : places_(places), abort_(abort) {}
  // What a place waiting on a failed one throws.
  struct Abandoned {};

  bool ready(const std::vector<long long>& cuts) {
    std::unique_lock lock(mutex_);
    cuts_.push_back(cuts);
    changed_.notify_all();
    changed_.wait(lock, [&] { return failed_ || cuts_.size() == places_; });
    if (failed_) throw Abandoned{};
    if (std::any_of(cuts_.begin(), cuts_.end(), [](const auto& c) { return c.empty(); })) return false;
    if (std::adjacent_find(cuts_.begin(), cuts_.end(), std::not_equal_to<>{}) != cuts_.end())
      throw RunError("the GPUs of --devices plan a chained pass's pieces differently (their memory or models differ)");
    return true;
  }
  void fail() {
    {
      const std::lock_guard lock(mutex_);
      failed_ = true;
      *reinterpret_cast<volatile int*>(abort_) = 1;
    }
    changed_.notify_all();
  }
  // The cuts every place planned, once all are ready.
  const std::vector<long long>& cuts() const { return cuts_.front(); }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t places_;
  int* abort_;
  std::vector<std::vector<long long>> cuts_;
  bool failed_ = false;
};

}  // namespace

std::optional<PassResult> chained_striped_pass(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape,
                                               const std::vector<int>& devices, GpuTuning tuning, Progress* progress,
                                               SavedRows* saved, std::vector<long long>* cuts) {
  const auto m = static_cast<long long>(q.size()), n = static_cast<long long>(t.size());
  const std::size_t places = devices.size();
  if (!chained_pass_takes(shape, {}, n, places) || m == 0)
    throw std::logic_error("chained_striped_pass: a pass it does not take");
  // No place may stop early (its neighbours wait on it): the kernel that
  // holds any score, or 32 bits where the scoring leaves it too few rows.
  if (striped::rebase16_of(gap_costs(scheme).open_extend, scheme.max_abs_score(), 8).interval > 0)
    tuning.kernel16 = Kernel16::rebased;
  else
    tuning.bits = 32;
  if (saved) saved->allocate(m / saved->every, n + 1);

  std::vector<std::unique_ptr<EdgeBuffer>> buffers;  // place k's left edge, written by place k - 1 (the last: k = 0)
  for (std::size_t k = 0; k < places; ++k)
    buffers.push_back(std::make_unique<EdgeBuffer>(devices[k], devices[(k + places - 1) % places], m));
  cuda::PinnedArray<int> abort;
  *abort.reserve(1, "cudaMallocHost (a chained pass's abort word)") = 0;
  Barrier barrier(places, abort.get());

  std::vector<ChainLink> links(places);
  for (std::size_t k = 0; k < places; ++k) {
    ChainLink& link = links[k];
    link.place = k, link.places = places;
    link.sharing = static_cast<int>(std::count(devices.begin(), devices.end(), devices[k]));
    link.left_edge = buffers[k]->edge(), link.left_flag = buffers[k]->flag();
    link.right_edge = buffers[(k + 1) % places]->edge(), link.right_flag = buffers[(k + 1) % places]->flag();
    link.abort = abort.get();
    link.ready = [&barrier](const std::vector<long long>& cuts) { return barrier.ready(cuts); };
  }
  std::vector<std::future<std::optional<PassResult>>> runs;
  std::exception_ptr failure;
  try {
    for (std::size_t k = 0; k < places; ++k)
      runs.push_back(std::async(std::launch::async, [&, k]() -> std::optional<PassResult> {
        try {
          return striped_pass_chained(q, t, scheme, shape, devices[k], tuning, progress, saved, links[k]);
        } catch (...) {
          barrier.fail();
          throw;
        }
      }));
  } catch (...) {  // a thread not started: the places that did stop at the barrier
    failure = std::current_exception();
    barrier.fail();
  }
  // The first failure (not a place's giving up on a failed one) is rethrown.
  std::vector<std::optional<PassResult>> results;
  for (auto& r : runs) {
    try {
      results.push_back(r.get());
    } catch (const Barrier::Abandoned&) {
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (std::any_of(results.begin(), results.end(), [](const auto& r) { return !r; })) {
    if (saved) saved->every = 0;
    return std::nullopt;
  }
  *cuts = barrier.cuts();
  if (shape.end == End::corner)  // the place of the last piece has the corner
    return results[(cuts->size() - 2) % places];
  PassResult best{0, 0, 0};
  for (const auto& r : results) keep_better(best, *r);
  return best;
}

}  // namespace gdp::pairwise
