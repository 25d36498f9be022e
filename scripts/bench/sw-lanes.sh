#!/usr/bin/env bash
# gpu-sw's local score pass on random DNA pairs at each lane width: kernel
# seconds for the plan's choice (0) and for 8, 16, 32 and 64 columns a lane
# (--tune lane_columns), MASA-CUDAlign's scores, the pairs made from fixed
# seeds into WORK. What the lane-column rule (strip_plan.cpp) is set from.
# Usage: scripts/bench/sw-lanes.sh [build-dir] [MxN...]   (default: a few shapes)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(100000x500000 200000x500000 200000x1000000 500000x500000 200000x2000000)
[ -x "$build/gpu-sw" ] || { echo "sw-lanes: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
make=scripts/bench/make_fasta.py
field() { grep -o "\"$1\": [0-9.e+-]*" "$2" | awk '{print $2}' | head -1; }
sequence() {  # LENGTH SEED
  local f=$work/r$1_$2.fa
  [ -s "$f" ] || $make random --length "$1" --seed "$2" --name "r$1_$2" > "$f"
  echo "$f"
}

echo "| m x n | 0 | 8 | 16 | 32 | 64 |"
echo "|---|---|---|---|---|---|"
for shape in "${shapes[@]}"; do
  m=${shape%x*} n=${shape#*x}
  q=$(sequence "$m" 61) t=$(sequence "$n" 62)
  row="| $m x $n |"
  for c in 0 8 16 32 64; do
    "$build/gpu-sw" -q --strand plus --score-only --tune lane_columns=$c --format tsv --report "$work/r.json" \
      --match 1 --mismatch -3 --gap-open 3 --gap-extend 2 "$q" "$t" -o "$work/r.tsv"
    row+=" $(printf %.3f "$(field kernel_seconds "$work/r.json")") |"
  done
  echo "$row"
done
