#!/usr/bin/env bash
# gpu-fold (issue 5): the GPU's blocked Nussinov against OMP2 on all cores,
# in one run, at the dissertation's sizes (table 7-2: 2,000 to 26,000) and
# beyond (37,000, 65,000, 100,000); random RNA, --min-loop 1 (the
# dissertation's recurrence). OMP2 runs up to 16,000 only (minutes beyond;
# its time grows as n^3). Fill times come from the timing report: device
# time of the fill on the GPU ("fill_seconds"), the compute phase on the
# CPU. Prints a Markdown table for bench/RESULTS.md. TUNE="rounds=8
# min_slice=256" passes each key=value to the GPU runs as --tune (the
# slicing of k, fold.hpp's GpuTuning).
# Usage: [TUNE="key=value ..."] scripts/bench/fold.sh [build-dir] [sizes...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
sizes=${*:-2000 4000 8000 16000 26000 37000 65000 100000}
cpu_max=${CPU_MAX:-16000}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
threads=$(nproc)
tune=()
for kv in ${TUNE:-}; do tune+=(--tune "$kv"); done
[ -x "$build/gpu-fold" ] || { echo "fold: $build/gpu-fold missing: build first" >&2; exit 1; }
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | head -1 | awk '{print $2}'; }
echo "| n | engine | pairs | fill s | copy to host s | traceback s | compute s | wall s | G ops/s (n^3/6 over fill) | of the 16.1T max-plus ceiling |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
  fa=$work/rna$n.fa
  [ -s "$fa" ] || scripts/bench/make_fasta.py random --alphabet rna --length "$n" --seed "$n" --name "rna$n" > "$fa"
  for engine in gpu omp2; do
    [ "$engine" = omp2 ] && [ "$n" -gt "$cpu_max" ] && continue
    t0=$(date +%s.%N)
    flags=()
    [ "$engine" = gpu ] && flags=(${tune[@]+"${tune[@]}"})
    "$build/gpu-fold" -q --engine "$engine" ${flags[@]+"${flags[@]}"} --min-loop 1 --format tsv --report "$work/r.json" "$fa" -o "$work/o.tsv"
    t1=$(date +%s.%N)
    compute=$(field "$work/r.json" compute)
    fill=$([ "$engine" = gpu ] && field "$work/r.json" fill_seconds || echo "$compute")
    trace=$([ "$engine" = gpu ] && field "$work/r.json" trace_seconds || echo "-")
    copy=$([ "$engine" = gpu ] && field "$work/r.json" copy_seconds || echo "-")
    pairs=$(awk '!/^#/{print $3; exit}' "$work/o.tsv")
    awk -v n="$n" -v e="$engine" -v p="$pairs" -v f="$fill" -v c="$compute" -v tb="$trace" -v cp="$copy" -v w="$(awk "BEGIN{print $t1-$t0}")" 'BEGIN {
      ops = n * n * n / 6; rate = ops / f / 1e9
      printf "| %d | %s | %s | %.3f | %s | %s | %.3f | %.2f | %.0f | %s |\n", n, e, p, f, cp, tb, c, w, rate, (e == "gpu" ? sprintf("%.2f", rate / 16100) : "-") }'
  done
done
echo
echo "(OMP2 on $threads threads.)"
