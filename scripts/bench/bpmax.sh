#!/usr/bin/env bash
# gpu-fold --interact (BPMax, issue 18): random RNA pairs (strand 1 of M,
# strand 2 of N bases) by the oracle (cpu1, one thread; skipped past
# ORACLE_TERMS terms, default 2e9), the products' form on one thread (cpu2)
# and on all threads (omp2) (both skipped past CPU_TERMS, default 2e11),
# and the GPU engine where nvidia-smi finds a GPU (its fill, of which its
# max-plus products and the blocks' anti-diagonals, and traceback times;
# the products' rate over the terms they computed, beside the 16.1 T/s
# int32 max-plus ceiling; the device memory its tables take); the threads' scaling of
# omp2 at the last size the CPU ran. A size MxN:W1,W2 runs with
# --window W1,W2. Work is counted as the double reduction's terms, about
# M^3 N^3 / 36 without a window.
# Prints Markdown tables for bench/RESULTS.md.
# Usage: scripts/bench/bpmax.sh [build-dir] [MxN[:W1,W2] ...]   (default 8x100 16x160 16x400)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
sizes=${*:-8x100 16x160 16x400}
threads=${THREADS:-$(nproc)}
[ -x "$build/gpu-fold" ] || { echo "bpmax: $build/gpu-fold missing: build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=scripts/bench/make_fasta.py
calc() { awk "BEGIN { print $* }"; }
r3() { if [ -z "$1" ]; then echo -; else printf "%.3f" "$1"; fi; }  # seconds, or - where the engine has none
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1 || true; }
make_pair() {  # M N: one record SEQ1&SEQ2 of random RNA
  local m=$1 n=$2
  local one two
  one=$("$gen" random --alphabet rna --length "$m" --seed "$m" --name a | grep -v '>' | tr -d '\n')
  two=$("$gen" random --alphabet rna --length "$n" --seed "$((n + 1))" --name b | grep -v '>' | tr -d '\n')
  printf ">pair%sx%s\n%s&%s\n" "$m" "$n" "$one" "$two" > "$work/pair$m-$n.fa"
}
split_terms() {  # L W: the splits of every interval of at most W + 1 of L bases
  awk -v l="$1" -v w="$2" 'BEGIN { if (w == "" || w > l - 1) w = l - 1; t = 0; for (d = 0; d <= w; ++d) t += (l - d) * d; print t }'
}
run() {  # M N engine threads [window]: prints score, compute, fill, products, finish, traceback seconds, product terms, table bytes
  local cpu=(--cpu) window=()
  [ "$3" != gpu ] || cpu=()
  [ -z "${5:-}" ] || window=(--window "$5")
  "$build/gpu-fold" --interact "${cpu[@]}" "${window[@]}" --engine "$3" --threads "$4" -q --format tsv --report "$work/r.json" \
    "$work/pair$1-$2.fa" -o "$work/out.tsv"
  local r=$work/r.json
  echo "$(awk '!/^#/{print $4; exit}' "$work/out.tsv") $(field "$r" compute) $(field "$r" fill_seconds)" \
    "$(field "$r" product_seconds) $(field "$r" finish_seconds) $(field "$r" trace_seconds) $(field "$r" product_terms)" \
    "$(field "$r" table_bytes)"
}
engines="cpu1 cpu2 omp2"
! nvidia-smi -L > /dev/null 2>&1 || engines="$engines gpu"
echo "| M x N | window | terms | engine | threads | score | compute s | G terms/s (compute) | GPU fill s | products s | finish s | traceback s | products T terms/s (of 16.1T) | GPU tables GB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
cpu_size=""
for spec in $sizes; do
  size=${spec%%:*} window=""
  [ "$size" = "$spec" ] || window=${spec#*:}
  m=${size%x*} n=${size#*x}
  make_pair "$m" "$n"
  terms=$(calc "$(split_terms "$m" "${window%,*}") * $(split_terms "$n" "${window#*,}")")
  for engine in $engines; do
    t=1
    [ "$engine" != omp2 ] || t=$threads
    [ "$engine" != cpu1 ] || awk "BEGIN { exit !($terms <= ${ORACLE_TERMS:-2e9}) }" || continue
    [ "$engine" = gpu ] || awk "BEGIN { exit !($terms <= ${CPU_TERMS:-2e11}) }" || continue
    [ "$engine" = gpu ] || [ -n "$window" ] || cpu_size=$size
    read -r score compute fill products finish trace product_terms bytes <<< "$(run "$m" "$n" "$engine" "$t" "$window")"
    gb="-"
    [ -z "$bytes" ] || gb=$(printf "%.2f" "$(calc "$bytes / 1e9")")
    rate="-"
    [ -z "$products" ] || rate=$(printf "%.2f" "$(calc "$product_terms / $products / 1e12")")" ($(calc "int($product_terms / $products / 16.1e12 * 100 + 0.5)")%)"
    printf "| %s x %s | %s | %.2e | %s | %s | %s | %.3f | %.1f | %s | %s | %s | %s | %s | %s |\n" "$m" "$n" "${window:--}" "$terms" "$engine" "$t" \
      "$score" "$compute" "$(calc "$terms / $compute / 1e9")" "$(r3 "$fill")" "$(r3 "$products")" "$(r3 "$finish")" "$(r3 "$trace")" \
      "$rate" "$gb"
  done
done
[ -n "$cpu_size" ] || exit 0
m=${cpu_size%x*} n=${cpu_size#*x}
echo
echo "| threads | M x N | compute s | speed-up of omp2 over 1 thread |"
echo "|---|---|---|---|"
base=""
for t in 1 2 4 8 16; do
  [ "$t" -le "$threads" ] || continue
  read -r _ compute _ <<< "$(run "$m" "$n" omp2 "$t")"
  base=${base:-$compute}
  printf "| %s | %s x %s | %.3f | %.2f |\n" "$t" "$m" "$n" "$compute" "$(calc "$base / $compute")"
done
