# par-jobs.sh - run a suite's independent long commands as many at a time
# as there are cores, each into its own log, then show the logs in the order
# the jobs were started.  Sourced by scripts/check.d/40-fuzz.sh and
# 50-ctgrind.sh, whose runs are single-threaded (libFuzzer, valgrind).
#   par_job TITLE CMD...   start CMD (a command or a shell function) in the
#                          background, output to its own log; waits first
#                          while all cores are busy
#   par_wait               wait for every job, print each log after its
#                          TITLE; returns non-zero if any job failed, and
#                          names the jobs that failed; then a new set
#                          of jobs may start
par_max=$(nproc 2>/dev/null || echo 2)
par_reset() {
  par_dir=$(mktemp -d)
  par_n=0
  par_titles=()
}
par_reset

par_job() {
  local title=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$par_max" ]; do
    wait -n || true
  done
  { "$@"; echo $? >"$par_dir/$par_n.rc"; } >"$par_dir/$par_n.log" 2>&1 &
  par_titles+=("$title")
  par_n=$((par_n + 1))
}

par_wait() {
  local i rc=0 failed=()
  wait
  for i in "${!par_titles[@]}"; do
    if [ "$(cat "$par_dir/$i.rc" 2>/dev/null)" != 0 ]; then
      rc=1
      failed+=("${par_titles[$i]}")
    fi
    echo "${par_titles[$i]}"
    cat "$par_dir/$i.log"
  done
  rm -rf "$par_dir"
  par_reset
  [ $rc -eq 0 ] || echo "failed: ${failed[*]}"
  return $rc
}
