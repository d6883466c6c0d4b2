#!/usr/bin/env bash
# Constant-time check (issue 6): the ct_valgrind harness under memcheck, for
# every backend valgrind can execute (generic, x86-ssse3, x86-aesni; valgrind cannot run
# VAES/AVX-512 code and hides it from CPUID).  Any report fails the suite.
# First the self-test: a deliberate secret-dependent branch MUST be reported,
# or the check would be blind.
set -euo pipefail
command -v valgrind >/dev/null || { echo "skipped: valgrind not installed"; exit 1; }
dir=build/check-ctgrind
# Without the VAES backends (AESKIT_X86_VAES=OFF): valgrind could not run
# them, and they were most of this build's time; 55-ct-msan checks them.
cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAESKIT_WERROR=ON \
  -DAESKIT_VALGRIND_CT=ON -DAESKIT_BUILD_TOOLS=OFF -DAESKIT_X86_VAES=OFF >/dev/null
echo "not built: x86-vaes-avx512, x86-vaes-avx2 (valgrind cannot execute VAES; suite 55-ct-msan checks them)"
cmake --build $dir --target ct_valgrind
exe=$dir/tests/trust/ct_valgrind
vg="valgrind -q --error-exitcode=42 --track-origins=yes"
if $vg "$exe" --self-test >/dev/null 2>&1; then
  echo "ctgrind self-test: valgrind did NOT report the deliberate secret branch"; exit 1
fi
echo "ctgrind self-test: the deliberate secret-dependent branch was reported (good)"
# The three views run side by side (valgrind runs one thread); each log
# follows its title.
source scripts/par-jobs.sh
par_job "--- default CPU view (generic's wide variant where valgrind runs it, x86-aesni)" $vg "$exe"
par_job "--- AESKIT_CPU=generic (the portable baseline code)" env AESKIT_CPU=generic $vg "$exe"
# x86-ssse3 runs its parallel modes 8 blocks per step in ymm under AVX2 (the
# default view above, valgrind runs AVX2) and 4 in xmm without: the xmm width.
par_job "--- AESKIT_CPU=-avx2: x86-ssse3's 4-block xmm width" env AESKIT_CPU=-avx2 $vg "$exe" --backend x86-ssse3
# x86-aesni runs its GCM kernels VEX-encoded under AVX (the default view)
# and in legacy SSE encoding without: the SSE build.
par_job "--- AESKIT_CPU=-avx: x86-aesni's GCM kernels in SSE encoding" env AESKIT_CPU=-avx $vg "$exe" --backend x86-aesni
par_wait
