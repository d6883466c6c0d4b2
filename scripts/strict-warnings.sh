#!/usr/bin/env bash
# The library's sources checked with clang -Weverything and gcc's
# -Wsign-conversion -Wshadow, as errors.  Front end only (-fsyntax-only):
# every warning these flags add is a front-end one, and the warnings that
# need the optimiser (-Wall -Wextra's flow warnings) are errors in the
# builds that compile the library, gcc at -O1 (ASan), -O2 (ctgrind) and
# -O3 (release), clang at -O1 (the sanitizers).  Excluded, with the reason:
#   declaration-after-statement, c++98-compat  C11 style, by choice
#   padded                                    the key structs are padded on purpose
#   unused-macros, unused-parameter           template headers and backend signatures
#   reserved-identifier, disabled-macro-expansion  system headers' own names
#   cast-align                                key objects are cast to their typed view
#   missing-prototypes                        inline helpers in headers
# usage: scripts/strict-warnings.sh BUILD_DIR (for the generated headers)
set -euo pipefail
cd "$(dirname "$0")/.."
gen=${1:?build dir}/include
files=$(ls src/*.c src/modes/*.c src/generic/*.c src/isa/*.c src/x86/*.c)
# One file per job, as many jobs as cores (each job runs both compilers).
check_one() {
  f=$1
  clang -std=gnu11 -O1 -Werror -Weverything -Wno-declaration-after-statement -Wno-padded \
    -Wno-unused-macros -Wno-reserved-identifier -Wno-disabled-macro-expansion -Wno-cast-align \
    -Wno-missing-prototypes -Wno-unused-parameter -Wno-c++98-compat \
    -Iinclude -I"$gen" -Isrc -fsyntax-only "$f" &&
  gcc -std=gnu11 -O1 -Werror -Wall -Wextra -Wsign-conversion -Wshadow \
    -Iinclude -I"$gen" -Isrc -fsyntax-only "$f"
}
export -f check_one
export gen
n=$(echo "$files" | wc -w)
echo "$files" | xargs -n1 -P"$(nproc)" bash -c 'check_one "$1"' _ ||
  { echo "strict warnings: some library sources are not clean (messages above)"; exit 1; }
echo "strict warnings: $n library sources clean under clang -Weverything and gcc -Wsign-conversion -Wshadow"
