#!/usr/bin/env bash
# gpu-syntenic (issue 16) in one run: the GPU score pass (the strip engine
# with the syntenic cell) on 1e5 x 1e6 and 1e5 x 1e7 random DNA, at each of
# its lane widths; a pair of 220 kbp homologous regions with unrelated
# stretches and one of 1e5 (score, then the full alignment, end to end),
# and a 1e6 region against a mutated copy, aligned (too large for the
# chunked traceback: the linear-space alignment);
# and the CPU's
# OpenMP pass against the oracle's single thread on the same 2e4 x 2e5
# pair. Kernel time and peak device memory come from the timing report.
# Prints Markdown tables for bench/RESULTS.md.
# Usage: scripts/bench/syntenic.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
threads=${THREADS:-$(nproc)}
[ -x "$build/gpu-syntenic" ] || { echo "syntenic: $build/gpu-syntenic missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
gen=scripts/bench/make_fasta.py
make() {  # file kind args...
  [ -s "$work/$1" ] || "$gen" "${@:2}" > "$work/$1"
}
make q1e5.fa random --alphabet dna --length 100000 --seed 42 --name q1e5
make t1e6.fa random --alphabet dna --length 1000000 --seed 43 --name t1e6
make t1e7.fa random --alphabet dna --length 10000000 --seed 44 --name t1e7
make q2e4.fa random --alphabet dna --length 20000 --seed 51 --name q2e4
make t2e5.fa random --alphabet dna --length 200000 --seed 52 --name t2e5
make r220a.fa random --alphabet dna --length 220000 --seed 53 --name region_a
make h1e5a.fa random --alphabet dna --length 100000 --seed 55 --name h1e5a
make h1e5b.fa mutate --input "$work/h1e5a.fa" --rate 0.05 --blocks 10 --block-length 2000 --seed 56 --name h1e5b
make r1e6a.fa random --alphabet dna --length 1000000 --seed 93 --name region
make r1e6b.fa mutate --input "$work/r1e6a.fa" --rate 0.05 --blocks 20 --block-length 5000 --seed 94 --name copy
make r220b.fa mutate --input "$work/r220a.fa" --rate 0.05 --blocks 20 --block-length 2000 --seed 54 --name region_b

calc() { awk "BEGIN { print $* }"; }
len() { grep -v '>' "$1" | tr -d '\n' | wc -c; }
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1 || true; }

echo "| input | cells | run | score | wall s | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row() {  # name q t label flags...
  local name=$1 q=$2 t=$3 label=$4; shift 4
  local cells t0 t1 compute kernel mem
  cells=$(calc "$(len "$q") * $(len "$t")")
  t0=$(date +%s.%N)
  "$build/gpu-syntenic" "$@" -q --score-only --format tsv --report "$work/r.json" "$q" "$t" -o "$work/out.tsv"
  t1=$(date +%s.%N)
  compute=$(field "$work/r.json" compute)
  kernel=$(field "$work/r.json" kernel_seconds)
  mem=$(field "$work/r.json" peak_memory_bytes)
  printf "| %s | %.2e | %s | %s | %.2f | %.3f | %s | %.1f | %s | %s |\n" "$name" "$cells" "$label" \
    "$(awk '!/^#/{print $3; exit}' "$work/out.tsv")" "$(calc "$t1 - $t0")" "$compute" "${kernel:--}" \
    "$(calc "$cells / $compute / 1e9")" "$([ -n "$kernel" ] && calc "$cells / $kernel / 1e9" || echo -)" \
    "$([ -n "$mem" ] && calc "int($mem / 1048576)" || echo -)"
}
row "1e5 x 1e6" "$work/q1e5.fa" "$work/t1e6.fa" "GPU"
row "1e5 x 1e7" "$work/q1e5.fa" "$work/t1e7.fa" "GPU"
for cols in 8 16; do
  row "1e5 x 1e7" "$work/q1e5.fa" "$work/t1e7.fa" "GPU, $cols columns a lane" --tune lane_columns=$cols
done
row "1e5 x 1e5 homologous" "$work/h1e5a.fa" "$work/h1e5b.fa" "GPU"
row "220k x 220k homologous" "$work/r220a.fa" "$work/r220b.fa" "GPU"
row "2e4 x 2e5" "$work/q2e4.fa" "$work/t2e5.fa" "CPU $threads threads (OpenMP tiles)" --cpu --threads "$threads"
row "2e4 x 2e5" "$work/q2e4.fa" "$work/t2e5.fa" "CPU 1 thread (the oracle)" --cpu --threads 1

echo
echo "| alignment | cells | run | score | regions | blocks | wall s | compute s | kernel s |"
echo "|---|---|---|---|---|---|---|---|---|"
align_row() {  # name q t label flags...
  local name=$1 q=$2 t=$3 label=$4; shift 4
  local t0 t1
  t0=$(date +%s.%N)
  "$build/gpu-syntenic" "$@" -q --format json --report "$work/a.json" "$q" "$t" -o "$work/aln.json"
  t1=$(date +%s.%N)
  printf "| %s | %.2e | %s | %s | %s | %s | %.2f | %.3f | %s |\n" "$name" "$(calc "$(len "$q") * $(len "$t")")" "$label" \
    "$(grep -o '^{[^[]*"score":-\?[0-9]*' "$work/aln.json" | grep -o -- '-\?[0-9]*$')" \
    "$(grep -o '"kind":"match"' "$work/aln.json" | wc -l)" "$(grep -o '"kind":"block"' "$work/aln.json" | wc -l)" \
    "$(calc "$t1 - $t0")" "$(field "$work/a.json" compute)" "$(field "$work/a.json" kernel_seconds)"
}
align_row "1e5 x 1e5 homologous" "$work/h1e5a.fa" "$work/h1e5b.fa" "GPU (what it runs on the CPU included)"
align_row "220k x 220k homologous" "$work/r220a.fa" "$work/r220b.fa" "GPU (what it runs on the CPU included)"
align_row "1e6 x 1e6 homologous" "$work/r1e6a.fa" "$work/r1e6b.fa" "GPU, linear space (what it runs on the CPU included)"
echo
echo "(CPU rows on $threads threads and on 1; the GPU's score rows run the 32-bit strip kernel.)"
