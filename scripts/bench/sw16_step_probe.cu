// The 16-bit Smith-Waterman kernel's step alone (striped_score16.cu's
// lane_row16, load_pairs and the steady step around them), in warps that
// never wait for a neighbour: what the step's code can do by itself with
// 1 to 4 warps a scheduler, so that a full run's speed can be split into
// the step's own cost and the waiting between strips. Variants leave out
// parts of the step (the row's maximum and best cell, the profile's loads)
// or try other forms of them (gap costs as immediates, registers or packed
// parameters; the next step's profile words loaded a step ahead; one packed
// test for a better cell; the profile in registers, one prmt a column).
// The left edge's batches and the right edge's publication are stand-ins
// that never wait. Built and run by scripts/bench/sw16-step-probe.sh.
#include <cstdio>
#include <vector>

#include "pairwise/cuda/striped_score16.cu"

namespace probe {
using namespace gdp::pairwise::striped;

enum Variant { kWhole = 0, kNoBest = 1, kNoProfile = 2, kRowOnly = 3, kRuntimeGaps = 4, kPrefetch = 5,
               kPrefetchCheapBest = 6, kPackedBest = 7, kRegisterProfile = 8,
               kRegisterProfileAhead = 9, kRowOnlyRegisterGaps = 10, kRowOnlyParamGaps = 11,
               kAheadPackedParamGaps = 12 };
const char* kVariantNames[] = {"whole step", "no row maximum, no best cell", "no profile loads",
                               "row update alone", "whole, gap costs from registers",
                               "gaps in registers, next step's profile loaded ahead",
                               "gaps in registers, ahead, packed best test",
                               "gaps in registers, packed best test",
                               "gaps in registers, packed best test, profile in registers",
                               "gaps in registers, packed best test, profile in registers, letters a step ahead",
                               "row update alone, gaps in registers", "row update alone, gaps as packed parameters",
                               "ahead, packed best test, gaps as packed parameters"};

template <int Cols, int V>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes) step_probe(const std::uint8_t* q, int m,
                                                                     const std::uint8_t* t, int steps,
                                                                     unsigned long long* cycles, int* sink,
                                                                     const int* stop_flag, int open_extend,
                                                                     int extend, unsigned oe_param,
                                                                     unsigned ext_param) {
  constexpr int kHalf = kLanes * Cols, kWidth = 2 * kHalf, kRows = 4;
  extern __shared__ __align__(16) unsigned profile_all[];
  const int lane = static_cast<int>(threadIdx.x) & (kLanes - 1), warp = static_cast<int>(threadIdx.x) / kLanes;
  unsigned* profile = profile_all + warp * kRows * (kWidth / 4);
  for (int a = 0; a < kRows; ++a)
    for (int half = 0; half < 2; ++half)
      for (int w = 0; w < Cols / 4; ++w) {
        unsigned word = 0;
        for (int b = 0; b < 4; ++b) {
          const int j = half * kHalf + lane * Cols + 4 * w + b;
          const int score = t[j] == a ? 2 : -3;
          word |= (static_cast<unsigned>(score) & 0xffu) << (8 * b);
        }
        profile[profile_word<Cols>(a, half, w, lane)] = word;
      }
  __syncwarp();
  constexpr bool kRowAlone = V == kRowOnly || V == kRowOnlyRegisterGaps || V == kRowOnlyParamGaps;
  constexpr bool kParamGaps = V == kRowOnlyParamGaps || V == kAheadPackedParamGaps;
  constexpr bool kRegisterGaps = (V >= kRuntimeGaps && !kParamGaps);
  constexpr bool kAhead =
      V == kPrefetch || V == kPrefetchCheapBest || V == kRegisterProfileAhead || V == kAheadPackedParamGaps;
  constexpr bool kPackedTest = V >= kPrefetchCheapBest && !kRowAlone;
  constexpr bool kInRegisters = V == kRegisterProfile || V == kRegisterProfileAhead;
  // kInRegisters: a register a column and half, the column's scores
  // against query letters 0..3, a byte each; one prmt a register a step.
  unsigned reg_profile[kInRegisters ? 2 * Cols : 1];
  if constexpr (kInRegisters) {
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
      for (int c = 0; c < Cols; ++c) {
        const int j = half * kHalf + lane * Cols + c;
        unsigned word = 0;
        for (int a = 0; a < 4; ++a) word |= (static_cast<unsigned>(t[j] == a ? 2 : -3) & 0xffu) << (8 * a);
        reg_profile[half * Cols + c] = word;
      }
  }
  const unsigned minus_oe = kParamGaps ? oe_param : kRegisterGaps ? pair(-open_extend, -open_extend) : pair(-7, -7);
  const unsigned minus_ext = kParamGaps ? ext_param : kRegisterGaps ? pair(-extend, -extend) : pair(-2, -2);
  unsigned hp[Cols], fs[Cols], sc_fixed[Cols];
#pragma unroll
  for (int c = 0; c < Cols; ++c) hp[c] = 0, fs[c] = 0;
  load_pairs<Cols>(profile + profile_word<Cols>(lane & 3, 0, 0, lane), profile + profile_word<Cols>(1, 1, 0, lane),
                   sc_fixed);
  unsigned diag = 0, hr = 0, er = 0, letter = 0;
  int in_h = 0, in_e = 0, out_h = 0, out_e = 0;
  int best_a = 0, best_ai = 0, best_aj = 0, best_b = 0, best_bi = 0, best_bj = 0;
  int q_now = 0, q_next = q[lane];
  unsigned ahead_a[Cols / 4], ahead_b[Cols / 4];  // kAhead: this step's profile words, loaded a step before
  unsigned best_pair = 0, selector_now = 0xC480u;
#pragma unroll
  for (int w = 0; w < Cols / 4; ++w) ahead_a[w] = profile[profile_word<Cols>(0, 0, w, lane)], ahead_b[w] = ahead_a[w];
  const long long t0 = clock64();
  for (int step = 0; step < steps; ++step) {
    const int k = step & (kBatch - 1);
    if ((step & (kLanes - 1)) == 0) {
      q_now = q_next;
      q_next = __ldg(q + (step + kLanes + lane) % m);
    }
    if (k == 0) in_h = (lane * 7 + step) & 15, in_e = in_h;  // stands in for the left edge's batch
    if ((step & 255) == 0) {
      int stop = 0;
      if (lane == 0) stop = *reinterpret_cast<const volatile int*>(stop_flag);
      if (__shfl_sync(kFull, stop, 0)) break;
    }
    const unsigned h31 = __shfl_sync(kFull, hr, kLanes - 1), e31 = __shfl_sync(kFull, er, kLanes - 1);
    unsigned letter31 = 0;
    if constexpr (!kAhead) letter31 = __shfl_sync(kFull, letter, kLanes - 1);
    unsigned hl = __shfl_up_sync(kFull, hr, 1), el = __shfl_up_sync(kFull, er, 1);
    if constexpr (!kAhead) letter = __shfl_up_sync(kFull, letter, 1);
    const int bh = __shfl_sync(kFull, in_h, k), be = __shfl_sync(kFull, in_e, k);
    const int bl = __shfl_sync(kFull, q_now, step & (kLanes - 1));
    if (lane == 0) {
      hl = pair(bh, low(h31));
      el = pair(max(be, bh), low(e31));
      if constexpr (!kAhead) letter = pair(bl, static_cast<int>(letter31 & 0xffffu));
    }
    unsigned sc[Cols];
    if constexpr (kAhead && kInRegisters) {
      // The selector was made a step ago; make the next step's now.
#pragma unroll
      for (int c = 0; c < Cols; ++c)
        asm("prmt.b32 %0, %1, %2, %3;" : "=r"(sc[c]) : "r"(reg_profile[c]), "r"(reg_profile[Cols + c]), "r"(selector_now));
      const int i_next = (step + 1) & (kLanes - 1);
      const int bl_next = __shfl_sync(kFull, i_next == 0 ? q_next : q_now, i_next);
      unsigned next = __shfl_up_sync(kFull, letter, 1);
      const unsigned l31 = __shfl_sync(kFull, letter, kLanes - 1);
      if (lane == 0) next = pair(bl_next, static_cast<int>(l31 & 0xffffu));
      selector_now = 0xC480u + (next & 0xffffu) * 0x11u + (next >> 16) * 0x1100u;
      letter = next;
    } else if constexpr (kAhead) {
      // This step's words came a step ago; the next step's letters are
      // known now (each lane takes its left neighbour's), so load them.
#pragma unroll
      for (int w = 0; w < Cols / 4; ++w) {
        sc[4 * w] = pack_scores<0xC480>(ahead_a[w], ahead_b[w]);
        sc[4 * w + 1] = pack_scores<0xD591>(ahead_a[w], ahead_b[w]);
        sc[4 * w + 2] = pack_scores<0xE6A2>(ahead_a[w], ahead_b[w]);
        sc[4 * w + 3] = pack_scores<0xF7B3>(ahead_a[w], ahead_b[w]);
      }
      const int i_next = (step + 1) & (kLanes - 1);
      const int bl_next = __shfl_sync(kFull, i_next == 0 ? q_next : q_now, i_next);
      unsigned next = __shfl_up_sync(kFull, letter, 1);
      const unsigned l31 = __shfl_sync(kFull, letter, kLanes - 1);
      if (lane == 0) next = pair(bl_next, static_cast<int>(l31 & 0xffffu));
      const unsigned* a = profile + profile_word<Cols>(static_cast<int>(next & 0xffffu), 0, 0, lane);
      const unsigned* b = profile + profile_word<Cols>(static_cast<int>(next >> 16), 1, 0, lane);
#pragma unroll
      for (int w = 0; w < Cols / 4; ++w) ahead_a[w] = a[w * kLanes], ahead_b[w] = b[w * kLanes];
      letter = next;
    } else if constexpr (kInRegisters) {
      const unsigned selector = 0xC480u + (letter & 0xffffu) * 0x11u + (letter >> 16) * 0x1100u;
#pragma unroll
      for (int c = 0; c < Cols; ++c)
        asm("prmt.b32 %0, %1, %2, %3;" : "=r"(sc[c]) : "r"(reg_profile[c]), "r"(reg_profile[Cols + c]), "r"(selector));
    } else if constexpr (V == kNoProfile || kRowAlone) {
#pragma unroll
      for (int c = 0; c < Cols; ++c) sc[c] = sc_fixed[c];
    } else {
      load_pairs<Cols>(profile + profile_word<Cols>(static_cast<int>(letter & 0xffffu), 0, 0, lane),
                       profile + profile_word<Cols>(static_cast<int>(letter >> 16), 1, 0, lane), sc);
    }
    unsigned es = el;
    lane_row16(hp, fs, sc, es, diag, minus_oe, minus_ext);
    diag = hl;
    hr = hp[Cols - 1];
    er = es;
    // A better cell in the row: its row and first column, as the kernel
    // keeps them.
    auto note_better = [&](int max_a, int max_b) {
      const int ia = step - lane + 1, ib = ia - kLanes;
      if (max_a > best_a) {
        best_a = max_a, best_ai = ia;
#pragma unroll
        for (int c = Cols - 1; c >= 0; --c)
          if (low(hp[c]) == max_a) best_aj = c + 1;
      }
      if (max_b > best_b) {
        best_b = max_b, best_bi = ib;
#pragma unroll
        for (int c = Cols - 1; c >= 0; --c)
          if (high(hp[c]) == max_b) best_bj = c + 1;
      }
    };
    if constexpr (kPackedTest) {
      // One packed maximum against the best pair: a lane's halves need a
      // closer look only when it grew.
      unsigned row_max = __vimax3_s16x2(hp[0], hp[1], hp[2]);
#pragma unroll
      for (int c = 3; c + 1 < Cols; c += 2) row_max = __vimax3_s16x2(row_max, hp[c], hp[c + 1]);
      row_max = __vimax3_s16x2(row_max, hp[Cols - 1], best_pair);
      if (__any_sync(kFull, row_max != best_pair)) {
        note_better(low(row_max), high(row_max));
        best_pair = row_max;
      }
    } else if constexpr (V == kWhole || V == kNoProfile || V == kRuntimeGaps || V == kPrefetch) {
      unsigned row_max = __vimax3_s16x2(hp[0], hp[1], hp[2]);
#pragma unroll
      for (int c = 3; c + 1 < Cols; c += 2) row_max = __vimax3_s16x2(row_max, hp[c], hp[c + 1]);
      row_max = __vimax_s16x2_relu(row_max, hp[Cols - 1]);
      const int max_a = low(row_max), max_b = high(row_max);
      if (__any_sync(kFull, max_a > best_a || max_b > best_b)) note_better(max_a, max_b);
    }
    if constexpr (!kRowAlone) {
      const int oh = high(__shfl_sync(kFull, hr, kLanes - 1)), oe = high(__shfl_sync(kFull, er, kLanes - 1));
      if (lane == ((k + 1) & (kBatch - 1))) out_h = oh, out_e = oe;
    }
  }
  const long long t1 = clock64();
  int x = best_a + best_ai + best_aj + best_b + best_bi + best_bj + out_h + out_e;
#pragma unroll
  for (int c = 0; c < Cols; ++c) x += static_cast<int>(hp[c] ^ fs[c]);
  if (x == 0x12345678) sink[0] = x;
  if (lane == 0) cycles[blockIdx.x * kWarpsPerBlock + warp] = static_cast<unsigned long long>(t1 - t0);
}

template <int Cols, int V>
void run(const cudaDeviceProp& prop, int clock_khz, const std::uint8_t* q, int m, const std::uint8_t* t,
         unsigned long long* cycles, int* sink, const int* stop) {
  constexpr int kWidth = 2 * kLanes * Cols, kRows = 4;
  const int shared = kWarpsPerBlock * kRows * kWidth;  // a byte a cell
  auto kernel = step_probe<Cols, V>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);
  const int steps = 20000;
  for (int per_scheduler = 1; per_scheduler <= 4; ++per_scheduler) {
    const int blocks = prop.multiProcessorCount * per_scheduler;  // a block: one warp on each scheduler
    kernel<<<blocks, kWarpsPerBlock * kLanes, shared>>>(q, m, t, 256, cycles, sink, stop, 7, 2, 0xfff9fff9u, 0xfffefffeu);  // warm-up
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    kernel<<<blocks, kWarpsPerBlock * kLanes, shared>>>(q, m, t, steps, cycles, sink, stop, 7, 2, 0xfff9fff9u, 0xfffefffeu);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    const int warps = blocks * kWarpsPerBlock;
    std::vector<unsigned long long> c(static_cast<std::size_t>(warps));
    cudaMemcpy(c.data(), cycles, c.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    double mean = 0;
    for (auto v : c) mean += static_cast<double>(v);
    mean /= warps;
    const double cells = double(warps) * steps * kWidth;
    const double gcups = cells / (ms / 1e3) / 1e9;
    const double per_scheduler_step = mean / steps / per_scheduler;
    std::printf("| %d | %s | %d | %.0f | %.0f | %.0f |\n", Cols, kVariantNames[V], per_scheduler, mean / steps,
                per_scheduler_step, gcups);
  }
  (void)clock_khz;
}
}  // namespace probe

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  const int m = 4096, width = 2 * 32 * 32;
  std::vector<std::uint8_t> hq(m), ht(width);
  unsigned x = 12345;
  for (auto& v : hq) v = static_cast<std::uint8_t>((x = x * 1103515245u + 12345u) >> 28 & 3);
  for (auto& v : ht) v = static_cast<std::uint8_t>((x = x * 1103515245u + 12345u) >> 28 & 3);
  std::uint8_t *q = nullptr, *t = nullptr;
  unsigned long long* cycles = nullptr;
  int *sink = nullptr, *stop = nullptr;
  cudaMalloc(&q, m);
  cudaMalloc(&t, width);
  cudaMalloc(&cycles, sizeof(unsigned long long) * 132 * 4 * 4 * 2);
  cudaMalloc(&sink, sizeof(int));
  cudaMalloc(&stop, sizeof(int));
  cudaMemset(stop, 0, sizeof(int));
  cudaMemcpy(q, hq.data(), m, cudaMemcpyHostToDevice);
  cudaMemcpy(t, ht.data(), width, cudaMemcpyHostToDevice);
  std::printf("%s, %d SMs, %.0f MHz\n\n", prop.name, prop.multiProcessorCount, clock_khz / 1e3);
  std::printf("| columns a lane | variant | warps a scheduler | cycles a step (a warp) | cycles a step (a scheduler) | GCUPS |\n");
  std::printf("|---|---|---|---|---|---|\n");
  using namespace probe;
  run<32, kWhole>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kNoBest>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kNoProfile>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRowOnly>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRowOnlyRegisterGaps>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRowOnlyParamGaps>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRuntimeGaps>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kPrefetch>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kPackedBest>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kPrefetchCheapBest>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kAheadPackedParamGaps>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRegisterProfile>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<32, kRegisterProfileAhead>(prop, clock_khz, q, m, t, cycles, sink, stop);
  run<16, kWhole>(prop, clock_khz, q, m, t, cycles, sink, stop);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "sw16_step_probe: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
