#!/usr/bin/env bash
# Which ordering of a hand-over between warps through shared memory
# compute-sanitizer's racecheck accepts (scripts/bench/handover_race_probe.cu:
# block-scope atomic counters as the strip engine uses, named barriers,
# cuda::barrier). For each: the rows read wrong, and racecheck's hazards.
# Prints a Markdown table. Usage: scripts/bench/handover-race-probe.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -lineinfo -arch=sm_90 -std=c++20 -o "$work/probe" scripts/bench/handover_race_probe.cu || exit 1
echo "| ordering | run alone | racecheck |"
echo "|---|---|---|"
for way in counters named mbarrier; do
  alone=$("$work/probe" "$way" 2>&1)
  compute-sanitizer --tool racecheck --racecheck-report hazard "$work/probe" "$way" > "$work/out" 2>&1
  summary=$(grep -m1 "RACECHECK SUMMARY\|ERROR SUMMARY" "$work/out")
  echo "| $way | $alone | ${summary:-no summary: $(tail -1 "$work/out")} |"
done
