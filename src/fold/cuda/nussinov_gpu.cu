// Nussinov on the GPU: the blocked algorithm of the dissertation's section
// 7.2. The upper triangle of C is cut into 128 x 128 blocks (the classical
// max-plus kernel's tile) and filled one diagonal of blocks at a time.
//
// For block (I, J), J = I + d, the split max over k in C(i,j) =
// max(C(i+1,j-1) + 1, max_k C(i,k) + C(k+1,j)) falls into three parts:
//   - k in the blocks strictly between I and J: a max-plus product of the
//     row block I, columns (I+1)B .. JB-1, with the rows (I+1)B+1 .. JB of
//     column block J. Those rows, one lower than k, are the same matrix seen
//     one row down, so no shifted copy is kept. One batched launch of
//     src/semiring's kernel computes this part for every block of the
//     diagonal (d >= 2), straight into the blocks. Late diagonals have few
//     blocks and long products, so k is split into slices that run at
//     once and combine by atomic max (the blocks hold 0 until then);
//   - k in block I and k in block J: they need cells of the block itself.
//     One thread block a block finishes it in shared memory by its
//     anti-diagonals, from the bottom-left corner, with copies of the
//     finished blocks (I, I) and (J, J) and of row 0 of (I+1, J) beside it.
// The diagonal blocks (d = 0) are finished alone the same way. The
// sequence is padded to a multiple of 128 with a letter that never pairs,
// which leaves C(0, n-1) and every cell of the real sequence unchanged.
//
// Up to n = 131,071 (Table::kMaxPacked) pair counts fit in 16 unsigned bits
// and the device keeps only the upper triangle, by block rows
// (semiring/triangle.hpp): a quarter of the full int32 matrix, 10 GB at
// n = 100,000. Its products run two cells an instruction. Longer sequences
// keep every cell in int32. The host gets the strict upper triangle in 16
// bits (Table::packed), packed on the device in pieces of rows, into pages
// that the CPU's threads touch while the GPU fills.
#include <algorithm>
#include <string>
#include <thread>

#include "core/cuda_check.hpp"
#include "core/error.hpp"
#include "core/stream_progress.cuh"
#include "core/timer.hpp"
#include "fold/recurrence.hpp"
#include "fold/table.hpp"
#include "semiring/gpu.hpp"

namespace gdp::fold {
namespace {

constexpr int kB = 128;

// Where the blocked fill keeps C on the device: every cell in int32
// (FullStore, past Table::kMaxPacked), or the upper triangle by block rows
// in 16 bits (TriangleStore, semiring/triangle.hpp; pair counts fit up to
// n = 131,071), a quarter of the bytes. row(i)[j] is C(i, j), for j from
// row i's diagonal block on.
struct FullStore {
  using Cell = int;
  int* c;
  long long padded;
  __device__ Cell* row(long long i) const { return c + i * padded; }
};
struct TriangleStore {
  using Cell = std::uint16_t;
  std::uint16_t* t;
  semiring::BlockRowTriangle layout;
  __device__ Cell* row(long long i) const { return t + layout.row_start(i); }
};

// Finishes block (I, I + d) for I = blockIdx.x; kB threads, thread r on
// row r of the block's current anti-diagonal, each cell by
// recurrence.hpp's block_cell. c holds the bulk part of every cell of the
// block already when d >= 2. The block, the finished diagonal blocks
// (I, I) and (J, J), row 0 of block (I+1, J), the column left of the block
// (one row down) and the block's bases are read into shared memory first,
// so that no step reads device memory (what that and four running maxima
// in the split loops were measured to change: bench/RESULTS.md, "gpu-fold:
// split products, a packed 16-bit table on the host").
// A tile's rows are padded by 4 bytes, which keeps column reads free of
// bank conflicts.
template <class Cell>
using Tile = Cell[kB][kB + 4 / sizeof(Cell)];
template <class Store>
constexpr std::size_t finish_shared_bytes() {
  return 3 * sizeof(Tile<typename Store::Cell>) + 2 * kB * sizeof(int) + kB;
}

template <class Store>
__global__ void __launch_bounds__(kB) finish_blocks(Store c, const std::uint8_t* seq, int d, int min_loop, bool gu) {
  using T = Tile<typename Store::Cell>;
  extern __shared__ __align__(16) unsigned char finish_shared[];
  T& cur = *reinterpret_cast<T*>(finish_shared);
  T& left = *reinterpret_cast<T*>(finish_shared + sizeof(T));       // block (I, I)
  T& below = *reinterpret_cast<T*>(finish_shared + 2 * sizeof(T));  // block (J, J)
  int* next_row = reinterpret_cast<int*>(finish_shared + 3 * sizeof(T));  // row 0 of block (I+1, J)
  int* left_column = next_row + kB;  // C(i0 + r + 1, j0 - 1) at r
  auto* column_bases = reinterpret_cast<std::uint8_t*>(left_column + kB);  // seq[j0 + c] at c
  const long long i0 = static_cast<long long>(blockIdx.x) * kB, j0 = i0 + static_cast<long long>(d) * kB;
  const int r = static_cast<int>(threadIdx.x);
  const std::uint8_t row_base = seq[i0 + r];
  column_bases[r] = seq[j0 + r];
  for (int row = 0; row < kB; ++row) {
    cur[row][r] = d >= 2 ? c.row(i0 + row)[j0 + r] : 0;
    if (d >= 1) {
      left[row][r] = c.row(i0 + row)[i0 + r];
      below[row][r] = c.row(j0 + row)[j0 + r];
    }
  }
  if (d >= 1) {
    next_row[r] = c.row(i0 + kB)[j0 + r];
    // Below the main diagonal C is 0 (and a triangle keeps no such cell
    // outside the diagonal blocks).
    left_column[r] = i0 + r + 1 <= j0 - 1 ? static_cast<int>(c.row(i0 + r + 1)[j0 - 1]) : 0;
  }
  __syncthreads();

  const BlockTiles<T> tiles{cur, left, below, next_row, left_column, column_bases};
  for (int s = d == 0 ? 1 : -(kB - 1); s < kB; ++s) {
    const int col = r + s;
    if (col >= 0 && col < kB) {
      const long long i = i0 + r, j = j0 + col;
      cur[r][col] = static_cast<typename Store::Cell>(block_cell<kB>(tiles, r, col, i, j, d == 0, row_base, min_loop, gu));
    }
    __syncthreads();
  }
  for (int row = 0; row < kB; ++row) c.row(i0 + row)[j0 + r] = cur[row][r];
}

// Rows r0 .. r0 + gridDim.x - 1 of the strict upper triangle of C into
// `out`, packed in 16 bits as Table::packed lays them out, from row r0's
// first cell on. One block a row.
template <class Store>
__global__ void pack_rows(Store c, long long n, long long r0, std::uint16_t* __restrict__ out) {
  const long long i = r0 + blockIdx.x;
  std::uint16_t* row = out + (Table::row_start(n, i) - Table::row_start(n, r0)) - (i + 1);
  const typename Store::Cell* from = c.row(i);
  for (long long j = i + 1 + threadIdx.x; j < n; j += blockDim.x) row[j] = static_cast<std::uint16_t>(from[j]);
}

// Short records, many a launch: one block a record, its whole table in
// shared memory as Table::packed lays it out (16 bits, the strict upper
// triangle, ~n^2 bytes: n up to about 480 on an H100), filled by
// diagonals, one cell a thread. Then either the table is copied out for
// the host's traceback (`tables`), or its first warp traces it back right
// there (`structures`), and only the dot-bracket string and the pair
// count go back.
constexpr int kSmallThreads = 256;

__host__ __device__ constexpr long long small_shared_bytes(long long n) {
  return n * static_cast<long long>(sizeof(int)) + (n + 3) / 4 * 4 + n * (n - 1) / 2 * 2;
}

// The traceback of cpu/nussinov.cpp's trace() by one warp: the same choice
// in every interval (the pair if it gives the score, else the first split
// k that does; the 32 lanes test 32 splits at once), so the same
// structure. `at` reads C(i, j); the stack of intervals, (i << 16 | j),
// lives in device memory (at most n + 1 of them). On an interval with no
// split, which a correct table never has, the pair count becomes -1.
template <class At>
__device__ void trace_small(const At& at, const std::uint8_t* bases, int n, int min_loop, bool gu, char* out,
                            unsigned* stack, int* pairs_out) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  for (int x = lane; x < n; x += 32) out[x] = '.';
  int top = 0;  // entries on the stack (every lane keeps the same count)
  if (n > 1) {
    if (lane == 0) stack[0] = static_cast<unsigned>(n - 1);
    top = 1;
  }
  bool failed = false;
  while (top > 0) {
    __syncwarp();
    const unsigned entry = stack[--top];
    __syncwarp();
    const int i = static_cast<int>(entry >> 16), j = static_cast<int>(entry & 0xffffu);
    if (j <= i) continue;
    const int v = at(i, j);
    if (v == 0) continue;
    // pair_gives(), spelled out so that the branch stays one.
    if (j - i > min_loop && pairs(bases[i], bases[j], gu) && v == at(i + 1, j - 1) + 1) {
      if (lane == 0) {
        out[i] = '(', out[j] = ')';
        stack[top] = static_cast<unsigned>(i + 1) << 16 | static_cast<unsigned>(j - 1);
      }
      ++top;
      continue;
    }
    int k = j;
    for (int k0 = i; k0 < j && k == j; k0 += 32) {
      const int kk = k0 + lane;
      const unsigned hits = __ballot_sync(0xffffffffu, kk < j && split_gives(v, at(i, kk), at(kk + 1, j)));
      if (hits) k = k0 + __ffs(static_cast<int>(hits)) - 1;
    }
    if (k == j) {
      failed = true;
      break;
    }
    if (lane == 0) {
      stack[top] = static_cast<unsigned>(i) << 16 | static_cast<unsigned>(k);
      stack[top + 1] = static_cast<unsigned>(k + 1) << 16 | static_cast<unsigned>(j);
    }
    top += 2;
  }
  if (lane == 0) *pairs_out = failed ? -1 : n > 1 ? at(0, n - 1) : 0;
}

__global__ void __launch_bounds__(kSmallThreads) fill_small(const std::uint8_t* __restrict__ seqs,
                                                            const long long* __restrict__ seq_at,
                                                            const long long* __restrict__ table_at,
                                                            std::uint16_t* __restrict__ tables, char* structures,
                                                            unsigned* stacks, int* pair_counts, int min_loop, bool gu) {
  extern __shared__ __align__(16) unsigned char small_shared[];
  const long long record = blockIdx.x;
  const int n = static_cast<int>(seq_at[record + 1] - seq_at[record]);
  int* row = reinterpret_cast<int*>(small_shared);  // C(i, j) at c[row[i] + j], j > i
  auto* bases = reinterpret_cast<std::uint8_t*>(row + n);
  auto* c = reinterpret_cast<std::uint16_t*>(bases + (n + 3) / 4 * 4);
  for (int i = static_cast<int>(threadIdx.x); i < n; i += kSmallThreads) {
    row[i] = static_cast<int>(Table::row_start(n, i) - (i + 1));
    bases[i] = seqs[seq_at[record] + i];
  }
  __syncthreads();
  const RowTable<std::uint16_t> at{c, row};
  for (int d = 1; d < n; ++d) {
    for (int i = static_cast<int>(threadIdx.x); i + d < n; i += kSmallThreads) {
      const int j = i + d;
      c[row[i] + j] = static_cast<std::uint16_t>(packed_cell(at, bases, i, j, min_loop, gu));
    }
    __syncthreads();
  }
  if (tables) {
    const long long cells = static_cast<long long>(n) * (n - 1) / 2;
    for (long long x = threadIdx.x; x < cells; x += kSmallThreads) tables[table_at[record] + x] = c[x];
  }
  if (structures && threadIdx.x < 32)
    trace_small(at, bases, n, min_loop, gu, structures + seq_at[record], stacks + seq_at[record] + record,
                pair_counts + record);
}

// Slices of k for a diagonal's `products` of 128 x k x 128: enough blocks
// for `rounds` rounds of the GPU's `device_blocks` (what its SMs hold at
// once), each slice at least `min_slice` long so that its atomic maxima
// stay a small part of its work (GpuTuning, fold.hpp), from 1 to 1024.
int k_slices(long long products, long long k, long long device_blocks, const GpuTuning& s) {
  const long long wanted = (s.rounds * device_blocks + products - 1) / products;
  return static_cast<int>(std::clamp(std::min(wanted, k / s.min_slice), 1LL, 1024LL));
}

}  // namespace

Table fill_gpu(std::string_view rna, const Options& options, FoldTiming& timing, bool packed_asked) {
  const long long n = static_cast<long long>(rna.size());
  const Rules& rules = options.rules;
  const int device = options.device;
  timing.fill_seconds = timing.copy_seconds = 0;
  if (n < 2) return Table::of_size(n);
  const long long blocks = (n + kB - 1) / kB, padded = blocks * kB;

  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  // Up to Table::kMaxPacked the device keeps the triangle in 16 bits;
  // past it, every cell in int32.
  const bool packed = packed_asked && n <= Table::kMaxPacked;
  constexpr long long kPackCells = 1LL << 26;  // 128 MiB of 16-bit cells a piece of rows, at most
  const semiring::BlockRowTriangle layout{padded, kB};
  const auto bytes_for = [&](long long p, bool in_16_bits) {  // device memory a fill of p padded bases needs
    const semiring::BlockRowTriangle l{p, kB};
    return in_16_bits ? 2.0 * static_cast<double>(l.cells()) + 2.0 * kPackCells + static_cast<double>(p)
                      : 4.0 * static_cast<double>(p) * static_cast<double>(p) + static_cast<double>(p);
  };
  const double need = bytes_for(padded, packed);
  if (need > static_cast<double>(free_bytes)) {
    long long fits = 0;  // the longest sequence either layout would hold
    for (long long p = kB; p <= 4 * Table::kMaxPacked; p += kB)
      if (bytes_for(p, p <= Table::kMaxPacked) <= static_cast<double>(free_bytes)) fits = p;
    throw InputError("a sequence of " + std::to_string(n) + " bases needs " + std::to_string(static_cast<long long>(need / (1 << 20))) +
                   " MiB of GPU memory; " + std::to_string(free_bytes >> 20) + " MiB are free, enough for about " +
                   std::to_string(fits) + " bases");
  }

  std::vector<std::uint8_t> codes(static_cast<std::size_t>(padded), kNoBase);  // the padding never pairs
  for (long long i = 0; i < n; ++i) codes[static_cast<std::size_t>(i)] = base_code(rna[static_cast<std::size_t>(i)]);
  cuda::DeviceArray<int> full;
  cuda::DeviceArray<std::uint16_t> triangle;
  cuda::DeviceArray<std::uint8_t> seq;
  if (packed) {
    triangle.reserve(static_cast<std::size_t>(layout.cells()), "cudaMalloc (the folding matrix)");
    cuda::check(cudaMemset(triangle.get(), 0, triangle.bytes()), "cudaMemset");
  } else {
    full.reserve(static_cast<std::size_t>(padded * padded), "cudaMalloc (the folding matrix)");
    cuda::check(cudaMemset(full.get(), 0, full.bytes()), "cudaMemset");
  }
  seq.reserve(static_cast<std::size_t>(padded));
  cuda::check(cudaMemcpy(seq.get(), codes.data(), codes.size(), cudaMemcpyHostToDevice), "cudaMemcpy");

  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  const long long device_blocks = 2LL * prop.multiProcessorCount;  // the max-plus kernels run two blocks an SM

  // Progress by diagonals of blocks, each weighing its blocks' splits.
  const auto diagonal_weight = [&](long long d) { return static_cast<std::uint64_t>((blocks - d) * (d + 1)); };
  std::uint64_t diagonals_weight = 0;
  for (long long d = 0; d < blocks; ++d) diagonals_weight += diagonal_weight(d);
  cuda::StreamProgress progress(options.progress, fill_splits(n), diagonals_weight);

  // One diagonal of blocks at a time: the products of the blocks strictly
  // between (d >= 2), then the finish.
  auto fill = [&](auto store, auto&& products) {
    using Store = decltype(store);
    const std::size_t shared = finish_shared_bytes<Store>();
    cuda::check(cudaFuncSetAttribute(finish_blocks<Store>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
                "cudaFuncSetAttribute");
    for (long long d = 0; d < blocks; ++d) {
      if (d >= 2) products(d, k_slices(blocks - d, (d - 1) * kB, device_blocks, options.tuning));
      finish_blocks<Store><<<static_cast<unsigned>(blocks - d), kB, shared>>>(store, seq.get(), static_cast<int>(d),
                                                                             rules.min_loop, rules.gu);
      cuda::check(cudaGetLastError(), "finish_blocks");
      progress.add(diagonal_weight(d));
    }
  };
  cuda::KernelTimer timer;
  timer.start();
  if (packed) {
    fill(TriangleStore{triangle.get(), layout},
         [&](long long d, int splits) { semiring::accumulate_triangle_u16(triangle.get(), layout, d, 1, splits); });
  } else {
    const long long stride = kB * padded + kB;  // from block (I, J) to (I+1, J+1)
    int* c = full.get();
    fill(FullStore{c, padded}, [&](long long d, int splits) {
      semiring::accumulate_device_i32({.semiring = semiring::Semiring::max_plus, .m = kB, .k = (d - 1) * kB, .n = kB,
                                       .batch = blocks - d,
                                       .a = {.ptr = c + kB, .ld = padded, .stride = stride},
                                       .b = {.ptr = c + (kB + 1) * padded + d * kB, .ld = padded, .stride = stride},
                                       .c = {.ptr = c + d * kB, .ld = padded, .stride = stride},
                                       .splits = splits});
    });
  }
  // While the GPU fills: the host's table, its pages touched.
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Table t = packed ? packed_table(n, threads) : Table::of_size(n);
  timing.fill_seconds = timer.stop_seconds();

  Timer copy;
  if (packed) {
    cuda::DeviceArray<std::uint16_t> piece;
    piece.reserve(static_cast<std::size_t>(std::min<long long>(kPackCells, Table::packed_cells(n))), "cudaMalloc (packing)");
    for (long long r0 = 0; r0 + 1 < n;) {
      long long r1 = r0 + 1;  // rows r0 .. r1 - 1, at most kPackCells cells
      while (r1 + 1 < n && Table::row_start(n, r1 + 1) - Table::row_start(n, r0) <= kPackCells) ++r1;
      const long long cells = Table::row_start(n, r1) - Table::row_start(n, r0);
      pack_rows<<<static_cast<unsigned>(r1 - r0), 256>>>(TriangleStore{triangle.get(), layout}, n, r0, piece.get());
      cuda::check(cudaGetLastError(), "pack_rows");
      cuda::check(cudaMemcpy(t.packed.get() + Table::row_start(n, r0), piece.get(),
                             static_cast<std::size_t>(cells) * sizeof(std::uint16_t), cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
      r0 = r1;
    }
  } else {
    cuda::check(cudaMemcpy2D(t.c.get(), static_cast<std::size_t>(n) * sizeof(int), full.get(),
                             static_cast<std::size_t>(padded) * sizeof(int), static_cast<std::size_t>(n) * sizeof(int),
                             static_cast<std::size_t>(n), cudaMemcpyDeviceToHost),
                "cudaMemcpy2D");
  }
  timing.copy_seconds = copy.seconds();
  return t;
}

std::vector<Table> fill_gpu_batch(const std::vector<std::string_view>& rnas, const Options& options, double& seconds,
                                  std::vector<std::string>* structures) {
  const Rules& rules = options.rules;
  const int device = options.device;
  seconds = 0;
  std::vector<Table> tables(rnas.size());
  if (structures) structures->assign(rnas.size(), std::string());
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  const long long shared_max = static_cast<long long>(prop.sharedMemPerBlockOptin);
  // Records too long for a block's shared memory take the blocked path;
  // the others go by length, so that a launch's blocks are alike.
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < rnas.size(); ++r) {
    const long long n = static_cast<long long>(rnas[r].size());
    if (n < 2) {
      tables[r] = packed_table(n, 1);
    } else if (small_shared_bytes(n) > shared_max) {
      FoldTiming timing;
      tables[r] = fill_gpu(rnas[r], options, timing);
      seconds += timing.fill_seconds;
    } else {
      order.push_back(r);
    }
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rnas[a].size() < rnas[b].size(); });
  cuda::check(cudaFuncSetAttribute(fill_small, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_max)),
              "cudaFuncSetAttribute");
  // At most 2^28 table cells a launch (512 MiB of 16-bit tables when they
  // come back), at least one record.
  constexpr long long kBatchCells = 1LL << 28;
  for (std::size_t first = 0; first < order.size();) {
    // Records first .. last - 1.
    std::vector<long long> seq_at{0}, table_at{0};
    std::vector<std::uint8_t> codes;
    std::size_t last = first;
    while (last < order.size()) {
      const long long n = static_cast<long long>(rnas[order[last]].size());
      if (last > first && table_at.back() + Table::packed_cells(n) > kBatchCells) break;
      for (const char b : rnas[order[last]]) codes.push_back(base_code(b));
      seq_at.push_back(static_cast<long long>(codes.size()));
      table_at.push_back(table_at.back() + Table::packed_cells(n));
      ++last;
    }
    const long long records = static_cast<long long>(last - first), bases = seq_at.back();
    cuda::DeviceArray<std::uint8_t> d_codes;
    cuda::DeviceArray<long long> d_seq_at, d_table_at;
    cuda::DeviceArray<std::uint16_t> d_tables;
    cuda::DeviceArray<char> d_structures;
    cuda::DeviceArray<unsigned> d_stacks;
    cuda::DeviceArray<int> d_pairs;
    d_codes.reserve(std::max<std::size_t>(codes.size(), 1));
    d_seq_at.reserve(seq_at.size());
    d_table_at.reserve(table_at.size());
    if (structures) {
      d_structures.reserve(static_cast<std::size_t>(bases), "cudaMalloc (the short records' structures)");
      d_stacks.reserve(static_cast<std::size_t>(bases + records), "cudaMalloc (the short records' tracebacks)");
      d_pairs.reserve(static_cast<std::size_t>(records));
    } else {
      d_tables.reserve(static_cast<std::size_t>(std::max(table_at.back(), 1LL)), "cudaMalloc (the short records' tables)");
    }
    cuda::check(cudaMemcpy(d_codes.get(), codes.data(), codes.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda::check(cudaMemcpy(d_seq_at.get(), seq_at.data(), seq_at.size() * sizeof(long long), cudaMemcpyHostToDevice),
                "cudaMemcpy");
    cuda::check(cudaMemcpy(d_table_at.get(), table_at.data(), table_at.size() * sizeof(long long), cudaMemcpyHostToDevice),
                "cudaMemcpy");
    const long long longest = static_cast<long long>(rnas[order[last - 1]].size());
    cuda::KernelTimer timer;
    timer.start();
    fill_small<<<static_cast<unsigned>(records), kSmallThreads, static_cast<std::size_t>(small_shared_bytes(longest))>>>(
        d_codes.get(), d_seq_at.get(), d_table_at.get(), d_tables.get(), d_structures.get(), d_stacks.get(), d_pairs.get(),
        rules.min_loop, rules.gu);
    cuda::check(cudaGetLastError(), "fill_small");
    seconds += timer.stop_seconds();
    if (options.progress)
      for (std::size_t x = first; x < last; ++x)
        options.progress->add(fill_splits(static_cast<std::int64_t>(rnas[order[x]].size())));
    if (structures) {
      std::string text(static_cast<std::size_t>(bases), '.');
      std::vector<int> pairs(static_cast<std::size_t>(records));
      cuda::check(cudaMemcpy(text.data(), d_structures.get(), text.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
      cuda::check(cudaMemcpy(pairs.data(), d_pairs.get(), pairs.size() * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
      for (long long x = 0; x < records; ++x) {
        const std::size_t r = order[first + static_cast<std::size_t>(x)];
        std::string& out = (*structures)[r];
        out = text.substr(static_cast<std::size_t>(seq_at[static_cast<std::size_t>(x)]), rnas[r].size());
        if (pairs[static_cast<std::size_t>(x)] < 0 ||
            std::count(out.begin(), out.end(), '(') != pairs[static_cast<std::size_t>(x)])
          throw RunError("the GPU's traceback of a short record went wrong (record " + std::to_string(r + 1) + ")");
      }
    } else {
      std::vector<std::uint16_t> host(static_cast<std::size_t>(table_at.back()));
      cuda::check(cudaMemcpy(host.data(), d_tables.get(), host.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
      for (long long x = 0; x < records; ++x) {
        const std::size_t r = order[first + static_cast<std::size_t>(x)];
        tables[r] = packed_table(static_cast<long long>(rnas[r].size()), 1);
        std::copy(host.begin() + table_at[static_cast<std::size_t>(x)],
                  host.begin() + table_at[static_cast<std::size_t>(x) + 1], tables[r].packed.get());
      }
    }
    first = last;
  }
  return tables;
}

}  // namespace gdp::fold
