#!/usr/bin/env bash
# The clang ASan+UBSan build that suites 20 (ctest) and 40 (fuzz) share:
# one configuration, so the second suite reuses the first one's objects
# instead of compiling the library again.  It has libFuzzer's coverage
# instrumentation (AESKIT_FUZZ) for suite 40; suite 20's tests run with it
# too.  Debug info is line tables only: all a sanitizer report needs (full
# -g makes clang track every vector variable through the unrolled kernels).
#   source scripts/asan-clang-config.sh; asan_clang_configure
asan_clang_dir=build/check-asan-clang
asan_clang_configure() {
  CC=clang cmake -S . -B "$asan_clang_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DAESKIT_WERROR=ON \
    -DAESKIT_SANITIZE=address,undefined -DAESKIT_FUZZ=ON -DAESKIT_BUILD_TESTS=ON >/dev/null
}
