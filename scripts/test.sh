#!/usr/bin/env bash
# Set-up, build, and run the whole test suite (ctest).
# Tests tagged [gpu] report themselves skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
