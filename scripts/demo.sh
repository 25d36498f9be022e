#!/usr/bin/env bash
# Set-up, build, and run gpu-sw on the bundled example data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
echo "== gpu-sw: local alignment of two DNA sequences (pair format)"
build/gpu-sw data/dna_query.fa data/dna_target.fa
echo "== gpu-sw: two proteins, BLOSUM62, global (TSV)"
build/gpu-sw --mode global --format tsv data/protein_query.fa data/protein_target.fa
