#!/usr/bin/env bash
# Protein database search on the GPU (issue 20): CUDASW++4.0's synthetic
# workload, four queries (144, 375, 729 and 1,500 letters) against 400,000
# proteins (lengths log-normal around 300, clipped to 30-5,000; about 143 M
# residues), BLOSUM62, a gap of length k costing 10 + k (--gap-open 10
# --gap-extend 1). GCUPS over the whole search: the database's upload and
# the scoring, from sorting the targets to the last query's scores (the
# report's database_search_seconds); and over the report's compute phase,
# which also finishes each query's 10 kept hits (aligned, or with
# --score-only their end cells on the CPU), the last query's after its
# scores. Reading the FASTA is not counted; nor is writing the output (the
# report's write phase).
# Prints a Markdown table for bench/RESULTS.md.
# Usage: scripts/bench/search.sh [build-dir] [targets]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
count=${2:-400000}
[ -x "$build/gpu-sw" ] || { echo "search: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
. scripts/bench/search_inputs.sh
search_inputs "$work" "$count"

db_res=$(len "$work/db$count.fa")
echo "database: $count targets, $db_res residues"
echo
echo "| queries | run | cells | search s | compute s | kernel s | GCUPS (search) | GCUPS (compute) | GCUPS (kernel) | search vs CUDASW++4.0 3,607 | 16-bit reruns |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
row() {  # query-file label flags...
  local q=$1 label=$2; shift 2
  local cells search compute kernel reruns
  cells=$(calc "$(len "$q") * $db_res")
  "$build/gpu-sw" -q --gap-open 10 --gap-extend 1 --report "$work/r.json" "$@" "$q" "$work/db$count.fa" \
    -o "$work/out.txt"
  search=$(field "$work/r.json" database_search_seconds || true)  # none in builds before it
  compute=$(field "$work/r.json" compute)
  kernel=$(field "$work/r.json" kernel_seconds)
  reruns=$(field "$work/r.json" overflow_reruns)
  # No database search where every pair is aligned: "-".
  local search_rate=- search_ratio=-
  if [ "$(calc "(${search:-0} > 0)")" = 1 ]; then
    search_rate=$(calc "$cells / $search / 1e9")
    search_ratio=$(calc "$search_rate / 3607")
  fi
  echo "| $(basename "$q" .fa) | $label | $(calc "$cells / 1e9")e9 | ${search:--} | $compute | $kernel | $search_rate | $(calc "$cells / $compute / 1e9") | $(calc "$cells / $kernel / 1e9") | $search_ratio | $reruns |"
}
row "$work/q4.fa" "score-only, top 10" --top 10 --score-only --format tsv
row "$work/q4.fa" "top 10 aligned" --top 10 --format tsv
# The database streamed in chunks of a quarter of it, as one larger than the
# device's memory would be.
row "$work/q4.fa" "score-only, top 10, streamed in 4 chunks" --top 10 --score-only --format tsv \
  --tune "db_chunk=$((db_res / 4 + 1))"
for m in 144 375 729 1500; do row "$work/q$m.fa" "score-only, top 10" --top 10 --score-only --format tsv; done
# BLAST's way: every hit of E-value at most 10, aligned; and every pair
# aligned (1.6 M alignments by the batch alignment kernel; its kernel
# seconds are both kernels').
row "$work/q4.fa" "blast6, every hit of E <= 10" --format blast6
row "$work/q4.fa" "every pair aligned" --format tsv
