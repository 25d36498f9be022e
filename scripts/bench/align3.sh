#!/usr/bin/env bash
# gpu-align3 (issue 17) in one run: the score of three related random DNA
# sequences with the oracle's single thread and the OpenMP planes, at sizes
# the oracle finishes in seconds, and the full alignment; the scaling of
# the OpenMP planes with the threads; where there is a GPU, its score and
# alignment at GPU_SIZES (default 2000 5000 10000: the issue's sizes).
# Cells are |a| |b| |c|.
# Prints Markdown tables for bench/RESULTS.md.
# Usage: scripts/bench/align3.sh [build-dir] [sizes...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
sizes=${*:-200 300 400}
threads=${THREADS:-$(nproc)}
[ -x "$build/gpu-align3" ] || { echo "align3: $build/gpu-align3 missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
gen=scripts/bench/make_fasta.py
calc() { awk "BEGIN { print $* }"; }
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1 || true; }

echo "| n (each) | cells | run | score | wall s | compute s | G cells/s |"
echo "|---|---|---|---|---|---|---|"
make_trio() {  # n: three related DNA sequences of about n letters
  local n=$1 trio=$work/trio$1.fa
  if [ ! -s "$trio" ]; then
    "$gen" random --alphabet dna --length "$n" --seed "$n" --name a > "$work/a$n.fa"
    "$gen" mutate --input "$work/a$n.fa" --rate 0.1 --seed $((n + 1)) --name b > "$work/b$n.fa"
    "$gen" mutate --input "$work/a$n.fa" --rate 0.2 --seed $((n + 2)) --name c > "$work/c$n.fa"
    cat "$work/a$n.fa" "$work/b$n.fa" "$work/c$n.fa" > "$trio"
  fi
}
for n in $sizes; do
  trio=$work/trio$n.fa
  make_trio "$n"
  cells=$(calc "$n * $n * $n")
  for run in "1 thread (the oracle)|--cpu --threads 1" "$threads threads (OpenMP planes)|--cpu --threads $threads"; do
    label=${run%%|*}
    flags=${run#*|}
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$build/gpu-align3" $flags -q --score-only --format tsv --report "$work/r.json" "$trio" -o "$work/out.tsv"
    t1=$(date +%s.%N)
    compute=$(field "$work/r.json" compute)
    printf "| %s | %.2e | score, %s | %s | %.2f | %.3f | %.2f |\n" "$n" "$cells" "$label" \
      "$(awk '!/^#/{print $5; exit}' "$work/out.tsv")" "$(calc "$t1 - $t0")" "$compute" "$(calc "$cells / $compute / 1e9")"
  done
  t0=$(date +%s.%N)
  "$build/gpu-align3" --cpu --threads "$threads" -q --format tsv --report "$work/a.json" "$trio" -o "$work/aln.tsv"
  t1=$(date +%s.%N)
  compute=$(field "$work/a.json" compute)
  printf "| %s | %.2e | alignment, %s threads | %s | %.2f | %.3f | %.2f |\n" "$n" "$cells" "$threads" \
    "$(awk '!/^#/{print $5; exit}' "$work/aln.tsv")" "$(calc "$t1 - $t0")" "$compute" "$(calc "$cells / $compute / 1e9")"
done
echo
echo "| threads | n | compute s | speed-up over 1 thread (the oracle) |"
echo "|---|---|---|---|"
n=${sizes##* }
base=""
for t in 1 2 4 8 16; do
  [ "$t" -le "$threads" ] || continue
  "$build/gpu-align3" --cpu --threads "$t" -q --score-only --format tsv --report "$work/r.json" "$work/trio$n.fa" -o /dev/null
  compute=$(field "$work/r.json" compute)
  base=${base:-$compute}
  printf "| %s | %s | %.3f | %.2f |\n" "$t" "$n" "$compute" "$(calc "$base / $compute")"
done

command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 || exit 0
echo
echo "| n (each) | cells | run | score | wall s | compute s | kernel s | G cells/s (compute) |"
echo "|---|---|---|---|---|---|---|---|"
for n in ${GPU_SIZES:-2000 5000 10000}; do
  make_trio "$n"
  cells=$(calc "$n * $n * $n")
  for run in "score|--score-only" "alignment|"; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$build/gpu-align3" ${run#*|} -q --format tsv --report "$work/g.json" "$work/trio$n.fa" -o "$work/g.tsv"
    t1=$(date +%s.%N)
    compute=$(field "$work/g.json" compute)
    printf "| %s | %.2e | GPU %s | %s | %.2f | %.3f | %s | %.1f |\n" "$n" "$cells" "${run%%|*}" \
      "$(awk '!/^#/{print $5; exit}' "$work/g.tsv")" "$(calc "$t1 - $t0")" "$compute" \
      "$(field "$work/g.json" kernel_seconds)" "$(calc "$cells / $compute / 1e9")"
  done
done
