#!/usr/bin/env bash
# Interleaved timing of one-shot GCM calls in two or more builds of
# libaeskit.so in one process (tools/ab/lib_ab.c says how it measures).
# Resolves 1-2% where speed-compare.py's whole runs cannot on a noisy
# machine; pass the first library twice for a control ratio.  Copy each
# build's libaeskit.so.1.* aside first: a rebuild overwrites it (build
# the target libaeskit.so.1.0.0, or all: the target `aeskit` is the
# command-line tool and leaves the library as it was).  Two different
# paths with the same contents get a warning.
#
# usage: scripts/lib-ab.sh BACKEND seal|open|seal-batch|open-batch KEYBYTES SIZES ROUNDS LIB.so LIB.so...
#   e.g. scripts/lib-ab.sh x86-vaes-avx512 seal 16 256,1024,1420 7 /tmp/old.so /tmp/new.so /tmp/old.so
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/lib-ab
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null  # generates aeskit_version.h
cc -O2 -std=gnu11 -Wall -Wextra -Werror -Iinclude -Ibuild/release/include -o build/lib-ab/aeskit-lib-ab tools/ab/lib_ab.c -ldl
exec build/lib-ab/aeskit-lib-ab "$@"
