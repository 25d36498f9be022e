#!/usr/bin/env bash
# gpu-sw on the CPU against parasail, on the same inputs, in one run:
#   gpu-sw --cpu --score-only (1 thread, then all threads), parasail's striped
#   32-bit local alignment (1 thread), on 20,000 x 20,000 DNA and 5,000 x 5,000
#   protein; then the peak memory of a full linear-space alignment of
#   30,000 x 30,000 DNA. Prints a Markdown table for bench/RESULTS.md.
# Usage: scripts/bench/sw-cpu.sh [build-dir]   (builds first if needed)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
threads=${THREADS:-$(nproc)}
[ -x "$build/gpu-sw" ] || scripts/build.sh
command -v parasail_aligner >/dev/null || { echo "sw-cpu: parasail_aligner missing (scripts/setup.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=scripts/bench/make_fasta.py

$gen random --alphabet dna --length 20000 --seed 11 --name dna_q > "$work/dna_q.fa"
$gen mutate --input "$work/dna_q.fa" --rate 0.1 --seed 12 --name dna_t > "$work/dna_t.fa"
$gen random --alphabet protein --length 5000 --seed 21 --name prot_q > "$work/prot_q.fa"
$gen mutate --input "$work/prot_q.fa" --rate 0.3 --seed 22 --name prot_t > "$work/prot_t.fa"
$gen random --alphabet dna --length 30000 --seed 31 --name long_q > "$work/long_q.fa"
$gen mutate --input "$work/long_q.fa" --rate 0.1 --seed 32 --name long_t > "$work/long_t.fa"

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }
len() { grep -v '>' "$1" | tr -d '\n' | wc -c; }

echo "| input | cells | run | threads | score | wall s | compute s | GCUPS (compute) | speed vs parasail (wall) |"
echo "|---|---|---|---|---|---|---|---|---|"
bench() {  # name query target gpu-sw-scoring-flags parasail-flags
  local name=$1 q=$2 t=$3 ours=$4 theirs=$5
  local cells=$(( $(len "$q") * $(len "$t") ))
  local t0 t1 ps pscore
  t0=$(now)
  pscore=$(cd "$work" && parasail_aligner -a sw_striped_32 -x -t 1 $theirs -f "$t" -q "$q" -g "$work/p.csv" 0<&- >/dev/null 2>&1; cut -d, -f5 "$work/p.csv")
  t1=$(now)
  ps=$(calc "$t1 - $t0")
  for th in 1 "$threads"; do
    local score secs compute
    t0=$(now)
    score=$("$build/gpu-sw" -q --cpu --strand plus --threads "$th" --score-only --format tsv --report "$work/r.json" $ours "$q" "$t" | awk 'NR==2{print $3}')
    t1=$(now)
    secs=$(calc "$t1 - $t0")
    compute=$(grep -o '"compute": [0-9.e+-]*' "$work/r.json" | awk '{print $2}')
    printf "| %s | %.2e | gpu-sw --cpu | %s | %s | %.3f | %.3f | %.3f | %.2fx |\n" "$name" "$cells" "$th" "$score" "$secs" \
      "$compute" "$(calc "$cells / $compute / 1000000000")" "$(calc "$ps / $secs")"
  done
  printf "| %s | %.2e | parasail sw_striped_32 | 1 | %s | %.3f | - | %.3f (wall) | 1.00x |\n" "$name" "$cells" "$pscore" "$ps" \
    "$(calc "$cells / $ps / 1000000000")"
}
# parasail's open is our open + extend (its gap of k costs open + (k-1)*extend).
bench "DNA 20k x 20k" "$work/dna_q.fa" "$work/dna_t.fa" "--match 2 --mismatch -3 --gap-open 5 --gap-extend 2" "-d -M 2 -X 3 -o 7 -e 2"
bench "protein 5k x 5k" "$work/prot_q.fa" "$work/prot_t.fa" "--matrix BLOSUM62 --gap-open 11 --gap-extend 1" "-m blosum62 -o 12 -e 1"

echo
echo "Full alignment (linear space), DNA 30k x 30k, all threads:"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "%e s wall, %M KB peak resident" "$build/gpu-sw" -q --cpu --strand plus --threads "$threads" --format tsv \
    "$work/long_q.fa" "$work/long_t.fa" 2>&1 >/dev/null | tail -1
else  # GNU time missing: the kernel's high-water mark of the process
  "$build/gpu-sw" -q --cpu --strand plus --threads "$threads" --format tsv "$work/long_q.fa" "$work/long_t.fa" >/dev/null &
  pid=$!; peak=0
  while kill -0 $pid 2>/dev/null; do
    kb=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null || echo 0); [ "${kb:-0}" -gt "$peak" ] && peak=$kb; sleep 0.05
  done
  echo "$peak KB peak resident (sampled)"
fi
