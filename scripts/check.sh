#!/usr/bin/env bash
# The README's test command: builds and runs every test suite this machine
# can run.  Each suite is a script in scripts/check.d/, run in order; a suite
# that cannot run here says so and why.  The last lines total the ctest
# results of all suites ("tests: N passed, N failed, N skipped") and the
# suites themselves; the exit status is non-zero if any suite failed.
#   scripts/check.sh            every suite
#   scripts/check.sh quick      only the main build's ctest (fast feedback)
#   scripts/check.sh 20 40      only the suites whose names start so
set -uo pipefail
cd "$(dirname "$0")/.."
export AESKIT_ROOT=$PWD
bash scripts/deps.sh || { echo "deps: could not install the packages (run as root or with sudo)"; exit 1; }
mkdir -p build
passed=0; failed=0; failed_names=()
t_pass=0; t_fail=0; t_skip=0
for step in scripts/check.d/*.sh; do
  name=$(basename "$step" .sh)
  if [ $# -gt 0 ]; then
    want=0
    for a in "$@"; do
      [ "$a" = quick ] && a=10
      case "$name" in "$a"*) want=1 ;; esac
    done
    [ $want -eq 1 ] || continue
  fi
  echo "=== suite $name ==="
  start=$(date +%s)
  log=build/check-$name.log
  bash "$step" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); verdict=passed
  else
    failed=$((failed + 1)); verdict="FAILED (exit $rc)"; failed_names+=("$name")
  fi
  # Sum ctest's own summaries: "N% tests passed, F tests failed out of T".
  while read -r f tot; do
    t_fail=$((t_fail + f)); t_pass=$((t_pass + tot - f))
  done < <(sed -nE 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' "$log")
  s=$(grep -cE '\*\*\*Skipped|Not Run' "$log" || true)
  t_skip=$((t_skip + s)); t_pass=$((t_pass - s))
  echo "=== suite $name: $verdict in $(( $(date +%s) - start ))s ==="
done
# A failed suite's own reasons, repeated here: CI shows only the last lines.
for name in "${failed_names[@]}"; do
  echo "--- why $name failed (its last lines with FAILED, NOT, failures: or error, from build/check-$name.log):"
  grep -E 'FAILED|NOT |[Ff]ailures?:|Error|error:' "build/check-$name.log" | tail -25
done
[ $failed -eq 0 ] || echo "failed suites: ${failed_names[*]}"
echo "suites: $passed passed, $failed failed"
echo "tests: $t_pass passed, $t_fail failed, $t_skip skipped"
[ $failed -eq 0 ]
