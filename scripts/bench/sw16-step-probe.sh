#!/usr/bin/env bash
# The 16-bit gpu-sw kernel's step alone, in warps that never wait for a
# neighbour (scripts/bench/sw16_step_probe.cu), 1 to 4 warps a scheduler,
# in variants: what the step's code costs by itself, apart from the
# waiting between strips. Prints a Markdown table. Needs nvcc and a GPU.
# Usage: scripts/bench/sw16-step-probe.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch=sm_90 -std=c++20 -Isrc -o "$work/sw16_step_probe" scripts/bench/sw16_step_probe.cu
"$work/sw16_step_probe"
