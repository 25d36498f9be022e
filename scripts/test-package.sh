#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB) from build/, installs it with
# dpkg -i, and checks what a user of the installed package gets, outside
# the source tree: each tool's --version and manual page, the matrices'
# files, and a small job each, whose output must equal the build's own
# tools'. Removes the package afterwards. Also checks `cmake --install`.
# Needs root or sudo (dpkg). Run after scripts/build.sh (CI: after
# scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$PWD
build_dir=$(realpath "${BUILD_DIR:-build}")
tools=(gpu-sw gpu-mm gpu-fold gpu-syntenic gpu-align3)
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
installed=0
cleanup() {
  [ "$installed" -eq 1 ] && $SUDO dpkg -r gpu-dp >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# cmake --install into a prefix: the layout Debian uses.
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
for f in "${tools[@]/#/bin/}" share/man/man1/gpu-sw.1.gz share/gpu-dp/matrices/BLOSUM62 share/doc/gpu-dp/README.md; do
  [ -f "$work/prefix/$f" ] || fail "cmake --install left out $f"
done

# The package.
rm -f "$build_dir"/gpu-dp_*.deb
(cd "$build_dir" && cpack -G DEB > "$work/cpack.log" 2>&1) || fail "cpack: $(tail -5 "$work/cpack.log")"
deb=$(ls "$build_dir"/gpu-dp_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libgomp1 libspdlog zlib1g; do
  [[ $depends == *"$lib"* ]] || fail "the package's Depends ($depends) lacks $lib"
done
if dpkg-query -W -f='${Status}' gpu-dp 2>/dev/null | grep -q "install ok installed"; then
  fail "gpu-dp is installed already; remove it first (dpkg -r gpu-dp)"
fi
$SUDO dpkg -i "$deb" >/dev/null
installed=1
echo "test-package: installed $(basename "$deb") (Depends: $depends)"

cd "$work"
for tool in "${tools[@]}"; do
  [ "$(command -v "$tool")" = "/usr/bin/$tool" ] || fail "$tool is not /usr/bin/$tool"
  ldd "/usr/bin/$tool" | grep -q "not found" && fail "$tool: $(ldd "/usr/bin/$tool" | grep 'not found')"
  version=$("$tool" --version)
  [[ $version == "$tool "[0-9]* ]] || fail "$tool --version: $version"
  page=/usr/share/man/man1/$tool.1.gz
  [ -f "$page" ] || fail "no manual page $page"
  zcat "$page" | grep -q "^\.TH .*\"$tool [0-9.]*\"" || fail "$page's title line does not give '$tool VERSION'"
  zcat "$page" | grep -q "^\.SH EXAMPLES" || fail "$page has no EXAMPLES section"
  zcat "$page" | grep -q -- '\\-\\-cpu' || fail "$page does not list --cpu"
  echo "test-package: $version; $page"
done

# A small job each: the installed tool's output equals the build's.
data=$source_dir/data
cp "$data"/*.fa .
printf '>a\nGATTACAGATTACA\n>b\nGATTACCAGATTCA\n>c\nGTTACAGATTAC\n' > trio.fa
echo GGGGAAAACCCCAUAUGGGAAAUCCC > rna.txt
jobs=(
  "gpu-sw --cpu dna_query.fa dna_target.fa"
  "gpu-sw --cpu --matrix /usr/share/gpu-dp/matrices/BLOSUM62 --format tsv protein_query.fa protein_target.fa"
  "gpu-mm --cpu --m 30 --k 20 --n 10 --type i32 --semiring min-plus --out c.npy > /dev/null && cat c.npy"
  "gpu-fold --cpu - < rna.txt"
  "gpu-syntenic --cpu dna_query.fa dna_target.fa"
  "gpu-align3 --cpu --format clustal trio.fa"
)
for job in "${jobs[@]}"; do
  bash -c "$job" > installed.out 2> installed.err || fail "$job: $(cat installed.err)"
  PATH=$build_dir:$PATH bash -c "$job" > built.out 2>/dev/null
  [ -s installed.out ] || fail "$job wrote nothing"
  cmp -s installed.out built.out || fail "$job: the installed tool's output differs from the build's"
  echo "test-package: ok: $job ($(wc -l < installed.out) lines)"
done
# The matrix file installed is the one built in.
gpu-sw --cpu --matrix BLOSUM62 --format tsv protein_query.fa protein_target.fa > builtin.out 2>/dev/null
gpu-sw --cpu --matrix /usr/share/gpu-dp/matrices/BLOSUM62 --format tsv protein_query.fa protein_target.fa > file.out 2>/dev/null
cmp -s builtin.out file.out || fail "the installed BLOSUM62 scores differently from the built-in one"

cd "$source_dir"
$SUDO dpkg -r gpu-dp >/dev/null
installed=0
[ ! -e /usr/bin/gpu-sw ] || fail "dpkg -r left /usr/bin/gpu-sw"
echo "test-package: passed (installed, ran, removed)"
