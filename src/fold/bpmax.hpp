#pragma once
// gpu-fold --interact: the joint structure of two RNAs by BPMax
// (bpmax_recurrence.hpp). The only header an app includes for it.
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fold/bpmax_recurrence.hpp"

namespace gdp {
class Progress;
}

namespace gdp::fold {

// The pair weights as given (GC, AU, GU, at most two decimals each) in the
// smallest unit that makes them whole: 3, 1, 1.5 are 6, 2, 3 halves.
struct InteractionWeights {
  PairWeights pairs;
  int unit = 2;  // scores are in 1/unit
};
// "GC,AU,GU", e.g. "3,1,1.5"; InputError for anything else, a negative
// weight or more than two decimals.
InteractionWeights parse_interaction_weights(std::string_view text);
// A score in the weights' unit as a decimal: 105 halves are "52.5".
std::string format_score(long long score, int unit);

// --window W1,W2 (BPMaxW): F only on intervals of strand 1 with
// j1 - i1 <= W1 and of strand 2 with j2 - i2 <= W2, so that long RNAs fit.
// The score is then the best F of any two such intervals (the best binding
// site of at most W1 + 1 and W2 + 1 bases), the structure traced from the
// first pair of longest intervals that reaches it (every engine the same
// way), its positions on the whole strands. Without a window: F(0, m-1,
// 0, n-1), both strands whole.
struct InteractionWindow {
  static constexpr long long kWhole = LLONG_MAX;
  long long span1 = kWhole, span2 = kWhole;
  bool whole() const { return span1 == kWhole && span2 == kWhole; }
};
// "W1,W2", two whole numbers; InputError for anything else.
InteractionWindow parse_interaction_window(std::string_view text);
// The intervals of a strand of n bases with j - i <= span.
double window_intervals(long long n, long long span);

enum class PairKind { inter, intra1, intra2 };

// A pair of the joint structure: 0-based positions, each on its own strand
// in its 5' to 3' order (i < j within a strand; for `inter`, i on strand 1
// and j on strand 2).
struct BasePair {
  int i = 0, j = 0;
  PairKind kind = PairKind::inter;
  bool operator==(const BasePair&) const = default;
};

struct Interaction {
  long long score = 0;           // in the weights' unit
  std::vector<BasePair> pairs;   // strand 1's first, by position
  std::string structure;         // dot-bracket: '(' ')' within a strand, '[' on strand 1 with ']' on strand 2, '&' between
};

// The bytes of the CPU engines' tables for strands of m and n bases: the
// oracle's m^2 n^2 cells, the products' (m (m + 1) / 2) n^2 without a
// window, about m W1 n W2 with one.
double interaction_bytes(long long m, long long n, bool oracle, const InteractionWindow& window = {});

// An optimal joint structure of `s1` and `s2` (upper case A, C, G, U, N)
// and its score by the CPU oracle: every F(i1, j1, i2, j2) in a dense
// table, O(m^3 n^3) time. InputError for an empty strand or another letter.
Interaction interact_oracle(std::string_view s1, std::string_view s2, const PairWeights& weights,
                            const InteractionWindow& window = {});

// The same by the products' form on `threads` threads (cpu/bpmax_products.cpp),
// the shorter strand first (the model is symmetric; bpmax_tables.hpp,
// shorter_strand_first): the oracle's score, and its structure where
// strand 1 is not the longer one.
// Its fill's progress, if set, is counted into `progress` as a part of
// `share` units (interact_gpu's too).
Interaction interact_products(std::string_view s1, std::string_view s2, const PairWeights& weights, int threads,
                              const InteractionWindow& window = {}, Progress* progress = nullptr, std::uint64_t share = 0);

// The device memory the GPU engine needs for strands of m and n bases:
// for each interval of the shorter strand, a matrix of the longer strand's
// length padded to 128, its rows 128 x 128 blocks of the band the window
// leaves (all of them without one), in int32.
double interaction_gpu_bytes(long long m, long long n, const InteractionWindow& window = {});

// Where the GPU engine's time went.
struct InteractionTiming {
  double fill_seconds = 0;     // the tables, device time, of which:
  double product_seconds = 0;  //   the max-plus products of 128 x 128 blocks
  double finish_seconds = 0;   //   the blocks' anti-diagonals
  double product_terms = 0;    // the max-plus terms the products computed
  double trace_seconds = 0;  // the traceback, with the tiles it copied
  double total_seconds = 0;  // all of it, the host's S tables and transfers included
  long long traced_tiles = 0;  // 128 x 128 tiles of F the traceback copied
};

// The same by the GPU engine (cuda/bpmax_gpu.cu) on CUDA device `device`:
// the products' score and structure. InputError when the tables do not
// fit in the device's free memory; RunError when CUDA fails. Declared but
// not defined without CUDA (callers test gdp::have_cuda).
Interaction interact_gpu(std::string_view s1, std::string_view s2, const PairWeights& weights, int device,
                         InteractionTiming* timing = nullptr, const InteractionWindow& window = {},
                         Progress* progress = nullptr, std::uint64_t share = 0);

// The weights of a structure's pairs, summed; std::logic_error where a
// pair is not one the model makes (a weight of 0, a hairpin of fewer than
// 4 bases' span, a base in two pairs, crossing pairs).
long long structure_weight(std::string_view s1, std::string_view s2, const std::vector<BasePair>& pairs,
                           const PairWeights& weights);

}  // namespace gdp::fold
