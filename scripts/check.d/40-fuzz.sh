#!/usr/bin/env bash
# libFuzzer targets with ASan+UBSan, each for AESKIT_FUZZ_SECONDS (default 60)
# from the committed seed corpus (fuzz/corpus/<target>), new inputs kept in a
# scratch copy.  For hours: see README "Security".
set -euo pipefail
secs=${AESKIT_FUZZ_SECONDS:-60}
# The clang ASan+UBSan build of suite 20 (the same configuration, so after
# suite 20 only the fuzz drivers are left to build).
source scripts/asan-clang-config.sh
dir=$asan_clang_dir
asan_clang_configure
# Every target is built and run: a missing source is a failure, not a skip.
targets=(fuzz_diff fuzz_open fuzz_batch fuzz_vectors)
cmake --build $dir --target "${targets[@]}"
# One fuzz run per core at a time (libFuzzer runs one thread): each target
# still gets its full time; the logs follow in the targets' order.
source scripts/par-jobs.sh
fuzz_one() {
  local t=$1 name=${1#fuzz_}
  local work=$dir/corpus-$name
  rm -rf "$work"; mkdir -p "$work"
  [ -d fuzz/corpus/$name ] && cp fuzz/corpus/$name/* "$work"/ 2>/dev/null || true
  local rc=0
  "$dir/fuzz/$t" -max_total_time="$secs" -print_final_stats=1 -max_len=8192 "$work" >"$work.log" 2>&1 || rc=$?
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY|fuzz assertion)' "$work.log" || true
  # libFuzzer exits non-zero on a crash (the whole log: $work.log)
  [ $rc -eq 0 ] || { echo "$t: exit $rc; log $work.log"; return 1; }
}
for t in "${targets[@]}"; do
  par_job "--- $t for ${secs}s" fuzz_one "$t"
done
par_wait
