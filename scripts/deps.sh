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
  echo "deps: all ${pkgs// /, } present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
