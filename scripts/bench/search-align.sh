#!/usr/bin/env bash
# Every pair of a search aligned (no --top), on the GPU's batch alignment
# and on the CPU threads (--cpu: the path such a search took before the
# batch alignment, with or without a GPU), side by side on the same
# inputs: search.sh's four queries against its first `targets` proteins.
# Checks that every pair's score and end cell agree, and counts the lines
# whose CIGAR or start differ (equally good paths). Prints a Markdown
# table for bench/RESULTS.md; -v's breakdown of the GPU run on stderr.
# Usage: scripts/bench/search-align.sh [build-dir] [targets]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
count=${2:-20000}
[ -x "$build/gpu-sw" ] || { echo "search-align: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
. scripts/bench/search_inputs.sh
search_inputs "$work" "$count"
echo "| path | pairs | compute s | kernel s |"
echo "|---|---|---|---|"
for how in gpu cpu; do
  flag=()
  [ "$how" = cpu ] && flag=(--cpu)
  "$build/gpu-sw" -v "${flag[@]}" --gap-open 10 --gap-extend 1 --format tsv --report "$work/r.json" \
    "$work/q4.fa" "$work/db$count.fa" -o "$work/$how.tsv" 2>&1 | grep -i "batch alignment" >&2 || true
  echo "| $how | $(($(wc -l < "$work/$how.tsv") - 1)) | $(field "$work/r.json" compute) | $(field "$work/r.json" kernel_seconds) |"
done
ends() { cut -f1,2,3,5,7 "$1"; }
echo
echo "scores or end cells differing: $(diff <(ends "$work/gpu.tsv") <(ends "$work/cpu.tsv") | grep -c '^<' || true);" \
  "lines differing (CIGAR or start): $(diff "$work/gpu.tsv" "$work/cpu.tsv" | grep -c '^<' || true)"
