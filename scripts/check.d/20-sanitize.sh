#!/usr/bin/env bash
# The suite under sanitizers (issue 6), at -O1 (what the sanitizers advise;
# -O2 made clang spend five times as long on the SIMD backends):
#   - ASan+UBSan with clang and with gcc (each with -Werror: both compilers'
#     warnings count), every test at AESKIT_TEST_SCALE=0.25; the clang build
#     is the one suite 40 fuzzes (scripts/asan-clang-config.sh), and the
#     compile-time measures of CMakeLists.txt (ASan checks as calls; no
#     pointer-overflow check in clang's build of the SIMD kernels) apply;
#   - MSan (clang) on the tests that link nothing uninstrumented (OpenSSL,
#     cJSON and the speed peers are disabled in that build), without origin
#     tracking (it tripled the VAES kernels' compile time; a report names
#     the use and its stack; add -fsanitize-memory-track-origins to
#     CMAKE_C_FLAGS to learn where the value came from);
#   - TSan (clang) on the threads test: many threads, cold start, shared key.
set -uo pipefail
scale=${AESKIT_TEST_SCALE:-0.25}
failures=()
# Every build runs even if an earlier one failed, so one run shows them all.
run_ctest() {
  AESKIT_TEST_SCALE=$scale ctest --test-dir "$1" --output-on-failure -j2 "${@:2}" || failures+=("$1")
}
build() { cmake --build "$@" || { failures+=("build of $1"); return 1; }; }

# Debug info: line tables (clang) and -g1 (gcc) are what a report needs.
source scripts/asan-clang-config.sh
asan_clang_configure
dir=build/check-asan-gcc
CC=gcc cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DAESKIT_WERROR=ON -DAESKIT_SANITIZE=address,undefined >/dev/null
for dir in $asan_clang_dir build/check-asan-gcc; do
  build $dir &&
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 run_ctest $dir
done

dir=build/check-msan
CC=clang cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DAESKIT_WERROR=ON \
  -DAESKIT_SANITIZE=memory \
  -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DAESKIT_BUILD_TOOLS=OFF >/dev/null
build $dir && run_ctest $dir

dir=build/check-tsan
CC=clang cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DAESKIT_WERROR=ON \
  -DAESKIT_SANITIZE=thread -DAESKIT_BUILD_TOOLS=OFF >/dev/null
build $dir --target test_threads &&
  TSAN_OPTIONS=halt_on_error=1 run_ctest $dir -R '^threads:'

if [ ${#failures[@]} -gt 0 ]; then
  echo "sanitizer failures: ${failures[*]}"
  exit 1
fi
