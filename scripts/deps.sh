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
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all $(echo $pkgs | wc -w) packages present"
else
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  # A mirror mid-sync can fail one index; the install may still succeed.
  $SUDO apt-get update -qq || echo "deps: apt-get update reported errors; trying the install anyway"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Target-architecture libraries (multiarch) for the cross suites.
bash scripts/deps-cross.sh
