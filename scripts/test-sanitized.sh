#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer and UndefinedBehaviorSanitizer:
# a second build (build-asan/, the CPU paths only: no CUDA;
# scripts/build-sanitized.sh) whose first report fails the run. .ci/run
# calls it after scripts/test.sh. The fuzz targets' corpora (fuzz/corpus)
# are replayed among the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-asan}
BUILD_DIR=$build_dir scripts/build-sanitized.sh
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
