#!/usr/bin/env bash
# Builds and runs every test, the [gpu] ones included, on the GPU machine
# (Ubuntu 24.04, g++ 13, CMake 4, nvcc 13, no package manager reachable).
# The libraries come from Debian packages downloaded on the development
# machine and unpacked with dpkg -x into .deps/ (ignored by git):
#
#   here:   scripts/gpu-test.sh --fetch        # downloads into .deps/debs
#   device: scripts/gpu-test.sh                # run with .deps carried
#   device: scripts/gpu-test.sh --build-only   # build-gpu/ only (benchmarks);
#           then: export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
#
# On the device GPUDP_REQUIRE_GPU=1 is set, so a [gpu] test that finds no
# GPU fails instead of reporting itself skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libcli11-dev libseqan3-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 catch2
          nlohmann-json3-dev libparasail-dev libparasail8 zlib1g-dev)
if [ "${1:-}" = "--fetch" ]; then
  mkdir -p .deps/debs
  (cd .deps/debs && apt-get download "${packages[@]}")
  exit 0
fi
[ -d .deps/debs ] || { echo "gpu-test: .deps/debs missing: run scripts/gpu-test.sh --fetch here and carry .deps" >&2; exit 2; }
root=$PWD/.deps/root
rm -rf "$root" && mkdir -p "$root"
for f in .deps/debs/*.deb; do dpkg -x "$f" "$root"; done
libdir=$root/usr/lib/x86_64-linux-gnu
# zlib1g-dev's libz.so points at Debian's runtime library; use the machine's.
[ -e "$libdir/libz.so" ] || ln -sf "$(ls /usr/lib/x86_64-linux-gnu/libz.so.1* /lib/x86_64-linux-gnu/libz.so.1* 2>/dev/null | head -1)" "$libdir/libz.so"
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GPUDP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
# seqan3 3.2 (Debian 12) does not compile with g++ 13: build with g++ 12,
# which the GPU machine also has. Debian's CMake package files predate
# CMake 4's policy floor.
compilers=()
if command -v g++-12 >/dev/null; then
  compilers=(-DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_CUDA_HOST_COMPILER=g++-12)
fi
BUILD_DIR=build-gpu JOBS=$(nproc) scripts/build.sh -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DCMAKE_CUDA_ARCHITECTURES=90 "${compilers[@]}"
[ "${1:-}" = "--build-only" ] && exit 0
ctest --test-dir build-gpu --output-on-failure -j "$(nproc)"
