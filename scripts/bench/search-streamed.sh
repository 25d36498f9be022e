#!/usr/bin/env bash
# Database search with a database of twice the free device memory (issue
# 20): a helper (hold_device_memory.cu) holds all but LEAVE MiB of the
# device's memory, and the database is copies of search.sh's 400,000
# proteins (ids renamed) until its residues reach twice the free bytes, so
# gpu-sw must stream it in chunks. The four queries of search.sh, BLOSUM62,
# gaps 10 + k, --top 10, score only; then the same run with the memory
# released (chunks as large as the whole device allows), and the two
# outputs compared byte for byte. GCUPS over the report's compute phase and
# the kernels; the timing report's count of the database's chunks.
# Usage: scripts/bench/search-streamed.sh [build-dir] [leave-MiB]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
leave=${2:-2048}
[ -x "$build/gpu-sw" ] || { echo "search-streamed: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O2 -arch=sm_90 -o "$work/hold_device_memory" scripts/bench/hold_device_memory.cu
. scripts/bench/search_inputs.sh
search_inputs "$work" 400000

rm -f "$work/free"
"$work/hold_device_memory" "$leave" > "$work/free" &
holder=$!
trap 'kill $holder 2>/dev/null || true' EXIT
trap 'exit 1' INT TERM
while [ ! -s "$work/free" ]; do
  kill -0 $holder 2>/dev/null || { echo "search-streamed: the memory holder failed" >&2; exit 1; }
  sleep 1
done
free_mib=$(cat "$work/free")
copy_res=$(len "$work/db400000.fa")
copies=$(( (2 * free_mib * 1048576 + copy_res - 1) / copy_res ))
db="$work/db_x$copies.fa"
[ -s "$db" ] || for c in $(seq 1 "$copies"); do sed "s/^>t/>c${c}_t/" "$work/db400000.fa"; done > "$db"
db_res=$(calc "$copy_res * $copies")
cells=$(calc "$(len "$work/q4.fa") * $db_res")
echo "free device memory: $free_mib MiB; database: $copies copies of 400,000 proteins, $db_res residues ($(calc "$db_res / ($free_mib * 1048576)")x the free bytes)"
echo
echo "| run | free device memory | database chunks | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) |"
echo "|---|---|---|---|---|---|---|"
row() {  # label free-MiB output
  "$build/gpu-sw" -q --gap-open 10 --gap-extend 1 --top 10 --score-only --format tsv --report "$work/r.json" \
    "$work/q4.fa" "$db" -o "$3"
  local compute kernel chunks
  compute=$(field "$work/r.json" compute)
  kernel=$(field "$work/r.json" kernel_seconds)
  chunks=$(field "$work/r.json" database_chunks)
  echo "| $1 | $2 MiB | $chunks | $compute | $kernel | $(calc "$cells / $compute / 1e9") | $(calc "$cells / $kernel / 1e9") |"
}
row "streamed" "$free_mib" "$work/streamed.tsv"
kill $holder
wait $holder 2>/dev/null || true
row "memory released" "all" "$work/released.tsv"
cmp -s "$work/streamed.tsv" "$work/released.tsv" && echo && echo "The two outputs are identical." ||
  { echo "search-streamed: the two runs' outputs differ" >&2; exit 1; }
