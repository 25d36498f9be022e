# Sourced by the protein search benchmarks (search.sh, search-align.sh,
# search-streamed.sh): CUDASW++4.0's synthetic workload and small helpers.
# search_inputs WORK COUNT makes, once each, WORK/dbCOUNT.fa (COUNT proteins,
# lengths log-normal around 300, seed 7), the four queries WORK/q144.fa,
# q375.fa, q729.fa and q1500.fa, and WORK/q4.fa holding all four.
search_inputs() {
  local work=$1 count=$2 gen=scripts/bench/make_protein_db.py m
  [ -s "$work/db$count.fa" ] || "$gen" --count "$count" --seed 7 --name t > "$work/db$count.fa"
  for m in 144 375 729 1500; do
    [ -s "$work/q$m.fa" ] || "$gen" --length "$m" --seed "$m" --name "q$m" > "$work/q$m.fa"
  done
  cat "$work"/q144.fa "$work"/q375.fa "$work"/q729.fa "$work"/q1500.fa > "$work/q4.fa"
}
calc() { awk "BEGIN { print $* }"; }
# The residues of a FASTA file.
len() { grep -v '>' "$1" | tr -d '\n' | wc -c; }
# A number from a timing report: field REPORT KEY.
field() { grep -o "\"$2\": [0-9.e+-]*" "$1" | awk '{print $2}' | head -1; }
