#!/usr/bin/env bash
# The three-sequence cell's ceiling (scripts/bench/align3_cell_probe.cu),
# register-only. Prints a Markdown table. Usage: scripts/bench/align3-cell-probe.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch=sm_90 -std=c++20 -Isrc -o "$work/align3_cell_probe" scripts/bench/align3_cell_probe.cu
"$work/align3_cell_probe"
