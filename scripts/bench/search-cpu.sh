#!/usr/bin/env bash
# Many-pairs search on the CPU against parasail (issue 20), on the same
# inputs, in one run: 200 protein queries against 2,000 proteins (lengths
# log-normal around 300, as search.sh's database), BLOSUM62, a gap of
# length k costing 11 + k, local, score only, every pair reported.
#   gpu-sw --cpu --score-only   (the CPU lanes), 1 thread, then all threads
#   parasail_aligner sw_striped_16 (the 16-bit striped SIMD code), likewise
#   ssearch36 (fasta3's Smith-Waterman search, Farrar's striped SIMD code),
#   likewise, where it is installed; its scores are checked by the tests
# Wall times include reading the FASTA files and writing every pair (gpu-sw
# TSV, parasail CSV); gpu-sw's compute phase is given too. The scores of
# both must agree pair for pair. Prints a Markdown table for bench/RESULTS.md.
# Usage: scripts/bench/search-cpu.sh [build-dir] [queries] [targets]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
queries=${2:-200}
targets=${3:-2000}
threads=$(nproc)
[ -x "$build/gpu-sw" ] || { echo "search-cpu: $build/gpu-sw missing: build first" >&2; exit 1; }
command -v parasail_aligner >/dev/null || { echo "search-cpu: parasail_aligner missing (scripts/setup.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=scripts/bench/make_protein_db.py
"$gen" --count "$queries" --seed 3 --name q > "$work/q.fa"
"$gen" --count "$targets" --seed 4 --name t > "$work/t.fa"

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }
len() { grep -v '>' "$1" | tr -d '\n' | wc -c; }
cells=$(calc "$(len "$work/q.fa") * $(len "$work/t.fa")")
echo "$queries queries x $targets targets: $(calc "$cells / 1e9")e9 cells, $(nproc) cores"
echo
echo "| run | threads | wall s | compute s | GCUPS (wall) | GCUPS (compute) | speed vs parasail (wall, same threads) |"
echo "|---|---|---|---|---|---|---|"
for th in 1 "$threads"; do
  t0=$(now)
  (cd "$work" && parasail_aligner -x -a sw_striped_16 -t "$th" -m blosum62 -o 12 -e 1 -f t.fa -q q.fa -g p.csv \
    0<&- > /dev/null 2>&1)
  t1=$(now)
  theirs=$(calc "$t1 - $t0")
  t0=$(now)
  "$build/gpu-sw" -q --cpu --threads "$th" --score-only --matrix BLOSUM62 --gap-open 11 --gap-extend 1 --format tsv \
    --report "$work/r.json" -o "$work/ours.tsv" "$work/q.fa" "$work/t.fa"
  t1=$(now)
  ours=$(calc "$t1 - $t0")
  compute=$(grep -o '"compute": [0-9.e+-]*' "$work/r.json" | awk '{print $2}')
  # parasail's CSV: query index, target index, lengths, score; ours (TSV): query, target, score.
  paste -d' ' <(awk -F, '{print $1, $2, $5}' "$work/p.csv" | sort -k1,1n -k2,2n | awk '{print $3}') \
    <(awk 'NR > 1 {print $3}' "$work/ours.tsv") | awk '$1 != $2 {bad++} END {exit bad > 0}' ||
    { echo "search-cpu: scores differ from parasail's" >&2; exit 1; }
  printf "| gpu-sw --cpu | %s | %.3f | %.3f | %.2f | %.2f | %.2fx |\n" "$th" "$ours" "$compute" \
    "$(calc "$cells / $ours / 1e9")" "$(calc "$cells / $compute / 1e9")" "$(calc "$theirs / $ours")"
  printf "| parasail sw_striped_16 | %s | %.3f | - | %.2f | - | 1.00x |\n" "$th" "$theirs" "$(calc "$cells / $theirs / 1e9")"
  if command -v ssearch36 >/dev/null; then
    t0=$(now)
    ssearch36 -q -H -d 0 -b 1 -T "$th" -s BL62 -f -11 -g -1 "$work/q.fa" "$work/t.fa" > /dev/null
    t1=$(now)
    fasta=$(calc "$t1 - $t0")
    printf "| ssearch36 | %s | %.3f | - | %.2f | - | %.2fx |\n" "$th" "$fasta" "$(calc "$cells / $fasta / 1e9")" \
      "$(calc "$theirs / $fasta")"
  fi
done
