#!/usr/bin/env bash
# The README's first command: installs what is missing, builds aeskit
# (Release), then runs the main job: `aeskit list` (backends and CPU),
# `aeskit vectors` (built-in known answers, plus the Wycheproof files when
# ../shared/vectors/wycheproof exists), and `aeskit speed` (aeskit against
# every peer library found, about a minute).  Arguments go to `aeskit speed`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release --target aeskit
aeskit=build/release/tools/aeskit
$aeskit list
echo
wycheproof=../shared/vectors/wycheproof
if [ -d "$wycheproof" ]; then
  $aeskit vectors --builtin "$wycheproof"/*.json
else
  echo "(no $wycheproof here: built-in known answers only)"
  $aeskit vectors --builtin
fi
echo
$aeskit speed "$@"
