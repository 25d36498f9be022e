#!/usr/bin/env bash
# The throughput of Hopper's DPX instructions and a few plain ones, one at a
# time, register-only (scripts/bench/dpx_probe.cu): what the Smith-Waterman
# and max-plus kernels' instructions can issue at. Prints a Markdown table.
# Usage: scripts/bench/dpx-probe.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch=sm_90 -std=c++20 -o "$work/dpx_probe" scripts/bench/dpx_probe.cu
"$work/dpx_probe"
