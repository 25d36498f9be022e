#!/usr/bin/env bash
# Installs the build and test dependencies from Debian packages.
# Non-interactive and idempotent: packages already present are left alone.
set -euo pipefail
packages=(
  cmake g++ make pkg-config zlib1g-dev
  libcli11-dev libseqan3-dev libspdlog-dev libfmt-dev
  catch2 nlohmann-json3-dev libparasail-dev parasail
  python3-biopython  # tests: Biopython reads gpu-align3's Clustal
  samtools  # tests: gpu-sw's SAM through quickcheck and calmd
  ncbi-blast+  # tests: blastp and blastn check gpu-sw's blast6 E-values (15 MB)
  fasta3  # tests: ssearch36 checks gpu-sw's scores; a peer in search-cpu.sh
  help2man dpkg-dev file  # manual pages from --help; cpack -G DEB's Depends
  snakemake  # workflow/: batch jobs in shards (tests: scripts/test-workflow.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
