#!/usr/bin/env bash
# gpu-fold --cpu (OMP2 for records of 512 bases or more) on an idle machine
# and with BUSY cores kept busy by other processes (default 1), on all of
# the machine's cores; random RNA records of each LENGTH (default 700 2000
# 5000). Each build given is run side by side on the same records; the
# median of RUNS runs (default 3). Prints a Markdown table for
# bench/RESULTS.md: seconds idle, seconds loaded, and loaded over idle.
# Usage: scripts/bench/fold-load.sh BUILD [BUILD ...]   (LENGTHS, BUSY, RUNS in the environment)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: $0 BUILD [BUILD ...]" >&2; exit 2; }
lengths=${LENGTHS:-700 2000 5000}
busy=${BUSY:-1}
runs=${RUNS:-3}
work=$(mktemp -d)
hogs=()
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; hogs=(); }
trap 'stop_hogs; rm -rf "$work"' EXIT
median() {  # build, record: the median wall time of $runs runs
  for _ in $(seq "$runs"); do
    /usr/bin/time -f %e "$1/gpu-fold" --cpu -q "$2" -o "$work/out" 2>&1 >/dev/null | tail -1
  done | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}
echo "| build | bases | threads | idle s | $busy core(s) busy s | loaded / idle |"
echo "|---|---|---|---|---|---|"
for n in $lengths; do
  scripts/bench/make_fasta.py random --alphabet rna --length "$n" --seed "$n" --name "r$n" > "$work/r$n.fa"
  for build in "$@"; do
    idle=$(median "$build" "$work/r$n.fa")
    for _ in $(seq "$busy"); do
      sh -c 'while :; do :; done' &
      hogs+=($!)
    done
    loaded=$(median "$build" "$work/r$n.fa")
    stop_hogs
    printf "| %s | %s | %s | %.2f | %.2f | %.2f |\n" "$build" "$n" "$(nproc)" "$idle" "$loaded" "$(awk "BEGIN { print $loaded / $idle }")"
  done
done
