#!/usr/bin/env bash
# The database search's host layout alone (scripts/bench/layout_probe.cpp):
# sort, lay out and write the letters of search.sh's 400,000 proteins (and
# of 4 times as many), on 1 thread and on every core. Needs no GPU. Prints
# a Markdown table.
# Usage: scripts/bench/layout-probe.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${WORK:-$(mktemp -d)}
g++ -std=c++20 -O2 -fopenmp -I src -o "$work/layout_probe" scripts/bench/layout_probe.cpp src/pairwise/batch_layout.cpp
echo "| targets | residues | threads | sort s | lay out s | write letters s | written GB/s |"
echo "|---|---|---|---|---|---|---|"
for count in 400000 1600000; do
  for threads in 1 "$(nproc)"; do "$work/layout_probe" "$count" "$threads"; done
done
