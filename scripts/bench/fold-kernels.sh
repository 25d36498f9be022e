#!/usr/bin/env bash
# gpu-fold (issue 5): where the fill's device time goes, kernel by kernel,
# at one size (default n = 26,000, --min-loop 1): ncu times every launch
# (--clock-control none: the clocks as the runs find them) and this sums
# them by kernel. Prints a Markdown table for bench/RESULTS.md. TUNE="key=value
# ..." passes each to gpu-fold as --tune (fold.hpp's GpuTuning).
# Usage: [TUNE="key=value ..."] scripts/bench/fold-kernels.sh [build-dir] [n]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
n=${2:-26000}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
tune=()
for kv in ${TUNE:-}; do tune+=(--tune "$kv"); done
fa=$work/rna$n.fa
[ -s "$fa" ] || scripts/bench/make_fasta.py random --alphabet rna --length "$n" --seed "$n" --name "rna$n" > "$fa"
"$ncu" --clock-control none --metrics gpu__time_duration.sum --csv \
  "$build/gpu-fold" -q ${tune[@]+"${tune[@]}"} --min-loop 1 --format tsv "$fa" -o "$work/o.tsv" > "$work/ncu.csv" 2> "$work/ncu.err"
python3 - "$work/ncu.csv" "$n" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
seconds, launches = {}, {}
for row in csv.DictReader(lines[start:]):
    if row["Metric Name"] != "gpu__time_duration.sum":
        continue
    name = row["Kernel Name"].replace("(anonymous namespace)", "").replace("<unnamed>", "")
    found = re.search(r"(\w+)\s*[<(]", name)  # the kernel's own name, before its template arguments or parameters
    name = found.group(1) if found else name
    unit = row["Metric Unit"]
    value = float(row["Metric Value"].replace(",", ""))
    value *= {"nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "msecond": 1e-3, "ms": 1e-3, "second": 1.0, "s": 1.0}[unit]
    seconds[name] = seconds.get(name, 0.0) + value
    launches[name] = launches.get(name, 0) + 1
total = sum(seconds.values())
print(f"| n | kernel | launches | device s | share |")
print("|---|---|---|---|---|")
for name in sorted(seconds, key=lambda k: -seconds[k]):
    print(f"| {sys.argv[2]} | {name} | {launches[name]} | {seconds[name]:.4f} | {seconds[name] / total:.2f} |")
print(f"| {sys.argv[2]} | all | {sum(launches.values())} | {total:.4f} | 1.00 |")
PY
