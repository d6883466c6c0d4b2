#!/usr/bin/env bash
# Release build with -Werror (gcc), then the whole ctest suite.
set -euo pipefail
cmake -S . -B build/check-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON >/dev/null
cmake --build build/check-release
ctest --test-dir build/check-release --output-on-failure -j2
# The library's sources under clang -Weverything and gcc -Wsign-conversion -Wshadow.
bash scripts/strict-warnings.sh build/check-release
