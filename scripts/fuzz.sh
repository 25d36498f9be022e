#!/usr/bin/env bash
# Fuzzes the readers of untrusted files (fuzz/), each for SECONDS (default
# 60): the .npy reader and the scoring-matrix parser under libFuzzer (clang,
# with AddressSanitizer and UndefinedBehaviorSanitizer; installed from
# Debian when missing), the FASTA/FASTQ reader under fuzz/mutate_main.cpp in
# the sanitized GCC build (it uses seqan3 3.2, which Debian's clang 14
# cannot compile). libFuzzer keeps the inputs it finds new in
# build-fuzz/corpus/TARGET. A crash is written to build-fuzz/crashes/TARGET/
# and fails the run: fix it, then keep the input in fuzz/corpus/TARGET/,
# which ctest replays from then on.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=$PWD/build-fuzz
if ! command -v clang++ > /dev/null; then
  echo "fuzz: installing clang"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends clang
fi
scripts/build-sanitized.sh > /dev/null
asan=build-asan
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc)
clang++ "${flags[@]}" fuzz/npy.cpp src/io/npy.cpp src/core/output_file.cpp -o "$out/fuzz_npy"
clang++ "${flags[@]}" fuzz/matrix.cpp src/core/scoring.cpp src/core/alphabet.cpp src/core/sequence.cpp \
  "$asan/src/core/builtin_matrices.cpp" -o "$out/fuzz_matrix"

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
failed=0
for target in npy matrix; do
  mkdir -p "$out/corpus/$target" "$out/crashes/$target"
  echo "fuzz: $target under libFuzzer for $seconds s"
  if ! "$out/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$out/crashes/$target/" "$out/corpus/$target" "fuzz/corpus/$target" > "$out/$target.log" 2>&1; then
    echo "fuzz: $target FAILED: $(grep -m1 -E 'ERROR|error|Test unit written' "$out/$target.log" || tail -1 "$out/$target.log")"
    failed=1
  else
    grep -E "^Done|stat::number_of_executed_units" "$out/$target.log" | tail -1
  fi
done
echo "fuzz: sequences under the mutation engine for $seconds s"
if ! "$asan/fuzz_sequences_mutate" "$seconds" "$out/crashes/sequences" fuzz/corpus/sequences; then
  echo "fuzz: sequences FAILED"
  failed=1
fi
exit $failed
