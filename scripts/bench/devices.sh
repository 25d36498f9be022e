#!/usr/bin/env bash
# gpu-sw, gpu-mm, gpu-syntenic and gpu-align3 on several GPUs against one
# (issue 22), on the same machine, the two settings alternated in each
# round:
#   pair     one 1e5 x 1e8 local score-only pair of random DNA (--strand
#            plus), its target cut into a range a GPU; then the same target
#            with an exact copy of the query laid across the first cut (found
#            from the first run's -v line), whose best cell lies in the
#            range after it, reached through the edge handed over
#   long     one 1e7 x 1e7 homologous pair (sw-long.sh's huge-align, its
#            scores), aligned in full: the score pass that saves rows
#            chained over the GPUs, the split's parts spread over them
#   dna      search-dna.sh's workload, scaled: READS reads against TARGETS
#            targets of 1,000 to 10,000 letters, both strands, --top 10
#            --score-only; and aligned (--format sam)
#   protein  search.sh's: four proteins against 400,000, --top 10
#            --score-only; and aligned (--format tsv)
#   mm       gpu-mm, one f32 product of 16384 x 16384 by each of classic,
#            cublas, strassen on cuBLAS (1 level) and winograd (2 levels,
#            classic base), --repeat 3, its product written (--out); and a
#            batch of 64 products of 4096, cublas, --repeat 3
#   syntenic gpu-syntenic, three 1e5 regions against three mutated copies
#            (nine pairs), score only and the listing
#   syntenic_pair gpu-syntenic, one pair: 1e5 x 1e7 random DNA, score
#            only (the pass chained over the GPUs); and a 1e6 region against
#            a mutated copy, aligned (too large for the chunked traceback:
#            the linear-space alignment, its passes two at a time)
#   align3   gpu-align3, three related sequences of 10,000 letters, score
#            only (two half passes, a GPU each); and three of 4,000
#            aligned (the three-phase traceback, on the first GPU)
# Prints a Markdown table: the reports' compute seconds (search: the
# database search's; gpu-mm: the device time), one GPU against all, their
# ratio; then whether each run's output (gpu-mm: the product's .npy) is
# the same bytes on all GPUs as on one (SAM's @PG line and the listing's
# "# Command:", which hold the command line, left out).
# Usage: scripts/bench/devices.sh [build-dir] [devices] [rounds] [case...]
#   (defaults: build, 0,1, 2, pair long dna protein mm syntenic syntenic_pair align3;
#   READS=200 TARGETS=20000)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
devices=${2:-0,1}
rounds=${3:-2}
shift 3 || shift $#
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pair long dna protein mm syntenic syntenic_pair align3)
for tool in gpu-sw gpu-mm gpu-syntenic gpu-align3; do
  [ -x "$build/$tool" ] || { echo "devices: $build/$tool missing: build first" >&2; exit 1; }
done
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
tool=gpu-sw  # the case's tool
declare -A seconds
# run LABEL SETTING FIELD ARGS...: one run of $tool; its FIELD's seconds kept
# under LABEL and SETTING (one or all), its output in WORK/LABEL.SETTING
# (gpu-mm: the product; its table beside it, in .table).
run() {
  local label=$1 setting=$2 key=$3 flag out
  shift 3
  [ "$setting" = one ] && flag="--device $one" || flag="--devices $devices"
  out=(-o "$work/$label.$setting")
  rm -f "$work/$label.$setting"
  if [ "$tool" = gpu-mm ]; then
    out=(-o "$work/$label.$setting.table")
    [[ " $* " = *" --batch "* ]] || out+=(--out "$work/$label.$setting")
  fi
  "$build/$tool" -v $flag --report "$work/r.json" "$@" "${out[@]}" 2> "$work/$label.$setting.err"
  seconds[$label.$setting]+="$(field "$work/r.json" "$key") "
  if [ "${label%_sam}" != "$label" ] || [ "${label%_listing}" != "$label" ]; then
    grep -v '^@PG\|^# Command:' "$work/$label.$setting" > "$work/x" && mv "$work/x" "$work/$label.$setting"
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
    long)
      make=scripts/bench/make_fasta.py
      [ -s "$work/h1e7.fa" ] || $make random --length 10000000 --seed 21 --name h1e7 > "$work/h1e7.fa"
      [ -s "$work/h1e7_copy.fa" ] || $make mutate --input "$work/h1e7.fa" --rate 0.01 --indel-rate 0.001 --blocks 10 \
        --block-length 20000 --seed 22 --name h1e7_copy > "$work/h1e7_copy.fa"
      for round in $(seq "$rounds"); do
        both long_aligned compute --strand plus --format tsv --match 1 --mismatch -3 --gap-open 3 --gap-extend 2 \
          "$work/h1e7.fa" "$work/h1e7_copy.fa"
      done
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
    mm)
      tool=gpu-mm
      for round in $(seq "$rounds"); do
        both mm_classic compute --n 16384 --algo classic --repeat 3
        both mm_cublas compute --n 16384 --algo cublas --repeat 3
        both mm_strassen compute --n 16384 --algo strassen --base cublas --levels 1 --repeat 3
        both mm_winograd compute --n 16384 --algo winograd --levels 2 --repeat 3
        both mm_batch compute --n 4096 --batch 64 --algo cublas --repeat 3
      done
      tool=gpu-sw
      ;;
    syntenic)
      tool=gpu-syntenic
      gen=scripts/bench/make_fasta.py
      if [ ! -s "$work/syn_q.fa" ]; then
        for k in 1 2 3; do
          "$gen" random --alphabet dna --length 100000 --seed $((60 + k)) --name "region_$k" > "$work/syn_q$k.fa"
          "$gen" mutate --input "$work/syn_q$k.fa" --rate 0.05 --blocks 10 --block-length 2000 --seed $((70 + k)) \
            --name "copy_$k" > "$work/syn_t$k.fa"
        done
        cat "$work"/syn_t[123].fa > "$work/syn_t.fa"
        cat "$work"/syn_q[123].fa > "$work/syn_q.fa"
      fi
      for round in $(seq "$rounds"); do
        both syntenic_scores compute --score-only --format tsv "$work/syn_q.fa" "$work/syn_t.fa"
      done
      both syntenic_listing compute "$work/syn_q.fa" "$work/syn_t.fa"
      tool=gpu-sw
      ;;
    syntenic_pair)
      tool=gpu-syntenic
      gen=scripts/bench/make_fasta.py
      [ -s "$work/synp_q.fa" ] || "$gen" random --alphabet dna --length 100000 --seed 91 --name q1e5 > "$work/synp_q.fa"
      [ -s "$work/synp_t.fa" ] || "$gen" random --alphabet dna --length 10000000 --seed 92 --name t1e7 > "$work/synp_t.fa"
      [ -s "$work/synp_a.fa" ] || "$gen" random --alphabet dna --length 1000000 --seed 93 --name region > "$work/synp_a.fa"
      [ -s "$work/synp_b.fa" ] || "$gen" mutate --input "$work/synp_a.fa" --rate 0.05 --blocks 20 --block-length 5000 \
        --seed 94 --name copy > "$work/synp_b.fa"
      for round in $(seq "$rounds"); do
        both synpair_score compute --score-only --format tsv "$work/synp_q.fa" "$work/synp_t.fa"
      done
      both synpair_aligned compute --format tsv "$work/synp_a.fa" "$work/synp_b.fa"
      tool=gpu-sw
      ;;
    align3)
      tool=gpu-align3
      gen=scripts/bench/make_fasta.py
      for len in 10000 4000; do
        [ -s "$work/trio$len.fa" ] && continue
        "$gen" random --alphabet dna --length $len --seed 81 --name a > "$work/a$len.fa"
        "$gen" mutate --input "$work/a$len.fa" --rate 0.1 --indel-rate 0.02 --seed 82 --name b > "$work/b$len.fa"
        "$gen" mutate --input "$work/a$len.fa" --rate 0.1 --indel-rate 0.02 --seed 83 --name c > "$work/c$len.fa"
        cat "$work/a$len.fa" "$work/b$len.fa" "$work/c$len.fa" > "$work/trio$len.fa"
      done
      for round in $(seq "$rounds"); do
        both align3_score compute --score-only --format tsv "$work/trio10000.fa"
      done
      both align3_aligned compute --format tsv "$work/trio4000.fa"
      tool=gpu-sw
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
  [ -e "$work/$label.one" ] || same="n/a (no --out with --batch)"
  echo "| $label | ${a[*]} | ${b[*]} | $(calc "$mean_a / $mean_b") | $same |"
done
