#!/usr/bin/env bash
# The CPU build under AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/, no CUDA), for scripts/test-sanitized.sh and scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-asan}
# Without UBSan's `bounds` (AddressSanitizer checks the same accesses): GCC 12
# miscompiles `mask |= (a == b ? 1u : 0u) << c` in a loop under shift and
# bounds checks together, the mask coming out 0 (a test then fails with no
# report). -Wno-maybe-uninitialized, -Wno-restrict: GCC 12's false alarms in
# <regex> and <string> under the sanitizers.
flags="-fsanitize=address,undefined -fno-sanitize=bounds -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUDP_CUDA=OFF \
  -DCMAKE_CXX_FLAGS="$flags -Wno-maybe-uninitialized -Wno-restrict" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}"
