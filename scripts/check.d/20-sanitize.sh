#!/usr/bin/env bash
# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang, with -Werror: the second compiler's warnings count too).
set -euo pipefail
CC=clang cmake -S . -B build/check-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DAESKIT_WERROR=ON -DAESKIT_SANITIZE=address,undefined >/dev/null
cmake --build build/check-asan
ASAN_OPTIONS=detect_leaks=1 AESKIT_TEST_SCALE=${AESKIT_TEST_SCALE:-0.25} \
  ctest --test-dir build/check-asan --output-on-failure -j2
