#!/usr/bin/env bash
# What showing progress costs the GPU paths that read it while they run:
# gpu-fold's blocked fill of 65,000 bases and BPMax's of 32 x 3,000 (counted
# in stream order by events), gpu-sw's score pass of 1e5 x 3e7 (its strip
# ticket read beside the kernel). Each run with -q and on a terminal
# (script(1)), alternated, ROUNDS times (default 3); prints the timing
# reports' device fill time (gpu-fold) or compute time (gpu-sw).
# Usage: scripts/bench/progress-cost.sh BUILD   (on the GPU machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: $0 BUILD}
rounds=${ROUNDS:-3}
[ -d .deps/root ] && export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
g=scripts/bench/make_fasta.py
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$g" random --alphabet rna --length 65000 --seed 5 --name r > "$w/r.fa"
printf '>d\n%s&%s\n' "$("$g" random --alphabet rna --length 32 --seed 6 --name a | grep -v '>' | tr -d '\n')" \
  "$("$g" random --alphabet rna --length 3000 --seed 7 --name b | grep -v '>' | tr -d '\n')" > "$w/d.fa"
"$g" random --alphabet dna --length 100000 --seed 3 --name q > "$w/q.fa"
"$g" random --alphabet dna --length 30000000 --seed 4 --name t > "$w/t.fa"
seconds() { grep -o "\"$1\": [0-9.e-]*" "$2" | head -1 | awk '{print $2}'; }
one() {  # label, report key, command...
  local label=$1 key=$2
  shift 2
  for round in $(seq "$rounds"); do
    "$@" -q --report "$w/quiet.json" > /dev/null
    script -qefc "$(printf '%q ' "$@") --report $w/terminal.json > /dev/null" /dev/null < /dev/null > /dev/null
    echo "| $label | $round | $(seconds "$key" "$w/quiet.json") | $(seconds "$key" "$w/terminal.json") |"
  done
}
echo "| run | round | -q s | terminal s |"
echo "|---|---|---|---|"
one "gpu-fold 65,000 (fill)" fill_seconds "$build/gpu-fold" "$w/r.fa"
one "gpu-fold --interact 32 x 3,000 (fill)" fill_seconds "$build/gpu-fold" --interact "$w/d.fa"
one "gpu-sw --score-only 1e5 x 3e7 (compute)" compute "$build/gpu-sw" --strand plus --score-only --format tsv "$w/q.fa" "$w/t.fa"
