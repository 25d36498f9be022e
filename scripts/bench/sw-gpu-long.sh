#!/usr/bin/env bash
# gpu-sw score-only on a target past 2^31 letters (issue 3): the target
# goes through the GPU in pieces, one launch each. Random DNA, local,
# 1e5 x LENGTH (default 2.2e9 letters; about 2.2 GB of FASTA in WORK).
# Prints one Markdown row for bench/RESULTS.md.
# Usage: scripts/bench/sw-gpu-long.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
work=${WORK:-$(mktemp -d)}
length=${LENGTH:-2200000000}
mkdir -p "$work"
[ -s "$work/q1e5.fa" ] || scripts/bench/make_fasta.py random --alphabet dna --length 100000 --seed 42 --name q1e5 > "$work/q1e5.fa"
target=$work/t_long.fa
if [ ! -s "$target" ]; then  # uniform over ACGT: each byte of /dev/urandom picks a letter
  letters=$(printf 'ACGT%.0s' $(seq 64))
  { echo ">t_long $length random DNA letters"; head -c "$length" /dev/urandom | tr '\000-\377' "$letters" | fold -w 1000; } > "$target"
fi
t0=$(date +%s.%N)
"$build/gpu-sw" -q --strand plus --score-only --format tsv --report "$work/long.json" --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 \
  "$work/q1e5.fa" "$target" -o "$work/long.tsv"
t1=$(date +%s.%N)
field() { grep -o "\"$1\": [0-9.e+-]*" "$work/long.json" | awk '{print $2}' | head -1; }
cells=$(awk "BEGIN { print 100000 * $length }")
kernel=$(field kernel_seconds)
[ -n "$kernel" ] || { echo "sw-gpu-long: the run did not use the GPU" >&2; exit 1; }
echo "| input | cells | score | end (query, target) | wall s | compute s | kernel s | GCUPS (kernel) | launches (pieces) | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf "| 1e5 x %s | %.2e | %s | (%s, %s) | %.1f | %.1f | %.1f | %.0f | %s | %.0f |\n" "$length" "$cells" \
  "$(awk 'NR==2{print $3}' "$work/long.tsv")" "$(awk 'NR==2{print $5}' "$work/long.tsv")" "$(awk 'NR==2{print $7}' "$work/long.tsv")" \
  "$(awk "BEGIN { print $t1 - $t0 }")" "$(field compute)" "$kernel" "$(awk "BEGIN { print $cells / $kernel / 1e9 }")" \
  "$(field passes)" "$(awk "BEGIN { print $(field peak_memory_bytes) / 1048576 }")"
