#!/usr/bin/env bash
# Instructions per openssl speed -evp message, the default provider against
# aeskit, counted by valgrind's callgrind (deterministic, unlike timings on a
# shared machine).  valgrind cannot run VAES/AVX-512, so aeskit is forced to
# its AES-NI backend (AESKIT_BACKEND=x86-aesni); the default provider runs its
# AES-NI/AVX code too.  The count is the inclusive cost of the EVP calls one
# iteration of speed's loop makes (EVP_CipherInit_ex with the IV, the update,
# the final, the tag ctrl), averaged over the iterations the run made.
# Prints; asserts nothing.
# usage: MODDIR=build/provider provider/scripts/icount.sh [ALG] [SIZES...]
MODDIR=$(cd "${MODDIR:?}" && pwd)
. "$(dirname "$0")/common.sh"
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; exit 77; }
ALG=${1:-aes-128-gcm}; shift || true
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(16 64 256 1024 8192 16384)
W=$(mktemp -d /tmp/akp-icount.XXXXXX)
trap 'rm -rf "$W"' EXIT

count() {  # count PROVIDER SIZE DECRYPT -> "instructions-per-message iterations"
  local args=(-provider default) d=()
  [ "$1" = aeskit ] && args=("${STRICT_ARGS[@]}")
  [ "$3" = 1 ] && d=(-decrypt)
  AESKIT_BACKEND=x86-aesni valgrind --tool=callgrind --callgrind-out-file="$W/cg" \
    openssl speed "${args[@]}" -evp "$ALG" -seconds 1 -bytes "$2" "${d[@]}" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes --tree=calling "$W/cg" 2>/dev/null | python3 -c '
import re, sys
# A block: "cost (pct)  *  fn" followed by "cost (pct)  >   callee (Nx)" lines.
best = None; cur = None
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) .*\*\s+(\S+)", line)
    if m:
        cur = {"calls": {}}; continue
    m = re.match(r"\s*([\d,]+) .*>\s+\S*:(EVP_\w+) \(([\d,]+)x\)", line)
    if m and cur is not None:
        cur["calls"][m.group(2)] = (int(m.group(1).replace(",", "")), int(m.group(3).replace(",", "")))
        n = cur["calls"].get("EVP_EncryptUpdate", cur["calls"].get("EVP_DecryptUpdate", (0, 0)))[1]
        if n and (best is None or n >= best[1]):
            best = (cur, n)
if best is None:
    print("? 0"); sys.exit()
blk, n = best
tot = sum(c for c, k in blk["calls"].values())
print("%d %d" % (round(tot / n), n))
'
}

echo "instructions per openssl speed -evp $ALG message (callgrind, AESKIT_BACKEND=x86-aesni)"
echo "$(openssl version)"
for dec in 0 1; do
  printf '\n%s %s\n' "$ALG" "$([ $dec = 1 ] && echo decrypt || echo encrypt)"
  printf '%8s  %14s  %14s  %7s\n' bytes default aeskit ratio
  for n in "${SIZES[@]}"; do
    read -r di dn < <(count default "$n" $dec)
    read -r ai an < <(count aeskit "$n" $dec)
    python3 -c 'import sys; d, a = int(sys.argv[2]), int(sys.argv[3]); print("%8s  %14d  %14d  %6.2fx" % (sys.argv[1], d, a, d / a))' "$n" "$di" "$ai" 2>/dev/null \
      || printf '%8s  %14s  %14s\n' "$n" "$di" "$ai"
  done
done
