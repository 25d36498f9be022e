#!/usr/bin/env bash
# gpu-sw on long DNA pairs (issue 21), local, with MASA-CUDAlign's scores:
# match +1, mismatch -3, a gap of length k costing 3 + 2k. The pairs come
# from fixed seeds into WORK (made once, then reused):
#   random      1e5 x 1e7 random letters, score only
#   homologous  1e6 x 1e6: a random sequence and a copy with 1% substitutions,
#               0.1% one-letter indels and three unrelated stretches of about
#               20,000 letters, score only
#   align       the homologous pair, aligned in full (TSV with its CIGAR)
#   huge        1e7 x 1e7 homologous as above (ten stretches), score only
#   huge-align  the 1e7 x 1e7 pair, aligned in full
#   chromosome  5e7 x 5e7 homologous as above (fifty stretches), score only,
#               saved to WORK/chromosome.ckpt and stopped before STOP_AFTER
#               seconds (default 540) have passed: run the same command again
#               until the row gives the score (a command may run 10 minutes)
# Prints one Markdown row a case, GCUPS over the cells the run computed (the
# whole matrix but for a chromosome run that went on from, or stopped at, a
# checkpoint: its columns are in the end column).
# Usage: scripts/bench/sw-long.sh [build-dir] [case...]   (default: random homologous)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(random homologous)
[ -x "$build/gpu-sw" ] || { echo "sw-long: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
make=scripts/bench/make_fasta.py

random_pair() {
  [ -s "$work/r1e5.fa" ] || $make random --length 100000 --seed 42 --name r1e5 > "$work/r1e5.fa"
  [ -s "$work/r1e7.fa" ] || $make random --length 10000000 --seed 43 --name r1e7 > "$work/r1e7.fa"
  echo "$work/r1e5.fa $work/r1e7.fa"
}
# homologous_pair LENGTH NAME STRETCHES
homologous_pair() {
  local q=$work/$2.fa t=$work/$2_copy.fa
  [ -s "$q" ] || $make random --length "$1" --seed 21 --name "$2" > "$q"
  [ -s "$t" ] || $make mutate --input "$q" --rate 0.01 --indel-rate 0.001 --blocks "$3" --block-length 20000 \
    --seed 22 --name "$2_copy" > "$t"
  echo "$q $t"
}
field() { grep -o "\"$1\": [0-9.e+-]*" "$2" | awk '{print $2}' | head -1; }

echo "| case | cells | score | end (query, target) | wall s | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) | passes | 16-bit reruns | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  mode=(--score-only)
  saved=()
  case $c in
    random) read -r q t < <(random_pair) ;;
    homologous) read -r q t < <(homologous_pair 1000000 h1e6 3) ;;
    align) read -r q t < <(homologous_pair 1000000 h1e6 3); mode=() ;;
    huge) read -r q t < <(homologous_pair 10000000 h1e7 10) ;;
    huge-align) read -r q t < <(homologous_pair 10000000 h1e7 10); mode=() ;;
    chromosome)
      read -r q t < <(homologous_pair 50000000 h5e7 50)
      saved=(--checkpoint "$work/chromosome.ckpt" --stop-after "${STOP_AFTER:-540}") ;;
    *) echo "sw-long: unknown case $c (random, homologous, align, huge, huge-align, chromosome)" >&2; exit 2 ;;
  esac
  out=$work/$c.tsv report=$work/$c.json
  rm -f "$out" "$report"
  t0=$(date +%s.%N)
  status=0
  "$build/gpu-sw" -q --strand plus "${mode[@]}" "${saved[@]}" --format tsv --report "$report" --match 1 --mismatch -3 \
    --gap-open 3 --gap-extend 2 "$q" "$t" -o "$out" || status=$?
  t1=$(date +%s.%N)
  [ "$status" = 0 ] || [ "$status" = 75 ] || exit "$status"
  kernel=$(field kernel_seconds "$report")
  [ -n "$kernel" ] || { echo "sw-long: $c did not use the GPU" >&2; exit 1; }
  cells=$(field cells "$report")
  compute=$(field compute "$report")
  score=$(awk 'NR==2{print $3}' "$out" 2>/dev/null || true)
  [ "$status" = 75 ] && score="stopped at column $(field stopped_at_column "$report")"
  [ ${#saved[@]} = 0 ] || score="$score; went on from column $(field resumed_from_column "$report")"
  printf "| %s | %.3e | %s | (%s, %s) | %.2f | %.3f | %.3f | %.0f | %.0f | %s | %s | %.0f |\n" "$c" "$cells" \
    "$score" "$(awk 'NR==2{print $5}' "$out" 2>/dev/null)" "$(awk 'NR==2{print $7}' "$out" 2>/dev/null)" \
    "$(awk "BEGIN { print $t1 - $t0 }")" "$compute" "$kernel" "$(awk "BEGIN { print $cells / $compute / 1e9 }")" \
    "$(awk "BEGIN { print $cells / $kernel / 1e9 }")" "$(field passes "$report")" "$(field overflow_reruns "$report")" \
    "$(awk "BEGIN { print $(field peak_memory_bytes "$report") / 1048576 }")"
done
