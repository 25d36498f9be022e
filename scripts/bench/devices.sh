#!/usr/bin/env bash
# gpu-sw on several GPUs against one (issue 22), on the same machine, the
# two settings alternated in each round:
#   pair     one 1e5 x 1e8 local score-only pair of random DNA (--strand
#            plus), its target cut into a range a GPU; then the same target
#            with an exact copy of the query laid across the first cut (found
#            from the first run's -v line), whose best cell lies in the
#            range after it, reached through the edge handed over
#   dna      search-dna.sh's workload, scaled: READS reads against TARGETS
#            targets of 1,000 to 10,000 letters, both strands, --top 10
#            --score-only; and aligned (--format sam)
#   protein  search.sh's: four proteins against 400,000, --top 10
#            --score-only; and aligned (--format tsv)
# Prints a Markdown table: the reports' compute seconds (search: the
# database search's), one GPU against all, their ratio; then whether each
# run's output is the same bytes on all GPUs as on one (SAM's @PG line, which
# holds the command line, left out).
# Usage: scripts/bench/devices.sh [build-dir] [devices] [rounds] [case...]
#   (defaults: build, 0,1, 2, pair dna protein; READS=200 TARGETS=20000)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
devices=${2:-0,1}
rounds=${3:-2}
shift 3 || shift $#
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pair dna protein)
[ -x "$build/gpu-sw" ] || { echo "devices: $build/gpu-sw missing: build first" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
reads=${READS:-200} targets=${TARGETS:-20000}

# random_dna NAME LENGTH SEED: one record of random letters on one line.
random_dna() {
  python3 -c 'import random, sys
random.seed(int(sys.argv[3]))
table = bytes.maketrans(bytes(range(256)), b"ACGT" * 64)
out = sys.stdout.buffer
out.write(b">" + sys.argv[1].encode() + b"\n")
out.write(random.randbytes(int(sys.argv[2])).translate(table) + b"\n")' "$@"
}
field() { { grep -o "\"$2\": [0-9.e+-]*" "$1" || true; } | awk '{print $2}' | head -1; }
calc() { awk "BEGIN { printf \"%.3g\", $* }"; }

one=${devices%%,*}
declare -A seconds
# run LABEL SETTING FIELD ARGS...: one gpu-sw run; its FIELD's seconds kept
# under LABEL and SETTING (one or all), its output in WORK/LABEL.SETTING.
run() {
  local label=$1 setting=$2 key=$3 flag
  shift 3
  [ "$setting" = one ] && flag="--device $one" || flag="--devices $devices"
  "$build/gpu-sw" -v $flag --report "$work/r.json" "$@" -o "$work/$label.$setting" 2> "$work/$label.$setting.err"
  seconds[$label.$setting]+="$(field "$work/r.json" "$key") "
  if [ "${label%_sam}" != "$label" ]; then
    grep -v '^@PG' "$work/$label.$setting" > "$work/x" && mv "$work/x" "$work/$label.$setting"
  fi
}
runs=()
both() {  # LABEL FIELD ARGS...: the two settings, one after the other
  runs+=("$1")
  run "$1" one "${@:2}"
  run "$1" all "${@:2}"
}

for c in "${cases[@]}"; do
  case $c in
    pair)
      [ -s "$work/q1e5.fa" ] || random_dna q1e5 100000 11 > "$work/q1e5.fa"
      [ -s "$work/t1e8.fa" ] || random_dna t1e8 100000000 12 > "$work/t1e8.fa"
      for round in $(seq "$rounds"); do
        both pair_random compute --score-only --strand plus --format tsv "$work/q1e5.fa" "$work/t1e8.fa"
      done
      cut=$(grep -o 'columns from [0-9]*' "$work/pair_random.all.err" | head -1 | awk '{print $3}')
      [ -n "$cut" ] || { echo "devices: the pair was not spread (no range in -v)" >&2; exit 1; }
      python3 -c 'import sys
query = open(sys.argv[1]).read().split("\n")[1]
target = open(sys.argv[2]).read().split("\n")[1]
at = int(sys.argv[3]) - 1000
sys.stdout.write(">t1e8_across\n" + target[:at] + query + target[at + len(query):] + "\n")' \
        "$work/q1e5.fa" "$work/t1e8.fa" "$cut" > "$work/t1e8_across.fa"
      both pair_across compute --score-only --strand plus --format tsv "$work/q1e5.fa" "$work/t1e8_across.fa"
      ;;
    dna)
      t="$work/dna_t$targets.fa" r="$work/dna_r$reads.fa"
      [ -s "$t" ] && [ -s "$r" ] ||
        scripts/bench/make_dna_search.py --targets "$targets" --reads "$reads" --seed 5 --out-targets "$t" --out-reads "$r"
      for round in $(seq "$rounds"); do
        both dna_scores database_search_seconds --top 10 --score-only --format tsv "$r" "$t"
      done
      both dna_sam compute --top 10 --format sam "$r" "$t"
      ;;
    protein)
      . scripts/bench/search_inputs.sh
      search_inputs "$work" 400000
      for round in $(seq "$rounds"); do
        both protein_scores database_search_seconds --gap-open 10 --gap-extend 1 --top 10 --score-only --format tsv \
          "$work/q4.fa" "$work/db400000.fa"
      done
      both protein_aligned compute --gap-open 10 --gap-extend 1 --top 10 --format tsv "$work/q4.fa" "$work/db400000.fa"
      ;;
    *) echo "devices: unknown case $c" >&2; exit 2 ;;
  esac
done

echo "| run | seconds, GPU $one | seconds, GPUs $devices | ratio (the means) | same bytes |"
echo "|---|---|---|---|---|"
declare -A seen
for label in "${runs[@]}"; do
  [ -z "${seen[$label]:-}" ] || continue
  seen[$label]=1
  a=(${seconds[$label.one]}) b=(${seconds[$label.all]})
  mean_a=$(printf '%s\n' "${a[@]}" | awk '{ s += $1 } END { print s / NR }')
  mean_b=$(printf '%s\n' "${b[@]}" | awk '{ s += $1 } END { print s / NR }')
  same=no
  cmp -s "$work/$label.one" "$work/$label.all" && same=yes
  echo "| $label | ${a[*]} | ${b[*]} | $(calc "$mean_a / $mean_b") | $same |"
done
