#!/usr/bin/env bash
# The score kernels' tuning knobs on one input, side by side (kernel GCUPS):
# 16 or 32 bits, 8, 16, 32 or 64 columns a lane, strips handing over in shared
# memory in groups of 4 or each through device memory; then one strip
# alone, and a few; blocks an SM. The knobs are gpu-sw's hidden --tune
# keys (src/pairwise/gpu_tuning.hpp). TABLES="columns group strips blocks"
# (the default) picks the tables; COLS="16 32" the columns a lane of the
# group table (default 8 and 16).
# Usage: scripts/bench/sw-gpu-tuning.sh [build-dir] [query.fa target.fa]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
q=${2:-$work/q1e5.fa}
t=${3:-$work/t1e7.fa}
[ -s "$q" ] || scripts/bench/make_fasta.py random --alphabet dna --length 100000 --seed 42 --name q1e5 > "$q"
[ -s "$t" ] || scripts/bench/make_fasta.py random --alphabet dna --length 10000000 --seed 44 --name t1e7 > "$t"
cells=$(awk "BEGIN { print $(grep -v '>' "$q" | tr -d '\n' | wc -c) * $(grep -v '>' "$t" | tr -d '\n' | wc -c) }")
tables=${TABLES:-columns group strips blocks}
want() { [[ " $tables " == *" $1 "* ]]; }
kernel_of() { grep -o '"kernel_seconds": [0-9.e+-]*' "$work/t.json" | awk '{print $2}'; }
# One score-only run of q against t with the knobs given as key=value
# arguments; prints "| bits | columns | knob | score | kernel s | GCUPS |".
knob_row() {  # bits cols knob-value key=value...
  local bits=$1 cols=$2 value=$3 kernel kv
  shift 3
  local tune=(--tune "bits=$bits" --tune "lane_columns=$cols")
  for kv in "$@"; do tune+=(--tune "$kv"); done
  "$build/gpu-sw" "${tune[@]}" -q --strand plus --score-only --format tsv --report "$work/t.json" \
    --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 "$q" "$t" -o "$work/t.tsv"
  kernel=$(kernel_of)
  printf "| %s | %s | %s | %s | %.3f | %.0f |\n" "$bits" "$cols" "$value" \
    "$(awk 'NR==2{print $3}' "$work/t.tsv")" "$kernel" "$(awk "BEGIN { print $cells / $kernel / 1e9 }")"
}

if want columns; then
  echo "| bits | columns a lane | - | score | kernel s | GCUPS |"
  echo "|---|---|---|---|---|---|"
  for spec in "16 8" "16 16" "16 32" "16 64" "32 8" "32 16"; do
    set -- $spec
    knob_row "$1" "$2" -
  done
  echo
fi

# One knob's table: for 16 and 32 bits, each of the columns given, each
# value of the --tune key.
knob_table() {  # heading key "columns" values...
  local heading=$1 var=$2 columns=$3 bits cols value
  shift 3
  echo "| bits | columns a lane | $heading | score | kernel s | GCUPS |"
  echo "|---|---|---|---|---|---|"
  for bits in 16 32; do
    for cols in $columns; do
      for value in "$@"; do knob_row "$bits" "$cols" "$value" "$var=$value"; done
    done
  done
  echo
}
want group && knob_table "strips a group" group "${COLS:-8 16}" 1 4

if want blocks; then
  echo "| bits | columns a lane | blocks an SM | score | kernel s | GCUPS |"
  echo "|---|---|---|---|---|---|"
  for spec in "16 32" "16 64" "32 16"; do
    set -- $spec
    for b in 1 2 3 4; do knob_row "$1" "$2" "$b" blocks_per_sm="$b"; done
  done
  echo
fi

want strips || exit 0
echo
echo "| kernel | target letters | kernel s | cycles a step at 1.98 GHz |"
echo "|---|---|---|---|"
for spec in "32 8 256" "32 8 8192" "32 8 65536" "32 16 512" "16 8 512" "16 16 1024" "16 16 8192" "16 16 65536" \
            "16 32 2048" "16 32 65536" "16 64 4096" "16 64 131072"; do
  set -- $spec
  tn=$work/strips_$3.fa
  [ -s "$tn" ] || scripts/bench/make_fasta.py random --alphabet dna --length "$3" --seed 7 --name "t$3" > "$tn"
  "$build/gpu-sw" --tune "bits=$1" --tune "lane_columns=$2" -q --strand plus --score-only --format tsv --report "$work/t.json" \
    --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 "$q" "$tn" -o "$work/t.tsv"
  kernel=$(grep -o '"kernel_seconds": [0-9.e+-]*' "$work/t.json" | awk '{print $2}')
  steps=$(( $(grep -v '>' "$q" | tr -d '\n' | wc -c) + ($1 == 16 ? 63 : 31) ))
  printf "| %s-bit, %s columns a lane | %s | %.4f | %.0f |\n" "$1" "$2" "$3" "$kernel" "$(awk "BEGIN { print $kernel * 1.98e9 / $steps }")"
done
