#!/usr/bin/env bash
# Instructions one whole-message AES-GCM call runs, per function, by
# single-stepping it under gdb (tools/icount): a figure that, unlike this
# machine's timings, is the same on every run.  At 16-64 bytes the x86
# kernels are bound by instruction issue, so this is what to compare when
# changing the small-message path.
#
# usage: scripts/icount.sh [--open] [--aad N] [--key 16|24|32] [--batch N] [--ops] LEN...
#   e.g. scripts/icount.sh 16 64          (seal, 16-byte AAD, AES-128)
#        AESKIT_BACKEND=x86-vaes-avx2 scripts/icount.sh --open 64
#   --ops also prints how many times each mnemonic ran ("op N mnemonic");
#   the difference of two lengths is a loop's instruction mix per block.
#   --trace also prints every instruction run, in order ("tr FUNCTION
#   ADDRESS INSTRUCTION"): how to see what the compiler made of a kernel
#   (stores of data to the stack, reloads through general registers).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gdb >/dev/null || { echo "icount: needs gdb (apt-get install gdb)" >&2; exit 2; }
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release --target aeskit-icount-call >/dev/null
opts=()
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --open) opts+=("$1"); shift ;;
    --ops) export ICOUNT_MNEMONICS=1; shift ;;
    --trace) export ICOUNT_TRACE=1; shift ;;
    --aad|--key|--batch) opts+=("$1" "$2"); shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(16 64 1420)
for len in "${sizes[@]}"; do
  echo "== ${opts[*]:-seal} $len bytes (backend: ${AESKIT_BACKEND:-best})"
  ICOUNT_ARGS="${opts[*]:-} $len" gdb -q -batch -nx -x tools/icount/icount.py \
    build/release/tools/aeskit-icount-call 2>/dev/null | sed -n 's/^ICOUNT //p; s/^ICOUNT_OP /op /p; s/^ICOUNT_TR /tr /p'
done
