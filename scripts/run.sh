#!/usr/bin/env bash
# The README's first command: installs what is missing, builds aeskit
# (Release), then runs the main job: `aeskit list` (backends and CPU),
# `aeskit vectors` (built-in known answers, plus the Wycheproof files when
# ../shared/vectors/wycheproof exists), and `aeskit speed` (aeskit against
# every peer library found, about a minute).  Arguments go to `aeskit speed`.
#
# Each preparation step prints one line; apt-get's, cmake's and the
# compiler's output go to log files (named on that line, and the end of the
# log is shown if the step fails).
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=build/release
mkdir -p "$bdir"
export AESKIT_DEPS_LOG=$PWD/build/deps.log

# step LABEL LOG COMMAND...: one line, the output in LOG, its end on failure
step() {
  local label=$1 log=$2
  shift 2
  printf '%s ... ' "$label"
  local t0=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "done ($((SECONDS - t0)) s; log: $log)"
  else
    echo "FAILED (log: $log):"
    tail -n 20 "$log"
    exit 1
  fi
}

bash scripts/deps.sh
step "configure: cmake -S . -B $bdir" "$bdir/configure.log" \
  cmake -S . -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release
step "build: cmake --build $bdir --target aeskit" "$bdir/build.log" \
  cmake --build "$bdir" --target aeskit
aeskit=$bdir/tools/aeskit
echo
echo "== aeskit list"
$aeskit list
echo
wycheproof=../shared/vectors/wycheproof
if [ -d "$wycheproof" ]; then
  echo "== aeskit vectors --builtin $wycheproof/*.json"
  $aeskit vectors --builtin "$wycheproof"/*.json
else
  echo "== aeskit vectors --builtin (no $wycheproof here: built-in known answers only)"
  $aeskit vectors --builtin
fi
echo
echo "== aeskit speed $*"
$aeskit speed "$@"
