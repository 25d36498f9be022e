#pragma once
// The host side of a score pass chained over several GPUs, for any cell
// (the kernels' side is strip_handover.cuh's: Params::left_flag): each
// place's left-edge buffer, the barrier before the first launch, a host
// thread a place, and the first failure passed on. gpu-sw's chained pass
// (chained_pass.cu) and gpu-syntenic's (syntenic_score.cu) run through it.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "pairwise/cuda/chain_link.hpp"

namespace gdp::pairwise::striped {

// A place's left edge and its flag: in its device's memory where the place
// before can write there (the same device, or a peer), else in page-locked
// host memory, which every GPU reaches.
template <class Edge>
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
  Edge* edge() const { return edge_; }
  unsigned long long* flag() const { return flag_; }

 private:
  int device_;
  cuda::DeviceArray<Edge> device_edge_;
  cuda::DeviceArray<unsigned long long> device_flag_;
  cuda::PinnedArray<Edge> host_edge_;
  cuda::PinnedArray<unsigned long long> host_flag_;
  Edge* edge_ = nullptr;
  unsigned long long* flag_ = nullptr;
};

// The places' meeting before the first launch (ChainLink::ready), and the
// word that stops every wait once a place has failed.
class ChainBarrier {
 public:
  ChainBarrier(std::size_t places, int* abort) : places_(places), abort_(abort) {}
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

// Runs place(k, link) for each place k of `devices` (a device may be
// listed more than once), a host thread each, place k's left edge (m rows)
// written by place k - 1 and the first place's by the last. Returns each
// place's result, or nullopt where a place declined (its run returned
// nullopt, having told the chain through link.ready); `cuts` gets the
// pieces' cuts the places planned. Rethrows the first failure, not a
// place's giving up on a failed one, once every thread has ended.
template <class Edge, class Result, class Place>
std::optional<std::vector<Result>> run_chain(const std::vector<int>& devices, long long m, Place&& place,
                                             std::vector<long long>* cuts) {
  const std::size_t places = devices.size();
  std::vector<std::unique_ptr<EdgeBuffer<Edge>>> buffers;
  for (std::size_t k = 0; k < places; ++k)
    buffers.push_back(std::make_unique<EdgeBuffer<Edge>>(devices[k], devices[(k + places - 1) % places], m));
  cuda::PinnedArray<int> abort;
  *abort.reserve(1, "cudaMallocHost (a chained pass's abort word)") = 0;
  ChainBarrier barrier(places, abort.get());

  std::vector<ChainLink<Edge>> links(places);
  for (std::size_t k = 0; k < places; ++k) {
    ChainLink<Edge>& link = links[k];
    link.place = k, link.places = places;
    link.sharing = static_cast<int>(std::count(devices.begin(), devices.end(), devices[k]));
    link.left_edge = buffers[k]->edge(), link.left_flag = buffers[k]->flag();
    link.right_edge = buffers[(k + 1) % places]->edge(), link.right_flag = buffers[(k + 1) % places]->flag();
    link.abort = abort.get();
    link.ready = [&barrier](const std::vector<long long>& c) { return barrier.ready(c); };
  }
  std::vector<std::future<std::optional<Result>>> runs;
  std::exception_ptr failure;
  try {
    for (std::size_t k = 0; k < places; ++k)
      runs.push_back(std::async(std::launch::async, [&, k]() -> std::optional<Result> {
        try {
          return place(k, links[k]);
        } catch (...) {
          barrier.fail();
          throw;
        }
      }));
  } catch (...) {  // a thread not started: the places that did stop at the barrier
    failure = std::current_exception();
    barrier.fail();
  }
  std::vector<std::optional<Result>> results;
  for (auto& r : runs) {
    try {
      results.push_back(r.get());
    } catch (const ChainBarrier::Abandoned&) {
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (std::any_of(results.begin(), results.end(), [](const auto& r) { return !r; })) return std::nullopt;
  *cuts = barrier.cuts();
  std::vector<Result> out;
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

}  // namespace gdp::pairwise::striped
