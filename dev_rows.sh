#!/usr/bin/env bash
set -uo pipefail
scripts/gpu-test.sh --build-only > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
W=/tmp/w; mkdir -p $W
scripts/bench/make_fasta.py random --alphabet dna --length 100000 --seed 42 --name q1e5 > $W/q.fa
scripts/bench/make_fasta.py random --alphabet dna --length 10000 --seed 41 --name q1e4 > $W/q4.fa
scripts/bench/make_fasta.py random --alphabet dna --length 1000 --seed 40 --name q1e3 > $W/q3.fa
scripts/bench/make_fasta.py random --alphabet dna --length 1000000 --seed 43 --name t1e6 > $W/t6.fa
scripts/bench/make_fasta.py random --alphabet dna --length 3000000 --seed 46 --name t3e6 > $W/t3e6.fa
row() { # label query target env...
  local label=$1 qf=$2 tf=$3; shift 3
  env "$@" build-gpu/gpu-sw -q --score-only --format tsv --report $W/r.json --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 $qf $tf -o $W/o.tsv
  k=$(grep -o '"kernel_seconds": [0-9.e+-]*' $W/r.json | awk '{print $2}')
  c=$(grep -o '"cells": [0-9.e+-]*' $W/r.json | awk '{print $2}')
  echo "| $label | $(awk 'NR==2{print $3, $4, $5}' $W/o.tsv) | $k | $(awk "BEGIN{print $c/$k/1e9}") |"
}
for pair in "q3 t6" "q4 t6" "q t6" "q t3e6"; do
  set -- $pair; qf=$W/$1.fa; tf=$W/$2.fa
  row "$1 $2 diag default" $qf $tf
  for c in 8 16 32 64; do row "$1 $2 diag $c" $qf $tf GPUDP_SW_LANE_COLUMNS=$c; done
  row "$1 $2 rows default" $qf $tf GPUDP_SW_KERNEL16=rows
  for c in 8 16 32 64; do for b in 1 2 3 4; do
    row "$1 $2 rows $c b$b" $qf $tf GPUDP_SW_KERNEL16=rows GPUDP_SW_LANE_COLUMNS=$c GPUDP_SW_BLOCKS_PER_SM=$b
  done; done
done
export GPUDP_REQUIRE_GPU=1
GPUDP_SW_KERNEL16=rows timeout 300 build-gpu/gpudp_tests "16-bit GPU pass equals the oracle*" 2>&1 | tail -3
