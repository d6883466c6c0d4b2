#!/usr/bin/env bash
# openssl speed -evp, the default provider against aeskit, alternated round
# by round, best of ROUNDS with the spread ((best - worst) / best) shown.
# Prints; asserts nothing.  openssl speed divides by the CPU (user) time of
# the loop, which keeps other tenants' load out of the figures better than
# wall-clock time; still, compare within one table only.
# usage: MODDIR=build/provider provider/scripts/speed.sh [ROUNDS] [SECONDS] [ALGS...]
MODDIR=$(cd "${MODDIR:?}" && pwd)
. "$(dirname "$0")/common.sh"
ROUNDS=${1:-5}; SECS=${2:-1}; shift 2 2>/dev/null || shift $#
ALGS=("$@"); [ ${#ALGS[@]} -gt 0 ] || ALGS=(aes-128-gcm aes-256-gcm)
SIZES=(16 64 256 1024 8192 16384)

one() {  # one() ALG SIZE DECRYPT(0/1) PROVIDER -> bytes/s
  local args=(-provider default)
  [ "$4" = aeskit ] && args=("${STRICT_ARGS[@]}")
  local d=(); [ "$3" = 1 ] && d=(-decrypt)
  # provider options first: speed fetches the cipher while it parses -evp
  openssl speed "${args[@]}" -evp "$1" -seconds "$SECS" -bytes "$2" -mr "${d[@]}" 2>/dev/null \
    | sed -n 's/^+F:[0-9]*:[^:]*:\([0-9.]*\).*/\1/p' | tail -1
}

echo "openssl speed -evp, GB/s (10^9 bytes/s, per CPU second), best of $ROUNDS x ${SECS}s, spread in ()"
echo "$(openssl version); machine load: $(cut -d" " -f1-3 /proc/loadavg)"
openssl list -providers -verbose "${PROV_ARGS[@]}" | grep -m1 "build info" | sed "s/^ */aeskit provider /"
for alg in "${ALGS[@]}"; do
  for dec in 0 1; do
    printf '\n%s %s\n' "$alg" "$([ $dec = 1 ] && echo decrypt || echo encrypt)"
    printf '%8s  %16s  %16s  %7s\n' bytes default aeskit ratio
    for n in "${SIZES[@]}"; do
      da=(); aa=()
      for r in $(seq 1 "$ROUNDS"); do
        da+=("$(one "$alg" "$n" $dec default)")
        aa+=("$(one "$alg" "$n" $dec aeskit)")
      done
      python3 - "$n" "${da[*]}" "${aa[*]}" <<'PY'
import sys
n = sys.argv[1]
d = [float(x) for x in sys.argv[2].split() if x]
a = [float(x) for x in sys.argv[3].split() if x]
def cell(v):
    if not v:
        return "failed".rjust(16)
    b, w = max(v), min(v)
    return ("%.3f (%3.0f%%)" % (b / 1e9, 100 * (b - w) / b)).rjust(16)
ratio = "%6.2fx" % (max(a) / max(d)) if a and d else "   n/a"
print("%8s  %s  %s  %7s" % (n, cell(d), cell(a), ratio))
PY
    done
  done
done
