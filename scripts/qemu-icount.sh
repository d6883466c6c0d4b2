#!/usr/bin/env bash
# Guest instructions per byte of a bulk mode call under qemu-user, for the
# cross targets (issue 19): qemu's execution log (-d in_asm,exec,nochain)
# names every translated block with its instructions and every block
# executed, so their product summed is the dynamic instruction count.  Two
# runs of tools/icount/mode_call.c at LEN and 2 LEN bytes; the difference
# divided by LEN cancels start-up, key set-up and the call's fixed cost.
# Deterministic (no timing).
#   scripts/qemu-icount.sh BUILD_DIR QEMU [QEMU_OPTS...] -- MODE BACKEND [LEN]
#   e.g. scripts/qemu-icount.sh build/a64 qemu-aarch64 -cpu max -- ctr arm64-neon
# MODE gcmbatch:S or gcmsingle:S counts messages of S bytes instead: LEN
# (default 64) messages and 2 LEN, the difference over LEN is one message's
# instructions in a seal batch call or in single seal calls.  With :open
# (gcmbatch:S:open) the messages are then opened the same way: that count
# less the seal's is one message's open.
# BUILD_DIR is a cross build (cmake/toolchains/*.cmake) with the target
# aeskit-mode-call; the sysroot is taken from its toolchain triple.
set -euo pipefail
bdir=$1 qemu=$2
shift 2
qopts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do qopts+=("$1"); shift; done
shift
mode=$1 be=$2 len=${3:-16384} unit=byte
case $mode in gcmbatch:* | gcmsingle:*) len=${3:-64} unit=message ;; esac
triple=$(sed -n 's/^AESKIT_CROSS_TRIPLE:[A-Z]*=//p' "$bdir/CMakeCache.txt" 2>/dev/null || true)
[ -n "$triple" ] || triple=$(grep -o '[a-z0-9_]*-linux-gnu' "$bdir/CMakeCache.txt" | grep -v x86_64 | head -1)
cmake --build "$bdir" --target aeskit-mode-call >/dev/null
exe=$bdir/tools/aeskit-mode-call
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
    "$qemu" "${qopts[@]}" -L "/usr/$triple" -E "LD_LIBRARY_PATH=/usr/$triple/lib" \
        -d in_asm,exec,nochain -D "$tmp/log" "$exe" "$mode" "$be" "$1" >/dev/null || exit 1
    python3 - "$tmp/log" <<'PY'
import re, sys
size = {}      # block start -> instructions, the latest translation
total = 0
cur = None     # start of the block being listed
n = 0
ins = re.compile(r'^0x([0-9a-f]+):\s')
for line in open(sys.argv[1], errors='replace'):
    if line.startswith('Trace '):
        pc = int(line.split('/')[1], 16)
        total += size[pc]
        continue
    m = ins.match(line)
    if m:
        if cur is None:
            cur = int(m.group(1), 16)
            n = 0
        n += 1
    elif cur is not None and not line.strip():
        size[cur] = n
        cur = None
if cur is not None:
    size[cur] = n
print(total)
PY
}
a=$(count "$len")
b=$(count $((2 * len)))
python3 -c "import sys; a,b,l=map(int,sys.argv[1:4]); u=sys.argv[6]; s=' B' if u == 'byte' else ' messages'; print('%s %s: %.2f instructions/%s (%d at %d%s, %d at %d%s)' % (sys.argv[4], sys.argv[5], (b-a)/l, u, a, l, s, b, 2*l, s))" "$a" "$b" "$len" "$mode" "$be" "$unit"
