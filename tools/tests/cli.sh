#!/bin/sh
# cli.sh AESKIT [EMULATOR...] - the aeskit command's conventions, the same
# for every command: help on stdout with exit 0 (-h, --help, help COMMAND),
# a usage error on stderr with exit 2, -V/--version, and a bad AESKIT_CPU
# or AESKIT_BACKEND reported (naming what is wrong) with exit 2.
aeskit=$1
shift
emu="$*"
# The checks set AESKIT_CPU and AESKIT_BACKEND themselves: a value from the
# caller's environment (a per-backend ctest run) would change their answers.
unset AESKIT_CPU AESKIT_BACKEND
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect CODE STREAM PATTERN [VAR=VALUE...] -- ARGS...: exit CODE, PATTERN
# on STREAM (out|err); "empty-out" / "empty-err" as STREAM checks that
# stream is empty and PATTERN is on the other one.
expect() {
    want=$1 stream=$2 pat=$3
    shift 3
    envs=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    env $envs $emu "$aeskit" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    case $stream in
        empty-out) other=err; empty=out ;;
        empty-err) other=out; empty=err ;;
        *) other=$stream; empty= ;;
    esac
    if [ "$got" != "$want" ]; then
        echo "FAIL:$envs aeskit $*: exit $got, want $want"; tail -n 3 "$tmp/out" "$tmp/err"; fail=1
    elif ! grep -q -- "$pat" "$tmp/$other"; then
        echo "FAIL:$envs aeskit $*: std$other lacks '$pat'"; tail -n 3 "$tmp/out" "$tmp/err"; fail=1
    elif [ -n "$empty" ] && [ -s "$tmp/$empty" ]; then
        echo "FAIL:$envs aeskit $*: std$empty is not empty"; tail -n 3 "$tmp/$empty"; fail=1
    else
        echo "ok:$envs aeskit $* -> $got"
    fi
}

# help: stdout, exit 0, nothing on stderr
expect 0 empty-err "usage: aeskit COMMAND" -- --help
expect 0 empty-err "usage: aeskit COMMAND" -- -h
expect 0 empty-err "usage: aeskit COMMAND" -- help
for c in list vectors speed; do
    expect 0 empty-err "usage: aeskit $c" -- $c --help
    expect 0 empty-err "usage: aeskit $c" -- $c -h
    expect 0 empty-err "usage: aeskit $c" -- help $c
done
# the version, three ways
expect 0 empty-err "^aeskit [0-9][0-9.]*" -- -V
expect 0 empty-err "^aeskit [0-9][0-9.]*" -- --version
expect 0 empty-err "^aeskit [0-9][0-9.]*" -- version
# usage errors: stderr, exit 2, nothing on stdout
expect 2 empty-out "usage: aeskit COMMAND" --
expect 2 empty-out "unknown command 'frobnicate'" -- frobnicate
expect 2 empty-out "unknown option '--frobnicate'" -- --frobnicate
expect 2 empty-out "unknown command 'frobnicate'" -- help frobnicate
expect 2 empty-out "unexpected argument 'extra'" -- list extra
expect 2 empty-out "unexpected argument 'extra'" -- -V extra
expect 2 empty-out "unknown option '--frobnicate'" -- vectors --frobnicate
expect 2 empty-out "unknown option '--frobnicate'" -- speed --frobnicate

# AESKIT_CPU: every token checked, the bad one named
expect 0 empty-err "^aeskit " AESKIT_CPU=generic -- list
expect 0 out "CPU features: (none)" AESKIT_CPU=generic -- list
expect 0 out "default backend: " "AESKIT_CPU=-avx512,-vaes" -- list
expect 2 err "AESKIT_CPU=\"-avx9\": unknown token '-avx9'" AESKIT_CPU=-avx9 -- list
expect 2 err "unknown token 'avx2' (a feature is masked with a leading '-')" AESKIT_CPU=avx2 -- list
# '+' sets a tuning token only, never an instruction set
expect 0 empty-err "^aeskit " AESKIT_CPU=+kara512 -- list
expect 0 empty-err "^aeskit " AESKIT_CPU=-kara512 -- list
expect 2 err "unknown token '+avx2'" AESKIT_CPU=+avx2 -- list
expect 2 err "unknown token '-bogus'" "AESKIT_CPU=-avx512,-bogus" -- vectors --builtin
expect 2 err "unknown token '-bogus'" "AESKIT_CPU=-bogus" -- speed --sizes 16 --seconds 0.01 --quiet
# AESKIT_BACKEND: a name that cannot run is an error, not a truncated row
expect 2 err "AESKIT_BACKEND=\"no-such\": unknown backend" AESKIT_BACKEND=no-such -- list
expect 2 err "AESKIT_BACKEND=\"no-such\": unknown backend" AESKIT_BACKEND=no-such -- vectors --builtin
expect 2 empty-out "AESKIT_BACKEND=\"no-such\": unknown backend" AESKIT_BACKEND=no-such -- speed --sizes 16 --seconds 0.01 --quiet
expect 0 out "default backend: generic" AESKIT_BACKEND=generic -- list
# a backend compiled in that the (masked) CPU cannot run
other=$($emu "$aeskit" list | awk '$3 == "yes" && $1 != "generic" {print $1; exit}')
if [ -n "$other" ]; then
    expect 2 err "AESKIT_BACKEND=\"$other\": " AESKIT_CPU=generic AESKIT_BACKEND=$other -- list
fi

[ $fail = 0 ] && echo "aeskit cli: all checks passed"
exit $fail
