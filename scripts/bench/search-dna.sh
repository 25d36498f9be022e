#!/usr/bin/env bash
# DNA search on the GPU (issue 20): reads of 150 to 1,000 letters against
# targets of 1,000 to 10,000 (make_dna_search.py: each read cut from a
# target, mutated, every other one reverse complemented), both strands,
# gpu-sw's default DNA scoring, local, --top 10. The issue's workload is
# 10,000 reads x 100,000 targets (about 6.3e15 cells over both strands);
# the arguments scale it down. GCUPS over the report's compute phase (the
# database's upload, every score pass, the kept hits' end cells or
# alignments) and over the kernels alone; also how many reads have their
# source target as their best hit, on the right strand.
# With a shard K/N, only the score-only row, over the Kth of N equal runs
# of the reads (a workload longer than one command may run, in parts).
# Usage: scripts/bench/search-dna.sh [build-dir] [reads] [targets] [K/N]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
reads=${2:-10000}
targets=${3:-100000}
shard=${4:-}
[ -x "$build/gpu-sw" ] || { echo "search-dna: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
t="$work/dna_t$targets.fa" r="$work/dna_r$reads.fa"
[ -s "$t" ] && [ -s "$r" ] ||
  scripts/bench/make_dna_search.py --targets "$targets" --reads "$reads" --seed 5 --out-targets "$t" --out-reads "$r"

if [ -n "$shard" ]; then
  k=${shard%/*} n=${shard#*/}
  [[ "$k" =~ ^[0-9]+$ && "$n" =~ ^[0-9]+$ && $k -ge 1 && $k -le $n ]] ||
    { echo "search-dna: shard is K/N with 1 <= K <= N, not $shard" >&2; exit 2; }
  first=$(( (k - 1) * reads / n )) last=$(( k * reads / n ))
  awk -v a="$first" -v b="$last" '/^>/ { i++ } i > a && i <= b' "$r" > "$work/dna_r${reads}_${k}of${n}.fa"
  r="$work/dna_r${reads}_${k}of${n}.fa" reads=$((last - first))
fi

calc() { awk "BEGIN { print $* }"; }
field() { { grep -o "\"$2\": [0-9.e+-]*" "$1" || true; } | awk '{print $2}' | head -1; }
echo "$reads reads x $targets targets, both strands${shard:+ (shard $shard)}"
echo
echo "| run | cells | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) | reads whose best hit is their source, right strand |"
echo "|---|---|---|---|---|---|---|"
row() {  # label flags...
  local label=$1; shift
  "$build/gpu-sw" -q --top 10 --format tsv --report "$work/r.json" "$@" "$r" "$t" -o "$work/out.tsv"
  local cells compute kernel right
  cells=$(field "$work/r.json" cells)
  compute=$(field "$work/r.json" compute)
  kernel=$(field "$work/r.json" kernel_seconds)
  # A query's first row is its best; its name says its source and strand.
  right=$(awk -F'\t' '!/^#/ && !seen[$1]++ { split($1, p, "_"); if ("t" substr(p[2], 2) == $2 && (p[3] == "plus") == ($10 == "+")) n++ } END { print n + 0 }' "$work/out.tsv")
  local kernel_rate=-
  [ -n "$kernel" ] && kernel_rate=$(calc "$cells / $kernel / 1e9")
  echo "| $label | $(calc "$cells / 1e9")e9 | $compute | ${kernel:--} | $(calc "$cells / $compute / 1e9") | $kernel_rate | $right of $reads |"
}
row "score-only, top 10${shard:+, reads $((first + 1)) to $last}" --score-only
[ -n "$shard" ] || row "top 10 aligned"
