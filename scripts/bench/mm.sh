#!/usr/bin/env bash
# gpu-mm on the GPU (issue 4): the classical kernel, cuBLAS, and Strassen
# and Winograd on either base, f32 plus-times at n = 4096, 8192 and 16384,
# all in one run with cuBLAS; float64 errors by cuBLAS DGEMM (--check).
# Then the tropical products (max-plus, i32 and f32) and f64 plus-times.
# Times are device times, fastest of --repeat 3. Prints TSV blocks for
# bench/RESULTS.md. Usage: scripts/bench/mm.sh [build-dir] [sizes...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
sizes=${*:-4096 8192 16384}
[ -x "$build/gpu-mm" ] || { echo "mm: $build/gpu-mm missing: build first" >&2; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader || true
mm() { "$build/gpu-mm" -q --format tsv --repeat 3 "$@" | grep -v '^#' || true; }
echo "#algorithm	type	semiring	m	k	n	batch	levels	ms	gops	vs_cublas	max_error	avg_error"
for n in $sizes; do
  for levels in 1 2; do
    mm --n "$n" --type f32 --algo all --levels "$levels" --check
  done
done
for n in $sizes; do
  check=$([ "$n" -le 4096 ] && echo --check || true)  # the exact check runs on the CPU
  mm --n "$n" --type i32 --semiring max-plus --algo classic $check
  mm --n "$n" --type f32 --semiring max-plus --algo classic $check
  mm --n "$n" --type i32 --semiring plus-times --algo classic $check
done
for n in 4096 8192; do
  mm --n "$n" --type f64 --algo all --levels 1 --check
done
mm --n 512 --batch 50 --type i32 --semiring max-plus --algo classic --check
