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
# Prints one Markdown row a case, GCUPS over the whole matrix.
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
letters() { grep -v '>' "$1" | tr -d '\n' | wc -c; }
field() { grep -o "\"$1\": [0-9.e+-]*" "$2" | awk '{print $2}' | head -1; }

echo "| case | cells | score | end (query, target) | wall s | compute s | kernel s | GCUPS (compute) | GCUPS (kernel) | passes | 16-bit reruns | peak GPU MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  mode=(--score-only)
  case $c in
    random) read -r q t < <(random_pair) ;;
    homologous) read -r q t < <(homologous_pair 1000000 h1e6 3) ;;
    align) read -r q t < <(homologous_pair 1000000 h1e6 3); mode=() ;;
    huge) read -r q t < <(homologous_pair 10000000 h1e7 10) ;;
    huge-align) read -r q t < <(homologous_pair 10000000 h1e7 10); mode=() ;;
    *) echo "sw-long: unknown case $c (random, homologous, align, huge, huge-align)" >&2; exit 2 ;;
  esac
  out=$work/$c.tsv report=$work/$c.json
  t0=$(date +%s.%N)
  "$build/gpu-sw" -q --strand plus "${mode[@]}" --format tsv --report "$report" --match 1 --mismatch -3 \
    --gap-open 3 --gap-extend 2 "$q" "$t" -o "$out"
  t1=$(date +%s.%N)
  kernel=$(field kernel_seconds "$report")
  [ -n "$kernel" ] || { echo "sw-long: $c did not use the GPU" >&2; exit 1; }
  cells=$(awk "BEGIN { print $(letters "$q") * $(letters "$t") }")
  compute=$(field compute "$report")
  printf "| %s | %.3e | %s | (%s, %s) | %.2f | %.3f | %.3f | %.0f | %.0f | %s | %s | %.0f |\n" "$c" "$cells" \
    "$(awk 'NR==2{print $3}' "$out")" "$(awk 'NR==2{print $5}' "$out")" "$(awk 'NR==2{print $7}' "$out")" \
    "$(awk "BEGIN { print $t1 - $t0 }")" "$compute" "$kernel" "$(awk "BEGIN { print $cells / $compute / 1e9 }")" \
    "$(awk "BEGIN { print $cells / $kernel / 1e9 }")" "$(field passes "$report")" "$(field overflow_reruns "$report")" \
    "$(awk "BEGIN { print $(field peak_memory_bytes "$report") / 1048576 }")"
done
