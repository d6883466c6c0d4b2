#!/usr/bin/env bash
# Release build with -Werror (gcc), then the whole ctest suite.
set -euo pipefail
cmake -S . -B build/check-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON >/dev/null
cmake --build build/check-release
ctest --test-dir build/check-release --output-on-failure -j2
