// A database chunk's way up to the device (batch_chunk.cuh).
#include <algorithm>
#include <utility>

#include "pairwise/cuda/batch_chunk.cuh"

namespace gdp::pairwise::batch {
namespace {

// More than a pair's letters (2 x 65,536), and small: each page of
// page-locked memory costs to make.
constexpr std::size_t kSlice = std::size_t{1} << 20;

}  // namespace

Uploads::Uploads() {
  buffer_.reserve(2 * kSlice);
  GDP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Uploads::~Uploads() { cudaStreamDestroy(stream_); }

ChunkUpload::ChunkUpload(Uploads& through, DeviceChunk& chunk, Layout&& layout, const std::vector<Residues>& targets,
                         int pad)
    : through_(through), chunk_(chunk), targets_(targets), pad_(pad) {
  chunk.loaded = false;
  chunk.layout = std::move(layout);
  const Layout& l = chunk.layout;
  chunk.letters.reserve(std::max<std::size_t>(l.bytes(), 1), "cudaMalloc (database)");
  GDP_CUDA_CHECK(cudaMemcpyAsync(chunk.offset.reserve(std::max<std::size_t>(l.offset.size(), 1)), l.offset.data(),
                                 l.offset.size() * sizeof(long long), cudaMemcpyHostToDevice, through_.stream()));
  GDP_CUDA_CHECK(cudaMemcpyAsync(chunk.length.reserve(std::max<std::size_t>(l.length.size(), 1)), l.length.data(),
                                 l.length.size() * sizeof(int), cudaMemcpyHostToDevice, through_.stream()));
  sent_event_.record(through_.stream());
}

ChunkUpload::~ChunkUpload() { cudaStreamSynchronize(through_.stream()); }

void ChunkUpload::send(std::size_t k1) {
  const Layout& l = chunk_.layout;
  const std::size_t step = l.pairs16 ? 2 : 1, pairs = l.offset.size();
  auto byte_of = [&](std::size_t k) { return static_cast<std::size_t>(k < pairs ? l.offset[k] : l.columns) * step; };
  std::uint8_t* stage = through_.buffer();
  for (std::size_t k0 = sent_, k = sent_; k0 < k1; k0 = k, half_ ^= 1) {
    for (k = k0 + 1; k < k1 && byte_of(k + 1) - byte_of(k0) <= kSlice;) ++k;
    copied_[half_].wait();  // this half's last copy is done
    std::uint8_t* out = stage + static_cast<std::size_t>(half_) * kSlice;
    write_letters(l, k0, k, targets_, pad_, out, through_.threads);
    GDP_CUDA_CHECK(cudaMemcpyAsync(chunk_.letters.get() + byte_of(k0), out, byte_of(k) - byte_of(k0),
                                   cudaMemcpyHostToDevice, through_.stream()));
    copied_[half_].record(through_.stream());
  }
  sent_ = std::max(sent_, k1);
  sent_event_.record(through_.stream());
}

void ChunkUpload::finish() { GDP_CUDA_CHECK(cudaStreamSynchronize(through_.stream())); }

}  // namespace gdp::pairwise::batch
