#!/usr/bin/env bash
# aeskit_isa (issue 17) on RISC-V: the repository's other cross suites
# (30-cross.sh: aarch64 under qemu -cpu max, ppc64le under -cpu power9,
# s390x) already run the isa-* ctest entries with the rest of the suite, and
# the main build (10-build-test.sh) runs them natively, including the
# valgrind constant-time check isa-ct-valgrind.  This suite adds an RV64
# build of the aeskit_isa test alone (cmake/toolchains/riscv64-linux-gnu.cmake),
# run under qemu-riscv64 with Zkne/Zknd/Zbc enabled: aeskit_isa has no
# RISC-V host path (the riscv64-zkn AES backend is not one), so the library
# runs its portable code there, and the test
# checks the emulated aes64*/clmul* instructions against its reference
# model and the portable path.  About 1-2 minutes.
# Missing compiler or qemu: "skipped: <why>" (exit 0; Debian packages
# gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user).
set -uo pipefail
cd "$(dirname "$0")/../.."
scale=${AESKIT_CROSS_TEST_SCALE:-0.1}
missing=()
command -v riscv64-linux-gnu-gcc >/dev/null || missing+=(riscv64-linux-gnu-gcc)
command -v qemu-riscv64 >/dev/null || missing+=(qemu-riscv64)
[ -d /usr/riscv64-linux-gnu/lib ] || missing+=("/usr/riscv64-linux-gnu/lib (libc6-dev-riscv64-cross)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "isa riscv64: skipped: missing ${missing[*]}"
    # CI installs them (scripts/deps/cross.txt): there a skip is a failure.
    [ "${CI:-}" = true ] && exit 1
    exit 0
fi
bdir=build/cross-riscv64
start=$(date +%s)
cmake -S . -B "$bdir" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-linux-gnu.cmake \
    -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON -DAESKIT_BUILD_TOOLS=OFF >"$bdir.configure.log" 2>&1 ||
    { cat "$bdir.configure.log"; echo "isa riscv64: FAILED: configure"; exit 1; }
cmake --build "$bdir" -j2 --target test_isa || { echo "isa riscv64: FAILED: build"; exit 1; }
AESKIT_TEST_SCALE=$scale ctest --test-dir "$bdir" -j2 --output-on-failure -R '^isa-exact' || {
    echo "isa riscv64: FAILED in $(( $(date +%s) - start ))s"; exit 1; }
echo "isa riscv64: passed in $(( $(date +%s) - start ))s"
