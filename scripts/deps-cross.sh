#!/usr/bin/env bash
# Target-architecture libraries for the cross builds (scripts/check.d/30-cross.sh):
# cJSON for arm64, ppc64el and s390x, so `aeskit vectors` can read the Wycheproof
# JSON files under qemu.  Debian multiarch: the packages install into
# /usr/lib/<triple>/, where the Debian cross compilers and qemu -L find them.
# OpenSSL is deliberately not installed for the targets: under emulation the
# generic backend (itself checked against OpenSSL on the host) is the oracle.
# Idempotent; safe to run when everything is already there.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs=(libcjson-dev:arm64 libcjson-dev:ppc64el libcjson-dev:s390x)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps-cross: ${pkgs[*]} present"
  exit 0
fi
foreign=$(dpkg --print-foreign-architectures)
for a in arm64 ppc64el s390x; do
  grep -qx "$a" <<<"$foreign" || $SUDO dpkg --add-architecture "$a"
done
# apt-get's output into the log scripts/deps.sh names (or a file of our own)
log=${AESKIT_DEPS_LOG:-$(cd "$(dirname "$0")/.." && pwd)/build/deps.log}
mkdir -p "$(dirname "$log")"
echo "deps-cross: installing ${missing[*]}; apt-get's output in $log"
$SUDO apt-get update -qq >>"$log" 2>&1 || echo "deps-cross: apt-get update reported errors (see $log); trying the install anyway"
if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
  echo "deps-cross: apt-get install failed; the end of $log:"
  tail -n 15 "$log"
  exit 1
fi
