#!/usr/bin/env bash
# Cross suites (issue 5): the whole ctest suite built for AArch64, for
# little-endian POWER, for big-endian IBM Z (s390x: no hardware backend,
# it proves the generic code is byte-order clean) and for RISC-V RV64
# (issue 19: the riscv64-zkn backend and generic), run under qemu-user (the toolchain files in
# cmake/toolchains/ set CMAKE_CROSSCOMPILING_EMULATOR, so ctest runs every
# test binary through qemu; binfmt is not needed).  For each target:
#   1. configure + build build/cross-<arch> with -Werror,
#   2. ctest with the hardware backend available (qemu -cpu max / power9),
#   3. ctest again with AESKIT_CPU=generic (hardware tests then skip; not
#      for s390x, which has no hardware backend), and for
#      AArch64 the dispatch-level tests once more with AESKIT_CPU=-arm-aes
#      (the default is then arm64-neon, which aeskit-list-neon asserts),
#      for ppc64le with AESKIT_CPU=-vcrypto (ppc64-altivec,
#      aeskit-list-altivec),
#   4. `aeskit vectors --all-backends` on the shared Wycheproof files under
#      the emulator (the ctest entry aeskit-vectors-wycheproof does it when
#      it is given the emulator; otherwise this script runs it), when cJSON
#      for the target is installed (scripts/deps-cross.sh).
# Random-iteration counts are scaled by AESKIT_TEST_SCALE (default here
# 0.1, or AESKIT_CROSS_TEST_SCALE) to keep both emulated suites to a few
# minutes.  RISC-V runs twice: a build for -march=rv64gc_zkne_zknd_zbkc
# under qemu with Zkne/Zknd/Zbc (qemu-user 7.2 has no riscv_hwprobe, so only
# such a build sees the extensions: riscv64-zkn must be chosen), then the
# default build under plain "-cpu rv64" (riscv64-zkn must report
# "no (CPU)", every dispatch-level test runs on generic).  A target whose cross compiler or qemu is absent is reported as
# "skipped: <why>" (and fails under CI=true, where scripts/deps/cross.txt
# installs them).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
scale=${AESKIT_CROSS_TEST_SCALE:-0.1}
wyche=$root/../shared/vectors/wycheproof
failed=0

# Tests whose command line names no emulator (a host shell script handed
# only the target's aeskit) cannot work without binfmt: list them so they
# are excluded by name, and said so.  Scripts that are handed
# ${CMAKE_CROSSCOMPILING_EMULATOR} as arguments run normally.
host_tests() {
    ctest --test-dir "$1" -N -V 2>/dev/null | awk '
        /^[0-9]+: Test command: / { cmd = $0; next }
        /^ +Test +#[0-9]+: / { if (cmd !~ /qemu-/) print $3; cmd = "" }'
}

# run_target ARCH TRIPLE QEMU QEMU_CPU CJSON_PKG [SCALE] [MASKED]
# MASKED: an AESKIT_CPU value for one more pass of the dispatch-level
# (unsuffixed) tests.  Set for one call (RISC-V, whose toolchain file
# chooses the emulated CPU): rt_name (the name printed, default ARCH),
# rt_bdir (build directory), rt_cmake (more configure arguments),
# rt_mask_pass=1 (step 3 even without QEMU_CPU), rt_first_exclude (an ERE
# of tests the first pass leaves out), rt_list_cpu and rt_list_expect
# (`aeskit list` under qemu -cpu rt_list_cpu must match the ERE).
run_target() {
    local arch=$1 triple=$2 qemu=$3 cpu=$4 cjson_pkg=$5 tscale=${6:-$scale} masked=${7:-}
    local qcpu=()
    [ -n "$cpu" ] && qcpu=(-cpu "$cpu")
    local bdir=${rt_bdir:-build/cross-$arch} tc=cmake/toolchains/$triple.cmake
    local name=${rt_name:-$arch} extra=(${rt_cmake:-})
    arch=$name
    local start=$(date +%s) missing=()
    command -v "$triple-gcc" >/dev/null || missing+=("$triple-gcc")
    command -v "$qemu" >/dev/null || missing+=("$qemu")
    [ -d "/usr/$triple/lib" ] || missing+=("/usr/$triple/lib (libc6-dev cross package)")
    if [ ${#missing[@]} -gt 0 ]; then
        if [ "${CI:-}" = true ]; then
            echo "cross $arch: FAILED: missing ${missing[*]} (scripts/deps/cross.txt should install them)"
            failed=1
        else
            echo "cross $arch: skipped: missing ${missing[*]} (Debian: see scripts/deps/cross.txt)"
        fi
        return
    fi

    local cjson=OFF
    if dpkg-query -W -f='${Status}' "$cjson_pkg" 2>/dev/null | grep -q 'install ok installed'; then
        cjson=ON
    fi
    mkdir -p "$bdir"
    echo "--- cross $arch: configure + build ($bdir, cJSON for the target: $cjson)"
    if ! cmake -S . -B "$bdir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$tc" \
            -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON -DAESKIT_WITH_CJSON=$cjson "${extra[@]}" \
            >"$bdir/configure.log" 2>&1; then
        cat "$bdir/configure.log"
        echo "cross $arch: FAILED: configure"
        failed=1
        return
    fi
    if ! cmake --build "$bdir" -j2; then
        echo "cross $arch: FAILED: build"
        failed=1
        return
    fi

    # Step 4 runs the Wycheproof files through qemu only when the ctest
    # entry for them could not.
    local hosted exclude rc=0
    hosted=$(host_tests "$bdir" | tr '\n' ' ')
    exclude="^($(echo $hosted | sed 's/[.+*?()|]/\\&/g; s/ /|/g'))\$"
    [ -n "$hosted" ] || exclude='^$'
    [ -n "$hosted" ] && echo "cross $arch: not run under emulation (host scripts that exec the target binary; need binfmt): $hosted"
    echo "--- cross $arch: ctest under $qemu ${qcpu[*]} (AESKIT_TEST_SCALE=$tscale)"
    local first_exclude=$exclude
    [ -n "${rt_first_exclude:-}" ] && first_exclude="$exclude|${rt_first_exclude}"
    AESKIT_TEST_SCALE=$tscale ctest --test-dir "$bdir" -j2 --output-on-failure -E "$first_exclude" || rc=1
    if [ -n "${rt_list_expect:-}" ]; then
        local list
        list=$("$qemu" -cpu "$rt_list_cpu" -L "/usr/$triple" -E "LD_LIBRARY_PATH=/usr/$triple/lib" \
            "$bdir/tools/aeskit" list 2>&1)
        if grep -Eq "$rt_list_expect" <<<"$list"; then
            echo "cross $arch: aeskit list under -cpu $rt_list_cpu matches /$rt_list_expect/"
        else
            printf '%s\n' "$list"
            echo "cross $arch: FAILED: aeskit list under -cpu $rt_list_cpu does not match /$rt_list_expect/"
            rc=1
        fi
    fi
    # Second pass with every CPU feature masked: the dispatch-level tests
    # (unsuffixed) must pick generic, the <test>:<hardware> ones must report
    # skipped.  The <test>:generic ones already forced the generic backend
    # in the first pass and would run identically again (the generic
    # backend has no feature-dependent paths on these CPUs), at the cost of
    # the slowest minutes under emulation, so they are not repeated.
    if [ -n "$cpu" ] || [ -n "${rt_mask_pass:-}" ]; then
        echo "--- cross $arch: ctest under $qemu ${qcpu[*]} with AESKIT_CPU=generic"
        AESKIT_CPU=generic AESKIT_TEST_SCALE=$tscale ctest --test-dir "$bdir" -j2 --output-on-failure \
            -E "$exclude|:generic\$" || rc=1
    fi
    # The <test>:<backend> ones force their backend whatever the mask, and
    # ran in the first pass; so did `backends` (every usable backend against
    # generic: under the mask a subset) and the isa-* tests (no backend;
    # isa-exact-masked masks on its own), the slowest two minutes of it.
    if [ -n "$masked" ]; then
        echo "--- cross $arch: dispatch-level tests under $qemu ${qcpu[*]} with AESKIT_CPU=$masked"
        AESKIT_CPU=$masked AESKIT_TEST_SCALE=$tscale ctest --test-dir "$bdir" -j2 --output-on-failure \
            -E "$exclude|:|^backends\$|^isa-" || rc=1
    fi

    if [ "$cjson" = OFF ]; then
        echo "cross $arch: Wycheproof skipped: no cJSON for the target ($cjson_pkg; run scripts/deps-cross.sh)"
    elif [[ " $(ctest --test-dir "$bdir" -N 2>/dev/null | awk '/Test +#/ {print $3}' | tr '\n' ' ') " == *" aeskit-vectors-wycheproof "* && " $hosted " != *" aeskit-vectors-wycheproof "* ]]; then
        echo "cross $arch: Wycheproof ran inside ctest (aeskit-vectors-wycheproof, through the emulator)"
    elif [ "$cjson" = ON ] && ls "$wyche"/*.json >/dev/null 2>&1; then
        echo "--- cross $arch: aeskit vectors --all-backends on $wyche/*.json"
        "$qemu" "${qcpu[@]}" -L "/usr/$triple" -E "LD_LIBRARY_PATH=/usr/$triple/lib" \
            "$bdir/tools/aeskit" vectors --all-backends "$wyche"/*.json || rc=1
    else
        echo "cross $arch: Wycheproof skipped: no *.json in $wyche"
    fi

    if [ $rc -ne 0 ]; then
        echo "cross $arch: FAILED in $(( $(date +%s) - start ))s"
        failed=1
    else
        echo "cross $arch: passed in $(( $(date +%s) - start ))s"
    fi
}

run_target aarch64 aarch64-linux-gnu qemu-aarch64 max libcjson-dev:arm64 "$scale" -arm-aes
run_target ppc64le powerpc64le-linux-gnu qemu-ppc64le power9 libcjson-dev:ppc64el "$scale" -vcrypto
run_target s390x s390x-linux-gnu qemu-s390x "" libcjson-dev:s390x
# RISC-V, half the scale of the others; Debian 12 has no riscv64 cJSON, so
# `aeskit vectors` skips.  build/cross-riscv64 is suite 56's test_isa-only
# build.  First the build for the extensions under qemu with them, then the
# AESKIT_CPU=generic pass (the mask must turn riscv64-zkn off); then the
# default build under plain rv64, leaving out the :generic tests, which the
# first build ran on the same C code.
rv_scale=${AESKIT_RISCV_TEST_SCALE:-$(awk -v s="$scale" 'BEGIN { print s / 2 }')}
rt_name=riscv64-zkn rt_bdir=build/cross-riscv64-suite \
    rt_cmake="-DCMAKE_C_FLAGS=-march=rv64gc_zkne_zknd_zbkc -DAESKIT_RISCV_QEMU_CPU=rv64,zbc=true,zkne=true,zknd=true" \
    rt_mask_pass=1 rt_list_cpu=rv64,zbc=true,zkne=true,zknd=true \
    rt_list_expect='riscv64-zkn +30 +yes .*<- chosen' \
    run_target riscv64 riscv64-linux-gnu qemu-riscv64 "" libcjson-dev:riscv64 "$rv_scale"
rt_name=riscv64-plain rt_bdir=build/cross-riscv64-plain rt_cmake="-DAESKIT_RISCV_QEMU_CPU=rv64" \
    rt_first_exclude=':generic$' rt_list_cpu=rv64 \
    rt_list_expect='riscv64-zkn +30 +no \(CPU\)' \
    run_target riscv64 riscv64-linux-gnu qemu-riscv64 "" libcjson-dev:riscv64 "$rv_scale"
exit $failed
