#pragma once
// A strip's target profile: the substitution scores of each query letter
// against the strip's columns, in shared memory, read a lane's row of
// columns at a time.
#include <type_traits>

#include "pairwise/strip_plan.hpp"

namespace gdp::pairwise::striped {

// The profile's element: 16 bits a score with 8 columns a lane, 8 bits with
// 16 (scores within +-127 only), so that both read 16 bytes a row and the
// wider kernel's profile leaves room for more warps.
template <int Cols>
using ProfileScore = std::conditional_t<Cols == 16, signed char, short>;

// PTX prmt with sign replication (a selector nibble with its top bit set
// copies the sign of the byte it names); __byte_perm drops that bit.
template <unsigned Selector>
__device__ __forceinline__ int sign_extend(unsigned word) {
  unsigned r;
  asm("prmt.b32 %0, %1, 0, %2;" : "=r"(r) : "r"(word), "n"(Selector));
  return static_cast<int>(r);
}

// A lane's Cols scores of one row, 16 bytes, sign-extended.
template <int Cols>
__device__ __forceinline__ void load_scores(const ProfileScore<Cols>* from, int (&sc)[Cols]) {
  const uint4 w = *reinterpret_cast<const uint4*>(from);
  const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if constexpr (Cols == 16) {
      sc[4 * k] = sign_extend<0x8880>(words[k]);
      sc[4 * k + 1] = sign_extend<0x9991>(words[k]);
      sc[4 * k + 2] = sign_extend<0xAAA2>(words[k]);
      sc[4 * k + 3] = sign_extend<0xBBB3>(words[k]);
    } else {
      sc[2 * k] = sign_extend<0x9910>(words[k]);
      sc[2 * k + 1] = sign_extend<0xBB32>(words[k]);
    }
  }
}

}  // namespace gdp::pairwise::striped
