#!/usr/bin/env bash
# Constant-time checks for the backends valgrind cannot run (issue 18;
# docs/constant-time.md says what each part proves and what it cannot).
#   1. Intrinsic inventory: every target intrinsic left in the library's IR
#      (clang -O1, what the MSan build compiles) is either replaced by a
#      shadow-propagating wrapper (src/ct_msan.h) or one MSan models
#      exactly (or strict-checks, which is right for an address: a
#      switch table's llvm.load.relative); a new one fails until someone
#      decides which.
#   2. MemorySanitizer check: the library and tests/trust/ct_valgrind.c built
#      with clang -fsanitize=memory -DAESKIT_MSAN_CT=ON (target ct_msan).
#      Keys, plaintexts and tags are poisoned; MSan reports every branch,
#      address or libc argument computed from them.  Per x86 backend:
#        - the planted leaks (`--self-test BACKEND`): a branch on each of
#          several outputs computed from the secret key; MSan must report
#          exactly that many, or the shadow does not survive that backend;
#        - the check (`--backend BACKEND`): every mode, streaming, valid and
#          invalid tags and paddings, key set-up, 17 lengths around the bulk
#          steps, 3 key sizes, message secret and then public; 0 reports,
#          and every output computed from a secret still marked secret.
#      A backend this CPU cannot run is reported as skipped; under CI=true
#      that fails only if /proc/cpuinfo shows the backend's features.
#   3. arm64-ce, arm64-neon, ppc64-p8 and riscv64-zkn: scripts/ct-objcheck.sh
#      (no MSan runtime for those targets here): every conditional branch, indexed load and
#      division of the cross-built kernels against a committed allow-list.
set -uo pipefail
cd "$(dirname "$0")/../.."
failures=()
command -v clang >/dev/null || { echo "skipped: clang not installed"; exit 77; }

# The generated header (aeskit_version.h) comes from the configure step.
# No origin tracking: it tripled the compile time of the VAES kernels, and
# every poisoned value here comes from a SECRET() call of the harness; a
# report still names the branch or address and its stack.  To learn which
# secret leaked, rebuild with -fsanitize-memory-track-origins
# (docs/constant-time.md, "By hand").
dir=${AESKIT_CT_MSAN_BUILD:-build/check-ct-msan}
CC=clang cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DAESKIT_WERROR=ON -DAESKIT_SANITIZE=memory -DAESKIT_MSAN_CT=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DAESKIT_BUILD_TOOLS=OFF >/dev/null
echo "--- 1. target intrinsics in the library (clang -O1 IR) against src/ct_msan.h"
wrapped='aesni\.aes(enc|enclast|dec|declast)(\.256|\.512)?|aesni\.aesimc|aesni\.aeskeygenassist|pclmulqdq(\.256|\.512)?|ssse3\.pshuf\.b\.128|avx2\.pshuf\.b|avx512\.pshuf\.b\.512|avx512\.pternlog\.[dq]\.(128|256|512)'
modelled='load\.relative\..*|x86\.(avx2\.ps[lr]lv\.q(\.256)?|avx512\.ps[lr]lv\.q\.512|avx\.ptestz\.256)|masked\.(load|store)\..*|bswap\..*|fsh[lr]\..*|ctlz\..*|cttz\..*|ctpop\..*|[us](max|min)\..*|[us](add|sub)\.sat\..*|abs\..*|mem(set|cpy|move)\..*|lifetime\..*|dbg\..*|experimental\.noalias.*|assume'
# Each file's calls go to a file of its own: parallel jobs writing into one
# pipe interleave their writes mid-line once an output passes PIPE_BUF.
rm -f $dir/inventory.*.calls
printf '%s\n' src/*.c src/generic/*.c src/modes/*.c src/x86/*.c |
  xargs -P "$(nproc)" -I{} sh -c "f=$dir/inventory.\$(echo {} | tr / _); ll=\$f.ll
      { nice clang -std=gnu11 -O1 -Iinclude -I$dir/include -Isrc -S -emit-llvm -o \$ll {} 2>/dev/null ||
        echo 'call @llvm.NOT-COMPILED:{}'; grep -o 'call [^@]*@llvm\.[a-z0-9._]*' \$ll 2>/dev/null; } >\$f.calls; rm -f \$ll"
inv=$(cat $dir/inventory.*.calls | sed 's/.*@llvm\.//' | sort | uniq -c)
rm -f $dir/inventory.*.calls
unknown=$(echo "$inv" | awk '{print $2}' | grep -vE "^(x86\.($wrapped)|$modelled)\$" || true)
echo "$inv" | awk '{printf "  %6d %s\n", $1, $2}' | grep -E 'x86|masked' || true
if [ -n "$unknown" ]; then
    echo "intrinsics: NOT classified (add a wrapper to src/ct_msan.h or show MSan models it): $unknown"
    failures+=("intrinsic inventory")
else
    echo "intrinsics: every one wrapped in src/ct_msan.h or modelled by MSan"
fi

echo "--- 2. MemorySanitizer constant-time check"
if ! cmake --build $dir -j2 --target ct_msan; then
    echo "ct-msan: FAILED: build"; exit 1
fi
exe=$dir/tests/trust/ct_msan
# Part 3 (cross builds) runs beside part 2's single-threaded runs; its log
# is shown, and its status taken, at part 3.
objlog=$dir/ct-objcheck.log
bash scripts/ct-objcheck.sh >"$objlog" 2>&1 &
objpid=$!
export MSAN_OPTIONS=halt_on_error=0:poison_in_malloc=1
reports() { grep -c 'WARNING: MemorySanitizer' "$1" || true; }
log=$dir/ct-msan.log
# The /proc/cpuinfo flags a backend needs (README, "Backends").
cpu_flags_of() {
    case "$1" in
    x86-vaes-avx512) echo "aes pclmulqdq avx2 vaes vpclmulqdq avx512f avx512bw avx512vl" ;;
    x86-vaes-avx2) echo "aes pclmulqdq avx2 vaes vpclmulqdq" ;;
    x86-aesni) echo "aes pclmulqdq ssse3 sse4_1" ;;
    x86-ssse3) echo "ssse3" ;;
    *) echo "" ;;
    esac
}
has_flags() {
    local f have
    have=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
    for f in "$@"; do
        case "$have" in *" $f "*) ;; *) return 1 ;; esac
    done
}
# Every backend of this architecture, from the one list (src/backends.txt).
x86_backends=$(awk '/^[a-z0-9]/ && ($2 == "x86_64" || $2 == "any") {print $1}' src/backends.txt)
for be in $x86_backends; do
    "$exe" --self-test $be >$log 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
        # Under CI=true a skip fails only where the CPU has the backend's
        # features (then the harness, not the machine, is at fault).
        need=$(cpu_flags_of "$be")
        if [ -n "$need" ] && has_flags $need; then
            echo "ct-msan $be: FAILED: this CPU has $need but the harness did not run $be"
            failures+=("$be (not run although the CPU has $need)")
        else
            echo "ct-msan $be: skipped: this CPU cannot run it (lacks some of: ${need:-?})"
        fi
        continue
    fi
    planted=$(sed -nE 's/^ct self-test: ([0-9]+) planted.*/\1/p' $log)
    got=$(reports $log)
    if [ -z "$planted" ] || [ "$got" -ne "$planted" ]; then
        echo "ct-msan $be: self-test FAILED: ${planted:-?} planted leaks, $got reported"; cat $log | head -60
        failures+=("$be self-test")
    else
        echo "ct-msan $be: self-test: all $planted planted secret-dependent branches reported (good)"
    fi
    "$exe" --backend $be >$log 2>&1
    rc=$?
    got=$(reports $log)
    ops=$(sed -nE "s/^checked: $be( \([^)]*\))?, ([0-9]+) operations.*/\2/p" $log)
    sec=$(sed -nE 's/^ct_msan: ([0-9]+) output bytes.*, ([0-9]+) not$/\1 \2/p' $log)
    if [ $rc -ne 0 ] || [ "$got" -ne 0 ] || [ -z "$ops" ]; then
        echo "ct-msan $be: FAILED: exit $rc, $got MemorySanitizer reports"; grep -v '^ *#[1-9][0-9]' $log | head -80
        failures+=("$be")
    else
        echo "ct-msan $be: $ops operations checked, 0 reports; ${sec% *} secret output bytes still secret, ${sec#* } lost"
    fi
done
# The portable baseline of the generic backend (what AESKIT_CPU=generic runs).
AESKIT_CPU=generic "$exe" --backend generic >$log 2>&1
rc=$?; got=$(reports $log)
ops=$(sed -nE "s/^checked: generic( \([^)]*\))?, ([0-9]+) operations.*/\2/p" $log)
if [ $rc -ne 0 ] || [ "$got" -ne 0 ] || [ -z "$ops" ]; then
    echo "ct-msan generic (AESKIT_CPU=generic): FAILED: exit $rc, $got reports"; head -80 $log; failures+=("generic baseline")
else
    echo "ct-msan generic (AESKIT_CPU=generic): $ops operations checked, 0 reports"
fi

# One backend under a CPU mask ($1: AESKIT_CPU, $2: backend, $3: what the
# mask selects): 0 reports and an operation count, as in the loop above.
masked_check() {
    AESKIT_CPU=$1 "$exe" --backend $2 >$log 2>&1
    local rc=$? got ops
    got=$(reports $log)
    ops=$(sed -nE "s/^checked: $2( \([^)]*\))?, ([0-9]+) operations.*/\2/p" $log)
    if [ $rc -ne 0 ] || [ "$got" -ne 0 ] || [ -z "$ops" ]; then
        echo "ct-msan $2 (AESKIT_CPU=$1, $3): FAILED: exit $rc, $got reports"; head -80 $log
        failures+=("$2 under AESKIT_CPU=$1")
    else
        echo "ct-msan $2 (AESKIT_CPU=$1, $3): $ops operations checked, 0 reports"
    fi
}
# x86-ssse3's 4-block xmm width (the loop above ran its AVX2 width).
masked_check -avx2 x86-ssse3 "the 4-block xmm width"
# x86-aesni's GCM kernels in legacy SSE encoding (the loop above ran their
# VEX build, gcm_aesni_avx.c).
masked_check -avx x86-aesni "the GCM kernels in SSE encoding"
# x86-vaes-avx512's GHASH products in both forms (AK_CPU_KARA512: the loop
# above ran the one this CPU's detection picks).
if has_flags $(cpu_flags_of x86-vaes-avx512); then
    masked_check +kara512 x86-vaes-avx512 "closing GHASH products in Karatsuba form"
    masked_check -kara512 x86-vaes-avx512 "closing GHASH products in schoolbook form"
fi

echo "--- 3. arm64-ce, ppc64-p8: the object check"
wait $objpid
rc=$?
cat "$objlog"
if [ $rc -eq 77 ]; then
    echo "ct-objcheck: skipped: no cross toolchain (scripts/deps/cross.txt)"
    [ "${CI:-}" = true ] && failures+=("ct-objcheck (no cross toolchain)")
elif [ $rc -ne 0 ]; then
    failures+=("ct-objcheck")
fi

if [ ${#failures[@]} -gt 0 ]; then
    echo "ct-msan failures: ${failures[*]}"
    exit 1
fi
