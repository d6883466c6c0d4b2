#!/usr/bin/env bash
# The constant-time object check for arm64-ce, arm64-neon, ppc64-p8 (issue 18;
# and riscv64-zkn and ppc64-altivec, issue 19;
# docs/constant-time.md).  No dynamic tool runs those kernels here: clang's
# MemorySanitizer runtime exists for x86_64 only on this Debian, and valgrind
# inside qemu-user is not practical.  So the kernels are cross-compiled
# exactly as scripts/check.d/30-cross.sh builds them (GCC, Release, the
# toolchain files in cmake/toolchains/), disassembled, and every conditional
# branch, indexed load and division is compared with the reasons in
# scripts/ct-objcheck.allow (scripts/ct-objcheck.py says how).
#   scripts/ct-objcheck.sh          check both targets (and the self-test)
#   scripts/ct-objcheck.sh update   rewrite the counts (new ones: UNEXPLAINED)
# A target whose cross compiler or objdump is missing is a skip (exit 77 if
# every target skipped), never a pass.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
allow=scripts/ct-objcheck.allow
rc=0 ran=0
# arch triple source
for t in "aarch64 aarch64-linux-gnu src/arm64/aes_arm64_ce.c" \
         "aarch64/neon aarch64-linux-gnu src/arm64/aes_arm64_neon.c" \
         "ppc64le powerpc64le-linux-gnu src/ppc64/aes_ppc64_p8.c" \
         "ppc64le/altivec powerpc64le-linux-gnu src/ppc64/aes_ppc64_altivec.c" \
         "riscv64 riscv64-linux-gnu src/riscv64/aes_riscv64_zkn.c"; do
    set -- $t
    arch=$1 triple=$2 src=$3
    if ! command -v "$triple-gcc" >/dev/null || ! command -v "$triple-objdump" >/dev/null; then
        echo "ct-objcheck $arch: skipped: $triple-gcc or $triple-objdump missing (scripts/deps/cross.txt)"
        continue
    fi
    dir=build/ct-objcheck-$triple
    obj=CMakeFiles/aeskit_objects.dir/$src.o
    if ! { cmake -S . -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/$triple.cmake \
               -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON -DAESKIT_BUILD_TESTS=OFF \
               -DAESKIT_BUILD_TOOLS=OFF >"$dir.configure.log" 2>&1 &&
           ninja -C "$dir" "$obj" >/dev/null; }; then
        cat "$dir.configure.log"; echo "ct-objcheck $arch: FAILED: build"; rc=1; continue
    fi
    ran=1
    python3 scripts/ct-objcheck.py "$mode" "$arch" "$triple-objdump" "$dir/$obj" "$allow" || rc=1
    if [ "$mode" = check ]; then
        # Self-test: the same object against the list with one count lowered
        # (one "new" branch) must fail, or the check could not see one.
        tmp=$(mktemp)
        awk -v a="$arch" '!done && $1 == a && $3 == "branch" { $5 = $5 - 1; done = 1 } { print }' "$allow" >"$tmp"
        if python3 scripts/ct-objcheck.py check "$arch" "$triple-objdump" "$dir/$obj" "$tmp" >/dev/null; then
            echo "ct-objcheck $arch: self-test FAILED: an unlisted branch was not reported"; rc=1
        else
            echo "ct-objcheck $arch: self-test: an unlisted branch is reported (good)"
        fi
        rm -f "$tmp"
    fi
done
[ $ran -eq 1 ] || exit 77
exit $rc
