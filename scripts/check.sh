#!/usr/bin/env bash
# The README's test command: builds and runs every test suite this machine
# can run.  Each suite is a script in scripts/check.d/, run in order; a suite
# that cannot run here says so and why.  Ends with "N passed, N failed".
#   scripts/check.sh            every suite
#   scripts/check.sh quick      only the main build's ctest (fast feedback)
set -uo pipefail
cd "$(dirname "$0")/.."
export AESKIT_ROOT=$PWD
passed=0; failed=0; failed_names=()
for step in scripts/check.d/*.sh; do
  name=$(basename "$step" .sh)
  if [ "${1:-}" = quick ] && [ "$name" != 10-build-test ]; then continue; fi
  echo "=== suite $name ==="
  start=$(date +%s)
  if bash "$step"; then
    passed=$((passed + 1)); verdict=passed
  else
    failed=$((failed + 1)); verdict=FAILED; failed_names+=("$name")
  fi
  echo "=== suite $name: $verdict in $(( $(date +%s) - start ))s ==="
done
[ $failed -eq 0 ] || echo "failed suites: ${failed_names[*]}"
echo "suites: $passed passed, $failed failed"
[ $failed -eq 0 ]
