#!/usr/bin/env bash
# gpu-sw on the GPU against the CPU path (all cores) and parasail, in one run
# (issue 3). Score-only, local, DNA: 1e4 x 1e6, 1e5 x 1e6, 1e5 x 1e7; full
# alignment: 20,860 x 29,120 (the dissertation's pair size) and 1e5 x 1e5.
# The CPU and parasail run on the smaller inputs only (minutes otherwise);
# their rates scale linearly with the cells. GPU kernel time and the
# engine's peak device memory come from the timing report (--report).
# Prints Markdown tables for bench/RESULTS.md.
# Usage: scripts/bench/sw-gpu.sh [build-dir] [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
quick=${2:-}
threads=${THREADS:-$(nproc)}
[ -x "$build/gpu-sw" ] || { echo "sw-gpu: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
gen=scripts/bench/make_fasta.py
make() {  # file kind args...
  [ -s "$work/$1" ] || "$gen" "${@:2}" > "$work/$1"
}
make q1e4.fa random --alphabet dna --length 10000 --seed 41 --name q1e4
make q1e5.fa random --alphabet dna --length 100000 --seed 42 --name q1e5
make t1e6.fa random --alphabet dna --length 1000000 --seed 43 --name t1e6
[ -n "$quick" ] || make t1e7.fa random --alphabet dna --length 10000000 --seed 44 --name t1e7
make a20k.fa random --alphabet dna --length 20860 --seed 45 --name a20k
if [ ! -s "$work/b29k.fa" ]; then  # the mutated pair, padded to 29,120 letters
  "$gen" mutate --input "$work/a20k.fa" --rate 0.1 --seed 46 --name b29k > "$work/b29k.fa"
  "$gen" random --alphabet dna --length 8260 --seed 47 --name pad | grep -v '>' >> "$work/b29k.fa"
fi
make a1e5.fa random --alphabet dna --length 100000 --seed 48 --name a1e5
make b1e5.fa mutate --input "$work/a1e5.fa" --rate 0.1 --seed 49 --name b1e5

calc() { awk "BEGIN { print $* }"; }
len() { grep -v '>' "$1" | tr -d '\n' | wc -c; }
phase() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}'; }
gpu_field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1 || true; }
scoring="--match 2 --mismatch -3 --gap-open 5 --gap-extend 2"

echo "| input | cells | run | score | end (query, target) | wall s | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) | kernel vs int32 ceiling 3.08T | vs 16-bit ceiling 5.29T | 16-bit reruns | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
row() {  # name q t label extra-flags...
  local name=$1 q=$2 t=$3 label=$4; shift 4
  local cells t0 t1 out compute kernel mem mib reruns
  cells=$(calc "$(len "$q") * $(len "$t")")
  t0=$(date +%s.%N)
  "$build/gpu-sw" ${ROW_TUNE:-} -q --strand plus --score-only --format tsv --report "$work/r.json" $scoring "$@" "$q" "$t" -o "$work/out.tsv"
  t1=$(date +%s.%N)
  out=$(awk 'NR==2{print $3, "(" $5 ", " $7 ")"}' "$work/out.tsv")
  compute=$(phase "$work/r.json" compute)
  kernel=$(gpu_field "$work/r.json" kernel_seconds); kernel=${kernel:-0}
  mem=$(gpu_field "$work/r.json" peak_memory_bytes)
  mib=$(calc "${mem:-0} / 1048576")
  reruns=$(gpu_field "$work/r.json" overflow_reruns)
  if [ "$kernel" = 0 ]; then
    printf "| %s | %.2e | %s | %s | %s | %.2f | %.3f | - | %.1f | - | - | - | - | - |\n" "$name" "$cells" "$label" "${out%% *}" \
      "${out#* }" "$(calc "$t1 - $t0")" "$compute" "$(calc "$cells / $compute / 1e9")"
  else
    printf "| %s | %.2e | %s | %s | %s | %.2f | %.3f | %.3f | %.1f | %.1f | %.3f | %.3f | %s | %.0f |\n" "$name" "$cells" "$label" \
      "${out%% *}" "${out#* }" "$(calc "$t1 - $t0")" "$compute" "$kernel" "$(calc "$cells / $compute / 1e9")" \
      "$(calc "$cells / $kernel / 1e9")" "$(calc "$cells / $kernel / 3.08e12")" "$(calc "$cells / $kernel / 5.29e12")" \
      "${reruns:-0}" "$mib"
  fi
}
row "1e4 x 1e6" "$work/q1e4.fa" "$work/t1e6.fa" "GPU"
row "1e4 x 1e6" "$work/q1e4.fa" "$work/t1e6.fa" "CPU $threads threads" --cpu --threads "$threads"
row "1e5 x 1e6" "$work/q1e5.fa" "$work/t1e6.fa" "GPU"
[ -n "$quick" ] || row "1e5 x 1e7" "$work/q1e5.fa" "$work/t1e7.fa" "GPU"
# Each kernel's widths: 8, 16 or (16-bit only) 32 or 64 columns a lane
# (32 x that a warp's strip, twice that in 16 bits); the default above is
# one of the two 16-bit kernels, diagonal or rows, chosen by the shape.
for kernel in diagonal rows; do
  for cols in 8 16 32 64; do
    tune="--tune kernel16=$kernel --tune lane_columns=$cols"
    ROW_TUNE=$tune row "1e4 x 1e6" "$work/q1e4.fa" "$work/t1e6.fa" "GPU, 16-bit $kernel, $cols columns a lane"
    ROW_TUNE=$tune row "1e5 x 1e6" "$work/q1e5.fa" "$work/t1e6.fa" "GPU, 16-bit $kernel, $cols columns a lane"
    [ -n "$quick" ] || ROW_TUNE=$tune row "1e5 x 1e7" "$work/q1e5.fa" "$work/t1e7.fa" "GPU, 16-bit $kernel, $cols columns a lane"
  done
done
for cols in 8 16; do
  ROW_TUNE="--tune bits=32 --tune lane_columns=$cols" row "1e5 x 1e6" "$work/q1e5.fa" "$work/t1e6.fa" "GPU, 32-bit, $cols columns a lane"
  [ -n "$quick" ] || ROW_TUNE="--tune bits=32 --tune lane_columns=$cols" row "1e5 x 1e7" "$work/q1e5.fa" "$work/t1e7.fa" "GPU, 32-bit, $cols columns a lane"
done
# Past the 16-bit range (score 139,700): the 16-bit pass stops being exact
# and the pass is run again in 32 bits; the same pair forced to 32 bits.
ROW_TUNE="--tune bits=32" row "1e5 x 1e5" "$work/a1e5.fa" "$work/b1e5.fa" "GPU, 32-bit only"
row "1e5 x 1e5" "$work/a1e5.fa" "$work/b1e5.fa" "GPU"
row "20,860 x 29,120" "$work/a20k.fa" "$work/b29k.fa" "GPU"
if command -v parasail_aligner >/dev/null; then
  cells=$(calc "$(len "$work/q1e4.fa") * $(len "$work/t1e6.fa")")
  t0=$(date +%s.%N)
  (cd "$work" && parasail_aligner -a sw_striped_32 -x -t 1 -d -M 2 -X 3 -o 7 -e 2 -f t1e6.fa -q q1e4.fa -g p.csv 0<&- >/dev/null 2>&1)
  t1=$(date +%s.%N)
  printf "| 1e4 x 1e6 | %.2e | parasail sw_striped_32, 1 thread | %s | - | %.2f | - | - | %.1f (wall) | - | - | - | - | - |\n" "$cells" \
    "$(cut -d, -f5 "$work/p.csv")" "$(calc "$t1 - $t0")" "$(calc "$cells / ($t1 - $t0) / 1e9")"
fi

echo
echo "| alignment | cells | run | score | wall s | compute s | score-only compute s | ratio | GPU passes | kernel s | of which traceback s | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
align() {  # name q t label flags...
  local name=$1 q=$2 t=$3 label=$4; shift 4
  local cells t0 t1 score_s compute passes kernel traceback mem
  cells=$(calc "$(len "$q") * $(len "$t")")
  "$build/gpu-sw" -q --strand plus --score-only --format tsv --report "$work/s.json" $scoring "$@" "$q" "$t" >/dev/null
  score_s=$(phase "$work/s.json" compute)
  t0=$(date +%s.%N)
  "$build/gpu-sw" -q --strand plus --format tsv --report "$work/a.json" $scoring "$@" "$q" "$t" -o "$work/aln.tsv"
  t1=$(date +%s.%N)
  compute=$(phase "$work/a.json" compute)
  passes=$(gpu_field "$work/a.json" passes)
  kernel=$(gpu_field "$work/a.json" kernel_seconds)
  traceback=$(gpu_field "$work/a.json" traceback_kernel_seconds)
  mem=$(gpu_field "$work/a.json" peak_memory_bytes)
  printf "| %s | %.2e | %s | %s | %.2f | %.3f | %.3f | %.2f | %s | %s | %s | %.0f |\n" "$name" "$cells" "$label" \
    "$(awk 'NR==2{print $3}' "$work/aln.tsv")" "$(calc "$t1 - $t0")" "$compute" "$score_s" "$(calc "$compute / $score_s")" \
    "${passes:--}" "${kernel:--}" "${traceback:--}" "$(calc "${mem:-0} / 1048576")"
}
align "20,860 x 29,120" "$work/a20k.fa" "$work/b29k.fa" "GPU"
align "20,860 x 29,120" "$work/a20k.fa" "$work/b29k.fa" "CPU $threads threads" --cpu --threads "$threads"
align "1e5 x 1e5" "$work/a1e5.fa" "$work/b1e5.fa" "GPU"
