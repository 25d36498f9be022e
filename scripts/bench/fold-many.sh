#!/usr/bin/env bash
# gpu-fold on many short RNAs (issue 5): RECORDS random records (default
# 100,000) of 50 to 450 bases, on the GPU (many a launch) and with --cpu on
# all cores, in one run; the two outputs must be identical. Prints a
# Markdown table for bench/RESULTS.md.
# Usage: scripts/bench/fold-many.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
records=${RECORDS:-100000}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
fa=$work/many$records.fa
[ -s "$fa" ] || python3 - "$records" > "$fa" <<'PY'
import random, sys
rng = random.Random(7)
for r in range(int(sys.argv[1])):
    n = rng.randint(50, 450)
    print(f">r{r}")
    print("".join(rng.choice("ACGU") for _ in range(n)))
PY
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | head -1 | awk '{print $2}'; }
echo "| records | bases | run | fill s | traceback s | compute s | wall s |"
echo "|---|---|---|---|---|---|---|"
for run in gpu cpu; do
  flags=$([ "$run" = cpu ] && echo "--cpu --threads $(nproc)" || true)
  t0=$(date +%s.%N)
  "$build/gpu-fold" -q $flags --format tsv --report "$work/m.json" "$fa" -o "$work/$run.tsv"
  t1=$(date +%s.%N)
  printf "| %s | %s | %s | %s | %s | %.3f | %.2f |\n" "$records" "$(grep -v '>' "$fa" | tr -d '\n' | wc -c)" \
    "$([ "$run" = cpu ] && echo "--cpu, $(nproc) threads" || echo GPU)" \
    "$(field "$work/m.json" fill_seconds || echo -)" "$(field "$work/m.json" trace_seconds || echo -)" \
    "$(field "$work/m.json" compute)" "$(awk "BEGIN { print $t1 - $t0 }")"
done
cmp -s "$work/gpu.tsv" "$work/cpu.tsv" && echo "(The GPU's and the CPU's outputs are identical.)" || { echo "fold-many: the outputs differ" >&2; exit 1; }
