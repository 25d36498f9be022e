#!/usr/bin/env bash
# compute-sanitizer's four tools (memcheck, racecheck, synccheck, initcheck)
# over small runs of the GPU paths: gpu-sw's every score kernel of the table
# (--tune kernel=NAME), the 16-bit ones also on pairs scoring far past
# 32,767 (the plain ones' passes then run again in the rebased one), its
# global passes (the rebased 16-bit kernel) with strips handing over in
# shared memory and through a ring of two slots, and its chunked traceback
# (its kept pass in the rebased kernel, local and global, far past 32,767,
# and in 32 bits), and the splits of pairs too large for it (at saved rows,
# and by Myers-Miller; and, with --devices all on a machine of two GPUs or
# more, the score pass chained over them); its database
# search (the 16-bit kernel at 12 and 16 rows a lane, streamed, the 32-bit
# one) and batch alignment;
# gpu-syntenic's score kernel at both widths, through a ring of
# two slots and with the target in pieces (and chained over every GPU where
# there are two or more), and its chunked traceback;
# both engines' ring slots of a window of rows that laps (every gpu-sw
# kernel kind), and a gpu-sw score pass taken up from its checkpoint;
# gpu-align3's chunked pass over the cube and its three-phase traceback
# (the traced pass and the walk back); gpu-fold --interact's BPMax kernels
# (the products, split and whole, and the finish by anti-diagonals) on a
# pair of 2 x 130 bases, two blocks of strand 2, and under a window on
# 4 x 300; gpu-fold's Nussinov paths, short records many a launch and a
# record of 600 bases by blocks; gpu-mm's every GPU algorithm (classic in
# each semiring and type, cuBLAS, Strassen and Winograd on both bases, a
# batch) on small uneven shapes; and, on a terminal (script(1)), where
# progress reads gpu-sw's strip ticket and traceback walk while the kernels
# run and counts gpu-fold's fills in stream order, gpu-sw's and
# gpu-syntenic's alignment and score pass and gpu-fold's Nussinov and BPMax
# fills. Each gpu-sw, gpu-syntenic
# and gpu-align3 input is just over the engines' 2^24 cells, below which
# they run on the CPU, and each run's timing report must show a GPU pass. Fails if any run reports anything or
# ran no kernel. On the GPU machine, after scripts/gpu-test.sh --build-only
# (or give the build folder).
# Usage: scripts/gpu-sanitize.sh [build-dir] [pattern]   (pattern: only the
# runs whose command line matches it, an extended regular expression, as
# "ring_rows|checkpoint")
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
only=${2:-}
[ -x "$build/gpu-sw" ] || { echo "gpu-sanitize: $build/gpu-sw missing: build first" >&2; exit 2; }
command -v compute-sanitizer >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
command -v compute-sanitizer >/dev/null || { echo "gpu-sanitize: compute-sanitizer missing" >&2; exit 2; }
[ -d .deps/root ] && export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=$(mktemp -d)
gen=scripts/bench/make_fasta.py
"$gen" random --alphabet dna --length 300 --seed 1 --name q > "$work/q.fa"
"$gen" random --alphabet dna --length 60000 --seed 2 --name t > "$work/t.fa"
# 4,200 x 4,200 cells pass the engine's 2^24 for the GPU traceback.
"$gen" random --alphabet dna --length 4200 --seed 3 --name a > "$work/a.fa"
"$gen" mutate --input "$work/a.fa" --rate 0.1 --seed 4 --name b > "$work/b.fa"
# Similar pairs scoring far past 32,767 (the rebased 16-bit kernel): 6,000
# letters scored in tens (8 and 16 columns a lane, a rebase every 64
# steps), 10,000 in fives (32 and 64 columns).
"$gen" random --alphabet dna --length 6000 --seed 13 --name h > "$work/h6k.fa"
"$gen" mutate --input "$work/h6k.fa" --rate 0.01 --seed 14 --name h2 > "$work/h6k2.fa"
"$gen" random --alphabet dna --length 10000 --seed 15 --name h > "$work/h10k.fa"
"$gen" mutate --input "$work/h10k.fa" --rate 0.01 --seed 16 --name h2 > "$work/h10k2.fa"
# 1,500 x 140,000: one long pair's score pass chained over the GPUs.
"$gen" random --alphabet dna --length 1500 --seed 31 --name c > "$work/c1500.fa"
"$gen" random --alphabet dna --length 140000 --seed 32 --name t > "$work/t140k.fa"
# Three of about 260, 260 and 300 letters: just over 2^24 cells, gpu-align3's GPU passes.
"$gen" random --alphabet dna --length 260 --seed 5 --name x > "$work/trio.fa"
"$gen" mutate --input "$work/trio.fa" --rate 0.1 --seed 6 --name y >> "$work/trio.fa"
"$gen" random --alphabet dna --length 300 --seed 7 --name z >> "$work/trio.fa"
# 271 letters of a: the path's cells on the last chunk row's last row.
"$gen" random --alphabet dna --length 271 --seed 8 --name x > "$work/trio271.fa"
"$gen" mutate --input "$work/trio271.fa" --rate 0.1 --seed 9 --name y >> "$work/trio271.fa"
"$gen" random --alphabet dna --length 300 --seed 10 --name z >> "$work/trio271.fa"
printf '>duplex\nGC&%s\n' "$("$gen" random --alphabet rna --length 130 --seed 11 --name s | grep -v '>' | tr -d '\n')" \
  > "$work/duplex.fa"
# Three short records (gpu-fold's batch path) and one of 600 bases (the blocked path).
for r in 1 2 3; do "$gen" random --alphabet rna --length $((60 * r + 7)) --seed $((20 + r)) --name "short$r"; done > "$work/rna.fa"
"$gen" random --alphabet rna --length 600 --seed 24 --name long >> "$work/rna.fa"
# 4 x 300 under --window 2,100: rows narrower than the matrix, three blocks of strand 2.
printf '>band\nGCAU&%s\n' "$("$gen" random --alphabet rna --length 300 --seed 12 --name s | grep -v '>' | tr -d '\n')" \
  > "$work/band.fa"
# A database of 80 targets of 100 to 1,600 letters, and a query of 1,100:
# just over the 2^26 cells from which the database-search and the batch
# alignment kernels run.
for r in $(seq 1 80); do "$gen" random --alphabet dna --length $((100 + (r * 397) % 1500)) --seed $((100 + r)) --name "db$r"; done \
  > "$work/db.fa"
"$gen" random --alphabet dna --length 1100 --seed 99 --name query > "$work/q1100.fa"
failed=0
ran='"passes": [1-9]'  # what the timing report shows when the GPU ran
on_terminal=0  # 1: the run's output on a pseudo-terminal, so that progress is shown
san() {  # tool, then the command (which writes its timing report to $work/r.json)
  local tool=$1
  shift
  [[ -z $only || "$*" =~ $only ]] || return 0
  rm -f "$work/r.json"
  local run=(compute-sanitizer --tool "$tool" --error-exitcode 9 "$@")
  [ "$on_terminal" = 1 ] && run=(script -qefc "$(printf '%q ' "${run[@]}")" /dev/null)
  if "${run[@]}" > "$work/out" 2>&1 < /dev/null; then
    if ! grep -qE "$ran" "$work/r.json" 2>/dev/null; then
      echo "FAILED $tool: no GPU pass ran: $*"
      failed=1
      return
    fi
    echo "clean  $tool: $*"
  else
    echo "FAILED $tool: $*"
    grep -m5 -E "ERROR|Hazard|hazard|Race" "$work/out" || tail -3 "$work/out"
    failed=1
  fi
}
kernels="sw_striped_s32_c8 sw_striped_s32_c16 sw_striped_s16_diag_c8 sw_striped_s16_diag_c64 sw_striped_s16_rows_c8 sw_striped_s16_rows_c64
  sw_striped_s16_rebased_c8 sw_striped_s16_rebased_c64"
sw="$build/gpu-sw -q --strand plus --format tsv --report $work/r.json"
syn="$build/gpu-syntenic -q --score-only --format tsv --report $work/r.json"
for tool in memcheck racecheck synccheck initcheck; do
  for k in $kernels; do
    san "$tool" $sw --score-only --tune "kernel=$k" "$work/q.fa" "$work/t.fa"
  done
  for k in sw_striped_s16_rebased_c8 sw_striped_s16_rebased_c16 sw_striped_s16_diag_c8 sw_striped_s16_rows_c8; do
    san "$tool" $sw --score-only --tune "kernel=$k" --match 30 --mismatch -30 --gap-open 30 --gap-extend 10 \
      "$work/h6k.fa" "$work/h6k2.fa"
  done
  for k in sw_striped_s16_rebased_c32 sw_striped_s16_rebased_c64; do
    san "$tool" $sw --score-only --tune "kernel=$k" --match 5 --mismatch -5 --gap-open 5 --gap-extend 2 \
      "$work/h10k.fa" "$work/h10k2.fa"
  done
  san "$tool" $sw --score-only --mode global "$work/q.fa" "$work/t.fa"
  san "$tool" $sw --score-only --mode global --tune group=1 --tune max_slots=2 "$work/q.fa" "$work/t.fa"
  san "$tool" $sw "$work/a.fa" "$work/b.fa"
  # Kept passes in the rebased 16-bit kernel far past 32,767 at each of its
  # columns a lane, and in 32 bits.
  for cols in 8 16 32; do
    san "$tool" $sw --tune lane_columns=$cols --match 5 --mismatch -5 --gap-open 5 --gap-extend 2 "$work/h10k.fa" "$work/h10k2.fa"
  done
  san "$tool" $sw --mode global --tune lane_columns=16 --match 5 --mismatch -5 --gap-open 5 --gap-extend 2 \
    "$work/h10k.fa" "$work/h10k2.fa"
  san "$tool" $sw --tune kernel=sw_striped_s32_c8 "$work/a.fa" "$work/b.fa"
  # Pairs too large for the chunked traceback (held to 200 kB): split at
  # the rows their score pass saves (local, and global far past 32,767),
  # and by Myers-Miller.
  san "$tool" $sw --tune traceback_bytes=200000 "$work/a.fa" "$work/b.fa"
  san "$tool" $sw --mode global --tune traceback_bytes=200000 --match 5 --mismatch -5 --gap-open 5 --gap-extend 2 \
    "$work/h10k.fa" "$work/h10k2.fa"
  san "$tool" $sw --tune traceback_bytes=200000 --tune split=mm "$work/a.fa" "$work/b.fa"
  # Over every GPU (where there are two or more): the score pass that saves
  # rows chained over them in pieces of 6,144 columns, the split's parts
  # spread over them; local and global.
  for mode in local global; do
    san "$tool" $sw --devices all --mode $mode --tune traceback_bytes=200000 --tune piece_columns=6144 \
      "$work/c1500.fa" "$work/t140k.fa"
  done
  # gpu-syntenic's score pass of one long pair chained over every GPU (where
  # there are two or more), in pieces of 6,144 columns.
  san "$tool" $syn --devices all --tune piece_columns=6144 "$work/c1500.fa" "$work/t140k.fa"
  san "$tool" $sw --score-only --top 5 "$work/q1100.fa" "$work/db.fa"
  san "$tool" $sw --score-only --top 5 --tune db_chunk=20000 "$work/q1100.fa" "$work/db.fa"
  for rows in 12 16; do  # the 16-bit database-search kernel at each of its rows a lane
    san "$tool" $sw --score-only --top 5 --tune db_rows=$rows "$work/q1100.fa" "$work/db.fa"
  done
  san "$tool" $sw --score-only "$work/q1100.fa" "$work/db.fa"
  san "$tool" $sw --score-only --mode semiglobal "$work/q1100.fa" "$work/db.fa"
  # Every pair aligned: the batch alignment kernel.
  san "$tool" $sw "$work/q1100.fa" "$work/db.fa"
  san "$tool" $sw --mode global "$work/q1100.fa" "$work/db.fa"
  for cols in 8 16; do
    san "$tool" $syn --tune lane_columns=$cols "$work/q.fa" "$work/t.fa"
  done
  san "$tool" $syn --tune group=1 --tune max_slots=2 "$work/q.fa" "$work/t.fa"
  san "$tool" $syn --tune piece_columns=20000 "$work/q.fa" "$work/t.fa"
  for k in sw_striped_s32_c8 sw_striped_s16_diag_c8 sw_striped_s16_rows_c8 sw_striped_s16_rebased_c8; do
    san "$tool" $sw --score-only --tune "kernel=$k" --tune ring_rows=64 "$work/a.fa" "$work/b.fa"
  done
  san "$tool" $sw --score-only --tune group=1 --tune ring_rows=128 "$work/a.fa" "$work/b.fa"
  san "$tool" $syn --tune ring_rows=64 "$work/a.fa" "$work/b.fa"
  # Stopped after its first piece, unsanitized; then taken up from there.
  rm -f "$work/pass.ckpt"
  $sw --score-only --tune piece_columns=1024 --checkpoint "$work/pass.ckpt" --stop-after 0 "$work/a.fa" "$work/b.fa" \
    > /dev/null 2>&1
  san "$tool" $sw --score-only --tune piece_columns=1024 --checkpoint "$work/pass.ckpt" "$work/a.fa" "$work/b.fa"
  san "$tool" "$build/gpu-syntenic" -q --format tsv --report "$work/r.json" "$work/a.fa" "$work/b.fa"
  san "$tool" "$build/gpu-align3" -q --score-only --format tsv --report "$work/r.json" "$work/trio.fa"
  san "$tool" "$build/gpu-align3" -q --format tsv --report "$work/r.json" "$work/trio.fa"
  san "$tool" "$build/gpu-align3" -q --format tsv --report "$work/r.json" "$work/trio271.fa"
  ran='"backend": "gpu"'
  san "$tool" "$build/gpu-fold" -q --interact --report "$work/r.json" "$work/duplex.fa"
  san "$tool" "$build/gpu-fold" -q --interact --window 2,100 --report "$work/r.json" "$work/band.fa"
  ran='"fill_seconds"'
  san "$tool" "$build/gpu-fold" -q --report "$work/r.json" "$work/rna.fa"
  ran='"backend": "gpu-'
  mm="$build/gpu-mm -q --format tsv --report $work/r.json --m 130 --k 70 --n 90"
  san "$tool" $mm --type f32 --semiring plus-times --algo classic
  san "$tool" $mm --type f64 --semiring plus-times --algo classic
  san "$tool" $mm --type i32 --semiring max-plus --algo classic
  san "$tool" $mm --type f32 --semiring min-plus --algo classic
  san "$tool" $mm --type f32 --algo cublas
  for base in classic cublas; do
    san "$tool" "$build/gpu-mm" -q --format tsv --report "$work/r.json" --n 256 --algo strassen --base $base
    san "$tool" "$build/gpu-mm" -q --format tsv --report "$work/r.json" --n 256 --algo winograd --base $base
  done
  san "$tool" "$build/gpu-mm" -q --format tsv --report "$work/r.json" --batch 3 --n 64 --type i32 --semiring max-plus
  on_terminal=1
  ran='"passes": [1-9]'
  san "$tool" "$build/gpu-sw" --strand plus --format tsv --report "$work/r.json" "$work/a.fa" "$work/b.fa"
  san "$tool" "$build/gpu-sw" --strand plus --score-only --format tsv --report "$work/r.json" "$work/q.fa" "$work/t.fa"
  san "$tool" "$build/gpu-syntenic" --format tsv --report "$work/r.json" "$work/a.fa" "$work/b.fa"
  san "$tool" "$build/gpu-syntenic" --score-only --format tsv --report "$work/r.json" "$work/q.fa" "$work/t.fa"
  ran='"fill_seconds"'
  san "$tool" "$build/gpu-fold" --report "$work/r.json" "$work/rna.fa"
  ran='"backend": "gpu"'
  san "$tool" "$build/gpu-fold" --interact --report "$work/r.json" "$work/duplex.fa"
  on_terminal=0
  ran='"passes": [1-9]'
done
rm -rf "$work"
exit $failed
