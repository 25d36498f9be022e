#!/usr/bin/env bash
# The Snakemake workflow (workflow/) run here on the CPU: for each tool and
# format, its merged output must equal one run of the tool over the whole
# query, byte for byte (the command line in the header included), and its
# combined report must count every query. Usage: test-workflow.sh BIN_DIR
# (where gpu-sw, gpu-syntenic and gpu-fold are). Needs snakemake
# (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:?usage: test-workflow.sh BIN_DIR}" && pwd)
command -v snakemake > /dev/null || { echo "test-workflow: snakemake missing (scripts/setup.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 - "$root/data/dna_target.fa" <<'PY'
import gzip, random, sys
random.seed(22)
target = "".join(l.strip() for l in open(sys.argv[1]) if not l.startswith(">"))
def mutate(s):
    return "".join(random.choice("ACGT") if random.random() < 0.05 else c for c in s)
reads = []
for k in range(9):
    if k % 3 == 2:
        s = "".join(random.choice("ACGT") for _ in range(random.randint(30, 90)))
    else:
        at = random.randint(0, len(target) - 120)
        s = mutate(target[at:at + random.randint(40, 120)])
        if k % 2:
            s = s[::-1].translate(str.maketrans("ACGT", "TGCA"))
    reads.append((f"read{k} sample {k}", s))
with open("reads.fa", "w") as f:
    for name, s in reads:
        f.write(f">{name}\n" + "\n".join(s[i:i + 60] for i in range(0, len(s), 60)) + "\n")
with open("reads.fq", "w") as f:
    for name, s in reads:
        f.write(f"@{name}\n{s}\n+\n{'I' * len(s)}\n")
with gzip.open("reads.fa.gz", "wt") as f:
    f.write(open("reads.fa").read())
with open("rna.fa", "w") as f:
    for k in range(7):
        f.write(f">rna{k}\n" + "".join(random.choice("ACGU") for _ in range(20 + 9 * k)) + "\n")
PY

failures=0 passed=0
# case NAME TOOL SHARDS QUERY "INPUTS" OPTIONS...
case_run() {
  local name=$1 tool=$2 shards=$3 query=$4 inputs=$5
  shift 5
  local out=$work/$name.out report=$work/$name.json
  local opts="" a
  for a in "$@"; do opts+="\"$a\", "; done
  local ins="" i
  for i in $inputs; do ins+="\"$i\", "; done
  # The single run first, under the same output paths (they are in its header).
  "$bin/$tool" "$@" "$query" $inputs -o "$out" --report "$report" 2> /dev/null
  mv "$out" "$out.single"
  cat > "$name.yaml" <<YAML
tool: $tool
options: [${opts%, }]
query: $query
inputs: [${ins%, }]
shards: $shards
output: $out
report: $report
bin_dir: $bin
YAML
  if ! snakemake -s "$root/workflow/Snakefile" --configfile "$name.yaml" --cores 2 -q > "$name.log" 2>&1; then
    echo "FAILED $name: snakemake failed"; tail -20 "$name.log"; failures=$((failures + 1)); return
  fi
  if ! cmp -s "$out" "$out.single"; then
    echo "FAILED $name: merged output differs from one run"; diff "$out.single" "$out" | head -10; failures=$((failures + 1)); return
  fi
  # The combined report: every record counted once, over the shards made.
  local records expected counted
  records=$(PYTHONPATH="$root/workflow/scripts" python3 -c "import shards, sys; print(len(shards.records(sys.argv[1])))" "$query")
  expected="$(( shards < records ? shards : records )) $records"
  counted=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); i=r['inputs']; print(r['shards'], i.get('queries', i.get('records')))" "$report")
  if [ "$counted" != "$expected" ]; then
    echo "FAILED $name: the report counts shards and records $counted, not $expected"; failures=$((failures + 1)); return
  fi
  echo "ok $name: $(wc -c < "$out") bytes, $counted shards and records"
  passed=$((passed + 1))
}

case_run sw_pair gpu-sw 3 reads.fa "$root/data/dna_target.fa" --cpu
case_run sw_sam gpu-sw 4 reads.fa "$root/data/dna_target.fa" --cpu --format sam --top 2
case_run sw_tsv gpu-sw 2 reads.fq "$root/data/dna_target.fa" --cpu --format tsv
case_run sw_json gpu-sw 5 reads.fa.gz "$root/data/dna_target.fa" --cpu --format json --mode global --strand plus
case_run sw_paf gpu-sw 3 reads.fa "$root/data/dna_target.fa" --cpu --format paf --mode semiglobal --top 1
case_run sw_blast6 gpu-sw 4 reads.fa "$root/data/dna_target.fa" --cpu --format=blast6 --evalue 1
case_run sw_more_shards_than_queries gpu-sw 20 reads.fa "$root/data/dna_target.fa" --cpu --format tsv --score-only
case_run syntenic_listing gpu-syntenic 3 reads.fa "$root/data/dna_target.fa" --cpu
case_run syntenic_paf gpu-syntenic 4 reads.fq "$root/data/dna_target.fa" --cpu --format paf --block-penalty 20
case_run syntenic_tsv gpu-syntenic 2 reads.fa.gz "$root/data/dna_target.fa" --cpu --format tsv --ends plain
case_run syntenic_json gpu-syntenic 5 reads.fa "$root/data/dna_target.fa" --cpu --format json
case_run syntenic_scores gpu-syntenic 9 reads.fa "$root/data/dna_target.fa" --cpu --score-only
case_run fold_dotbracket gpu-fold 3 rna.fa "" --cpu
case_run fold_tsv gpu-fold 4 rna.fa "" --cpu --format tsv
case_run fold_ct gpu-fold 2 rna.fa "" --cpu --format ct --min-loop 1

# A configuration the workflow refuses, with one line saying why.
printf 'tool: gpu-mm\noptions: []\nquery: reads.fa\noutput: x.out\n' > bad.yaml
if snakemake -s "$root/workflow/Snakefile" --configfile bad.yaml --cores 1 -q > bad.log 2>&1 || ! grep -q "does not split by its query" bad.log; then
  echo "FAILED refusal: gpu-mm was not refused with its reason"; cat bad.log; failures=$((failures + 1))
else
  echo "ok refusal: $(grep -m1 'does not split' bad.log)"
  passed=$((passed + 1))
fi
echo "test-workflow: $passed passed, $failures failed"
[ "$failures" = 0 ] && [ "$passed" = 16 ]
