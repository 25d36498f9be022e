#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer and UndefinedBehaviorSanitizer:
# a second build (build-asan/, the CPU paths only: no CUDA) whose first
# report fails the run. .ci/run calls it after scripts/test.sh.
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
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
