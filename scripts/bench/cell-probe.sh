#!/usr/bin/env bash
# The 32-bit cell ceilings (scripts/bench/cell_probe.cu): cells a second of
# the affine and the syntenic cell policies' row update, register-only.
# Prints a Markdown table. Usage: scripts/bench/cell-probe.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch=sm_90 -std=c++20 -Isrc -o "$work/cell_probe" scripts/bench/cell_probe.cu
"$work/cell_probe"
