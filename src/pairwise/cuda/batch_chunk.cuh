#pragma once
// The database search's targets on the device (batch_score.cu): a chunk of
// them, laid out as batch_layout.hpp says. The letters are written on the
// host's cores into a pinned buffer and copied up slice by slice on a
// stream of their own, in pieces of consecutive pairs, so that kernels can
// start on the first pieces while the rest goes up.
#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "pairwise/batch_layout.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::pairwise::batch {

struct DeviceChunk {
  bool pairs16 = false;
  bool loaded = false;  // holds the whole database, for later calls
  Layout layout;
  cuda::DeviceArray<std::uint8_t> letters;
  cuda::DeviceArray<long long> offset;
  cuda::DeviceArray<int> length;
};

// What a search's chunks go up through: a pinned buffer of two slices (the
// cores write one while the other is copied), made ahead so that the first
// upload need not wait for it, and a stream apart from the kernels', so
// that a chunk goes up while kernels run; and the host threads the letters
// are written on. Made with its device current; one upload at a time.
class Uploads {
 public:
  Uploads();
  ~Uploads();
  Uploads(const Uploads&) = delete;
  Uploads& operator=(const Uploads&) = delete;
  std::uint8_t* buffer() { return buffer_.get(); }
  cudaStream_t stream() const { return stream_; }
  int threads = layout_threads();

 private:
  cuda::PinnedArray<std::uint8_t> buffer_;
  cudaStream_t stream_{};
};

// One upload of a chunk: the layout's offsets and lengths go up at
// construction, the letters piece by piece. A piece's kernels are queued
// after ready_in(their stream). Not for two uploads through one Uploads at
// once.
class ChunkUpload {
 public:
  ChunkUpload(Uploads& through, DeviceChunk& chunk, Layout&& layout, const std::vector<Residues>& targets, int pad);
  ~ChunkUpload();  // waits for the copies
  ChunkUpload(const ChunkUpload&) = delete;
  ChunkUpload& operator=(const ChunkUpload&) = delete;

  // The letters of the pairs after those sent so far, up to pair k1, queued.
  void send(std::size_t k1);
  // Work queued on `stream` from now on waits for the pieces sent so far.
  void ready_in(cudaStream_t stream) { sent_event_.make_wait(stream); }
  // Waits for every copy; throws RunError on a CUDA failure.
  void finish();

 private:
  Uploads& through_;
  DeviceChunk& chunk_;
  const std::vector<Residues>& targets_;
  int pad_;
  std::size_t sent_ = 0;
  int half_ = 0;                  // the pinned buffer's half the next slice goes through
  cuda::Event copied_[2];         // each half's last copy
  cuda::Event sent_event_;        // the last piece's last copy
};

}  // namespace gdp::pairwise::batch
