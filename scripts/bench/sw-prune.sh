#!/usr/bin/env bash
# Block pruning (src/pairwise/pruning.hpp) side by side: gpu-sw's local
# score pass of one pair, pruned (the default) and not (--tune prune=0),
# alternated, on a homologous DNA pair (1% substitutions, 0.1% indels),
# a less similar one (10% substitutions) and a random one, LENGTH x LENGTH
# each. GCUPS over the full matrix; the share of cells in pruned blocks
# from -v. The same result is required of both runs. Extra arguments go to
# gpu-sw (--cpu --threads N for the CPU's tiled pass, which prunes; the GPU
# passes do not prune yet).
# Prints a Markdown table for bench/RESULTS.md.
# Usage: scripts/bench/sw-prune.sh [build-dir] [length] [gpu-sw flags...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
length=${2:-20000}
shift $(( $# < 2 ? $# : 2 ))
[ -x "$build/gpu-sw" ] || { echo "sw-prune: $build/gpu-sw missing: build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=scripts/bench/make_fasta.py
"$gen" random --alphabet dna --length "$length" --seed 41 --name a > "$work/a.fa"
"$gen" mutate --input "$work/a.fa" --rate 0.01 --indel-rate 0.001 --seed 42 --name b > "$work/close.fa"
"$gen" mutate --input "$work/a.fa" --rate 0.1 --seed 43 --name b > "$work/far.fa"
"$gen" random --alphabet dna --length "$length" --seed 44 --name r > "$work/random.fa"
calc() { awk "BEGIN { print $* }"; }
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1; }

echo "| pair | cells | run | score | compute s | GCUPS (full matrix) | cells pruned |"
echo "|---|---|---|---|---|---|---|"
for pair in close far random; do
  for round in 1 2; do
    for prune in 1 0; do
      "$build/gpu-sw" -v --strand plus --score-only --format tsv --report "$work/r.json" --tune "prune=$prune" "$@" \
        "$work/a.fa" "$work/$pair.fa" -o "$work/out$prune.tsv" 2> "$work/err"
      share=$(grep -o '[0-9.]*% of the cells in pruned' "$work/err" | cut -d'%' -f1 || true)
      compute=$(field "$work/r.json" compute)
      cells=$(field "$work/r.json" cells)
      score=$(awk -F'\t' '!/^#/ { print $3 }' "$work/out$prune.tsv")
      label=$([ "$prune" = 1 ] && echo "pruned" || echo "not pruned")
      echo "| $pair | $(calc "$cells / 1e9")e9 | $label | $score | $compute | $(calc "$cells / $compute / 1e9") | ${share:-0}% |"
    done
    cmp -s "$work/out1.tsv" "$work/out0.tsv" || { echo "sw-prune: pruned and unpruned outputs differ ($pair)" >&2; exit 1; }
  done
done
