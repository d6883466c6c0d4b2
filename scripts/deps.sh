#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the benchmark use.
# The lists live in scripts/deps/*.txt (one package a line, # comments).
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=$(cat scripts/deps/*.txt | sed 's/#.*//' | tr -s ' \n' ' ')
missing=()
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# apt-get's output goes to a log, not the screen: one line here per step.
log=${AESKIT_DEPS_LOG:-$PWD/build/deps.log}
export AESKIT_DEPS_LOG=$log
mkdir -p "$(dirname "$log")"
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all $(echo $pkgs | wc -w) packages present"
else
  echo "deps: installing ${#missing[@]} packages (${missing[*]}); apt-get's output in $log"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  # A mirror mid-sync can fail one index; the install may still succeed.
  $SUDO apt-get update -qq >>"$log" 2>&1 || echo "deps: apt-get update reported errors (see $log); trying the install anyway"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    echo "deps: apt-get install failed; the end of $log:"
    tail -n 15 "$log"
    exit 1
  fi
  echo "deps: installed"
fi
# Target-architecture libraries (multiarch) for the cross suites.
bash scripts/deps-cross.sh
