#!/usr/bin/env bash
# compute-sanitizer's four tools (memcheck, racecheck, synccheck, initcheck)
# over small runs of gpu-sw's GPU paths: every score kernel of the table
# (--tune kernel=NAME), the 32-bit kernel in global mode with strips handing
# over in shared memory and through a ring of two slots, and the chunked
# traceback. Fails if any run reports anything. On the GPU machine, after
# scripts/gpu-test.sh --build-only (or give the build folder).
# Usage: scripts/gpu-sanitize.sh [build-dir]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
[ -x "$build/gpu-sw" ] || { echo "gpu-sanitize: $build/gpu-sw missing: build first" >&2; exit 2; }
[ -d .deps/root ] && export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=$(mktemp -d)
gen=scripts/bench/make_fasta.py
"$gen" random --alphabet dna --length 300 --seed 1 --name q > "$work/q.fa"
"$gen" random --alphabet dna --length 5000 --seed 2 --name t > "$work/t.fa"
# 4,200 x 4,200 cells pass the engine's 2^24 for the GPU traceback.
"$gen" random --alphabet dna --length 4200 --seed 3 --name a > "$work/a.fa"
"$gen" mutate --input "$work/a.fa" --rate 0.1 --seed 4 --name b > "$work/b.fa"
failed=0
san() {  # tool, then the command
  local tool=$1
  shift
  if compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" > "$work/out" 2>&1; then
    echo "clean  $tool: $*"
  else
    echo "FAILED $tool: $*"
    grep -m5 -E "ERROR|Hazard|hazard|Race" "$work/out"
    failed=1
  fi
}
kernels="sw_striped_s32_c8 sw_striped_s32_c16 sw_striped_s16_diag_c8 sw_striped_s16_diag_c64 sw_striped_s16_rows_c8 sw_striped_s16_rows_c64"
for tool in memcheck racecheck synccheck initcheck; do
  for k in $kernels; do
    san "$tool" "$build/gpu-sw" -q --score-only --format tsv --tune "kernel=$k" "$work/q.fa" "$work/t.fa"
  done
  san "$tool" "$build/gpu-sw" -q --score-only --mode global --format tsv "$work/q.fa" "$work/t.fa"
  san "$tool" "$build/gpu-sw" -q --score-only --mode global --format tsv --tune group=1 --tune max_slots=2 "$work/q.fa" "$work/t.fa"
  san "$tool" "$build/gpu-sw" -q --format tsv "$work/a.fa" "$work/b.fa"
done
rm -rf "$work"
exit $failed
