// The database-search kernels' layout on the host (batch_layout.hpp).
#include "pairwise/batch_layout.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/parallel_for.hpp"

namespace gdp::pairwise::batch {

int layout_threads() { return static_cast<int>(std::max(1u, std::min(16u, std::thread::hardware_concurrency()))); }

int layout_threads(std::size_t items) {
  constexpr std::size_t kItemsAThread = 16384;
  return items < 2 * kItemsAThread ? 1 : layout_threads();
}

namespace {
// Items [0, n) in `blocks` blocks: block b's first item; and the blocks for `threads`.
std::size_t block_start(std::size_t n, std::size_t blocks, std::size_t b) { return n * b / blocks; }
std::size_t block_count(std::size_t n, int threads) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, std::max<std::size_t>(n, 1));
}
}  // namespace

ByLength by_length(const std::vector<Residues>& targets) {
  // A counting sort: start[kMaxTarget - n] is where the targets of n
  // letters go.
  if (targets.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("by_length: 2^32 targets or more");
  ByLength sorted;
  std::vector<std::uint32_t> start(kMaxTarget + 1, 0);
  auto taken = [](std::size_t n) { return n > 0 && n <= kMaxTarget; };
  std::uint32_t count = 0;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const std::size_t n = targets[t].size();
    sorted.all_residues += n;
    if (taken(n))
      ++start[kMaxTarget - n], ++count, sorted.residues += n;
    else if (n == 0)
      sorted.empty.push_back(static_cast<std::int64_t>(t));
  }
  sorted.index.resize(count);
  sorted.length.resize(count);
  for (std::uint32_t k = 0, sum = 0; k < start.size(); ++k) {
    std::fill_n(sorted.length.begin() + sum, start[k], static_cast<int>(kMaxTarget - k));
    sum += std::exchange(start[k], sum);
  }
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (taken(targets[t].size())) sorted.index[start[kMaxTarget - targets[t].size()]++] = static_cast<std::uint32_t>(t);
  return sorted;
}

std::vector<ByLength> split_by_residues(const ByLength& sorted, std::size_t parts) {
  if (parts == 0) throw std::invalid_argument("split_by_residues: no shares");
  std::vector<ByLength> shares(parts);
  for (ByLength& share : shares) share.all_residues = sorted.all_residues;
  shares.front().empty = sorted.empty;
  for (std::size_t k = 0; k < sorted.index.size(); ++k) {
    ByLength& least = *std::min_element(shares.begin(), shares.end(),
                                        [](const ByLength& a, const ByLength& b) { return a.residues < b.residues; });
    least.index.push_back(sorted.index[k]);
    least.length.push_back(sorted.length[k]);
    least.residues += static_cast<std::uint64_t>(sorted.length[k]);
  }
  return shares;
}

Layout lay_out(const ByLength& sorted, std::size_t begin, std::size_t end, bool pairs16, int threads) {
  // Each block of pairs sums its columns, then writes its offsets from where
  // the blocks before it end.
  Layout l;
  l.pairs16 = pairs16;
  l.sorted = &sorted, l.begin = begin, l.end = end;
  const std::size_t step = pairs16 ? 2 : 1, pairs = (end - begin + step - 1) / step, blocks = block_count(pairs, threads);
  l.offset.resize(pairs), l.length.resize(pairs);  // unset: the blocks' threads touch their pages first
  std::vector<long long> columns(blocks + 1, 0);
  std::vector<std::int64_t> residues(blocks, 0);
  auto each_pair = [&](std::size_t b, auto&& body) {
    for (std::size_t x = block_start(pairs, blocks, b); x < block_start(pairs, blocks, b + 1); ++x) {
      const std::size_t k = begin + step * x;
      body(x, sorted.length[k], pairs16 && k + 1 < end ? sorted.length[k + 1] : 0);
    }
  };
  parallel_for(static_cast<std::int64_t>(blocks), static_cast<int>(blocks), [&](std::int64_t b) {
    long long block_columns = 0;  // kept on the thread: the blocks' entries share cache lines
    std::int64_t block_residues = 0;
    each_pair(static_cast<std::size_t>(b), [&](std::size_t, int na, int nb) { block_columns += na, block_residues += na + nb; });
    columns[static_cast<std::size_t>(b) + 1] = block_columns, residues[static_cast<std::size_t>(b)] = block_residues;
  });
  for (std::size_t b = 0; b < blocks; ++b) columns[b + 1] += columns[b], l.residues += residues[b];
  l.columns = columns[blocks];
  parallel_for(static_cast<std::int64_t>(blocks), static_cast<int>(blocks), [&](std::int64_t b) {
    long long column = columns[static_cast<std::size_t>(b)];
    each_pair(static_cast<std::size_t>(b), [&](std::size_t x, int na, int) {
      l.offset[x] = column, l.length[x] = na;
      column += na;
    });
  });
  return l;
}

std::int64_t Layout::first(std::size_t k) const { return sorted->index[begin + (pairs16 ? 2 * k : k)]; }
std::int64_t Layout::second(std::size_t k) const {
  const std::size_t at = begin + 2 * k + 1;
  return pairs16 && at < end ? static_cast<std::int64_t>(sorted->index[at]) : -1;
}

void write_letters(const Layout& l, std::size_t k0, std::size_t k1, const std::vector<Residues>& targets, int pad,
                   std::uint8_t* out, int threads) {
  const std::size_t step = l.pairs16 ? 2 : 1;
  const auto base = static_cast<std::size_t>(l.offset[k0]) * step;
  auto write = [&](std::size_t k) {
    std::uint8_t* at = out + static_cast<std::size_t>(l.offset[k]) * step - base;
    const Residues ta = targets[static_cast<std::size_t>(l.first(k))];
    if (!l.pairs16) {
      std::copy(ta.begin(), ta.end(), at);
      return;
    }
    const Residues tb = l.second(k) >= 0 ? targets[static_cast<std::size_t>(l.second(k))] : Residues{};
    // The -O2 build does not vectorise these loops without the pragma.
    const std::size_t nb = tb.size(), na = ta.size();
#pragma omp simd
    for (std::size_t j = 0; j < nb; ++j) at[2 * j] = ta[j], at[2 * j + 1] = tb[j];
#pragma omp simd
    for (std::size_t j = nb; j < na; ++j) at[2 * j] = ta[j], at[2 * j + 1] = static_cast<std::uint8_t>(pad);
  };
  // Runs of pairs, several a thread so that the threads even out.
  const std::size_t pairs = k1 - k0, runs = std::min<std::size_t>(pairs, static_cast<std::size_t>(threads) * 8);
  parallel_for(static_cast<std::int64_t>(runs), threads, [&](std::int64_t r) {
    const auto x = static_cast<std::size_t>(r);
    for (std::size_t k = k0 + pairs * x / runs; k < k0 + pairs * (x + 1) / runs; ++k) write(k);
  });
}

std::vector<std::size_t> piece_ends(const Layout& l) {
  constexpr std::size_t kBundle = 32;  // pairs: a warp's bundle of the smallest groups
  const std::size_t pairs = l.offset.size();
  std::vector<std::size_t> ends;
  for (long long share = 64; share >= 2; share /= 2) {
    const long long reach = l.columns / share;
    std::size_t k = static_cast<std::size_t>(std::lower_bound(l.offset.begin(), l.offset.end(), reach) - l.offset.begin());
    k = (k + kBundle - 1) / kBundle * kBundle;
    if (k > 0 && k < pairs && (ends.empty() || k > ends.back())) ends.push_back(k);
  }
  ends.push_back(pairs);
  return ends;
}

namespace {
constexpr std::int64_t kFileBlock = 16384;  // pairs
std::int64_t file_blocks(const Layout& l) {
  return (static_cast<std::int64_t>(l.offset.size()) + kFileBlock - 1) / kFileBlock;
}
}  // namespace

void file_scores16(const Layout& l, const int* scores, int overflow_at, std::vector<PassResult>& results,
                   std::vector<std::int64_t>& overflowed, int threads) {
  const std::int64_t pairs = static_cast<std::int64_t>(l.offset.size()), blocks = file_blocks(l);
  std::vector<std::vector<std::int64_t>> over(static_cast<std::size_t>(blocks));
  parallel_for(blocks, threads, [&](std::int64_t b) {
    for (std::int64_t k = b * kFileBlock; k < std::min(pairs, (b + 1) * kFileBlock); ++k)
      for (int half = 0; half < 2; ++half) {
        const std::int64_t t = half ? l.second(static_cast<std::size_t>(k)) : l.first(static_cast<std::size_t>(k));
        if (t < 0) continue;
        const int s = scores[2 * k + half];
        if (s >= overflow_at) over[static_cast<std::size_t>(b)].push_back(t);
        results[static_cast<std::size_t>(t)] = {s, 0, 0};
      }
  });
  for (const auto& o : over) overflowed.insert(overflowed.end(), o.begin(), o.end());
}

void file_ends(const Layout& l, const int* ends, std::vector<PassResult>& results, int threads) {
  const std::int64_t pairs = static_cast<std::int64_t>(l.offset.size());
  parallel_for(file_blocks(l), threads, [&](std::int64_t b) {
    for (std::int64_t k = b * kFileBlock; k < std::min(pairs, (b + 1) * kFileBlock); ++k)
      results[static_cast<std::size_t>(l.first(static_cast<std::size_t>(k)))] = {ends[4 * k], ends[4 * k + 1],
                                                                                ends[4 * k + 2]};
  });
}

}  // namespace gdp::pairwise::batch
