#pragma once
// What the align3 engine's CPU paths keep in memory (src/align3/cpu), to
// refuse inputs that cannot fit before the engine starts.
#include <cstdint>

namespace gdp::app {

// Bytes the engine takes for sequences of m, n and p letters (a, b, c):
//   the score on several threads (cpu/wavefront.cpp): 4 planes of
//     (m+1)(n+1) ints, and the last layer, (n+1)(p+1) ints;
//   the score on one thread (cpu/oracle.cpp): 2 planes of (n+1)(p+1) ints;
//   an alignment (cpu/linear_space.cpp, on any number of threads): the
//     backward half's 4 planes of (m-m/2+1)(n+1) ints and two last layers.
// Alignments small enough for the full cube take at most 64 MiB there.
double align3_bytes(std::int64_t m, std::int64_t n, std::int64_t p, bool score_only, bool threaded);

// RunError naming the sizes, the bytes needed and available, and what would
// fit, when align3_bytes exceeds `available` (0: unknown, no check).
void check_align3_memory(std::int64_t m, std::int64_t n, std::int64_t p, bool score_only, bool threaded,
                         std::uint64_t available);

}  // namespace gdp::app
