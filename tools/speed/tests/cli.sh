#!/bin/sh
# cli.sh AESKIT [EMULATOR...] - `aeskit speed` as a user runs it: exit
# codes and messages.  A cross build passes its emulator (qemu-aarch64 ...).
aeskit=$1
shift
emu="$*"
fail=0
expect() { # expect CODE PATTERN ARGS...
    want=$1 pat=$2
    shift 2
    out=$($emu "$aeskit" speed "$@" 2>&1)
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: aeskit speed $*: exit $got, want $want"; echo "$out" | tail -5; fail=1
    elif ! printf '%s\n' "$out" | grep -q -- "$pat"; then
        echo "FAIL: aeskit speed $*: output lacks '$pat'"; echo "$out" | tail -5; fail=1
    else
        echo "ok: aeskit speed $* -> $got"
    fi
}
expect 2 "unknown option '--frobnicate'" --frobnicate
expect 2 "unknown algorithm 'aes-100-gcm'" --alg aes-100-gcm
expect 2 "bad size" --sizes 0
expect 2 "backend 'no-such-backend'" --backend no-such-backend --quiet
expect 0 "usage: aeskit speed" --help
expect 0 "AES-128-GCM enc" --sizes 16 --seconds 0.01 --quiet
expect 0 "aes-256-xts,dec,32,0," --alg all --sizes 32 --seconds 0.01 --decrypt --format csv --quiet --peers none
expect 2 "unknown preset 'arm'" --preset arm
expect 2 "cannot be combined" --preset x86 --sizes 16
expect 0 "AES-128-CMAC mac, streamed 16 B per update" --preset x86 --seconds 0.01 --quiet
expect 0 "usage: aeskit speed" -h
expect 2 "unknown --plot-y 'cubic'" --plot-y cubic
# issue 12: a plot path that cannot be written used to fail only after the
# whole benchmark, without a reason; now at once, before any measurement
out=$($emu "$aeskit" speed --plot /nonexistent/dir/x.svg --sizes 16 --seconds 0.01 2>&1)
got=$?
if [ "$got" != 2 ] || ! printf '%s\n' "$out" | grep -q -- "--plot /nonexistent/dir/x.svg: No such file or directory"; then
    echo "FAIL: --plot /nonexistent/dir/x.svg: exit $got"; echo "$out" | tail -5; fail=1
elif printf '%s\n' "$out" | grep -q "core clock\|AES-128-GCM"; then
    echo "FAIL: --plot /nonexistent/dir/x.svg: measured before failing"; echo "$out" | tail -5; fail=1
else
    echo "ok: aeskit speed --plot /nonexistent/dir/x.svg -> 2 before measuring"
fi
[ $fail = 0 ] && echo "cli: all checks passed"
exit $fail
