#!/bin/sh
# cli.sh AESKIT [EMULATOR...] - `aeskit vectors` as a user runs it: a file
# it cannot run never passes, and each kind of bad file is named on stderr
# with the path as given and the reason.  Exits 77 (skipped), saying why,
# when this aeskit was built without cJSON.
aeskit=$1
shift
emu="$*"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0

# expect CODE STREAM PATTERN ARGS...: exit CODE, PATTERN on STREAM (out|err)
expect() {
    want=$1 stream=$2 pat=$3
    shift 3
    $emu "$aeskit" vectors "$@" >out 2>err
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: aeskit vectors $*: exit $got, want $want"; tail -n 5 out err; fail=1
    elif ! grep -q -- "$pat" "$stream"; then
        echo "FAIL: aeskit vectors $*: std$stream lacks '$pat'"; tail -n 5 out err; fail=1
    else
        echo "ok: aeskit vectors $* -> $got"
    fi
}

# GCM specification test case 1 as a one-test Wycheproof file
gcm_test='{"tcId": 1, "comment": "", "flags": [], "key": "00000000000000000000000000000000", "iv": "000000000000000000000000", "aad": "", "msg": "", "ct": "", "tag": "58e2fccefa7e3061367f1d57a4e7455a", "result": "valid"}'
printf '{"algorithm": "AES-GCM", "testGroups": [{"ivSize": 96, "keySize": 128, "tagSize": 128, "type": "AeadTest", "tests": [%s]}]}\n' "$gcm_test" >gcm.json
$emu "$aeskit" vectors gcm.json >out 2>err
if [ $? -eq 3 ]; then
    echo "SKIP: this aeskit was built without cJSON: it cannot read JSON files"
    exit 77
fi
printf '{"algorithm": "AES-FOO", "testGroups": [{"tests": [%s]}]}\n' "$gcm_test" >unknown.json
# EAX paper (Bellare, Rogaway, Wagner 2004), appendix, the first test vector
eax_test='{"tcId": 1, "comment": "", "flags": [], "key": "233952dee4d5ed5f9b9c6d6ff80ff478", "iv": "62ec67f9c3a4a407fcb2a8c49031a8b3", "aad": "6bfb914fd07eae6b", "msg": "", "ct": "", "tag": "e037830e8389f27b025a2d6527e79d01", "result": "valid"}'
printf '{"algorithm": "AES-EAX", "testGroups": [{"ivSize": 128, "keySize": 128, "tagSize": 128, "type": "AeadTest", "tests": [%s]}]}\n' "$eax_test" >eax.json
printf '{"algorithm": "AES-FF1", "testGroups": [{"tests": [%s]}]}\n' "$gcm_test" >ff1.json
printf '{"algorithm": "AES-GCM", "testGroups": []}\n' >empty.json
printf '[1, 2, 3]\n' >notwycheproof.json
printf 'this is not JSON\n' >garbage.json
mkdir adir
# a file larger than the default 64 MiB limit (sparse: nothing is written)
: >big.json
if truncate -s 65M big.json 2>/dev/null; then have_big=1; else have_big=0; fi

expect 0 out "1 passed, 0 failed, 0 skipped, 0 files not understood" gcm.json
expect 0 out "gcm.json \[.*\] AES-GCM: 1 passed" --all-backends gcm.json
# issue 12: an unknown algorithm used to print "0 passed ..." and exit 0
expect 1 err "aeskit vectors: unknown.json: not understood: unknown algorithm" unknown.json
expect 1 out "0 passed, 0 failed, 0 skipped, 1 file not understood" unknown.json
expect 1 out "1 passed, 0 failed, 0 skipped, 1 file not understood" gcm.json unknown.json
expect 1 err "empty.json: not understood: no test in it ran" empty.json
expect 1 err "notwycheproof.json: not understood: not a Wycheproof test file" notwycheproof.json
expect 1 err "garbage.json: not understood: not a Wycheproof test file (JSON parse error)" garbage.json
# issue 15: AES-EAX (and GCM-SIV, SIV, KW, KWP) are run, no longer skipped
expect 0 out "eax.json \[.*\] AES-EAX: 1 passed, 0 failed, 0 skipped" --all-backends eax.json
# a Wycheproof algorithm aeskit does not implement: named, skipped, not a failure
expect 0 out "ff1.json \[.*\] AES-FF1: aeskit does not implement it, 1 tests skipped" ff1.json
# each unreadable file: the path as given, which reason, on stderr
expect 1 err "aeskit vectors: ./no/such.json: no such file" ./no/such.json
expect 1 err "aeskit vectors: adir: is a directory" adir
expect 1 err "aeskit vectors: $tmp/adir/: is a directory" "$tmp/adir/"
expect 1 out "0 passed, 0 failed, 0 skipped, 2 files not understood" ./no/such.json adir
if [ $have_big = 1 ]; then
    expect 1 err "big.json: too large: 68157440 bytes, the limit is 67108864 (--max-size N raises it)" big.json
fi
expect 1 err "gcm.json: too large: .* the limit is 100 " --max-size 100 gcm.json
expect 0 out "1 passed" --max-size=1k gcm.json
expect 2 err "bad --max-size 'lots'" --max-size lots gcm.json
# no size to stat: read only up to the limit, then refused (issue 12: it
# used to grow to 2 GB)
if [ -r /dev/zero ]; then
    expect 1 err "/dev/zero: too large: more than 67108864 bytes" /dev/zero
    expect 1 err "/dev/zero: too large: more than 1048576 bytes" --max-size 1M /dev/zero
fi
# a read error (reading /proc/self/mem at offset 0 fails with EIO on Linux;
# not under an emulator, which has a /proc of its own)
if [ -z "$emu" ] && [ -r /proc/self/mem ] && ! head -c1 /proc/self/mem >/dev/null 2>&1; then
    expect 1 err "/proc/self/mem: read error: " /proc/self/mem
fi
# errors go to stderr only
$emu "$aeskit" vectors ./no/such.json unknown.json >out 2>err
if grep -q "not understood:\|no such file" out; then
    echo "FAIL: error messages on stdout:"; cat out; fail=1
else
    echo "ok: errors on stderr only"
fi
# usage errors
expect 2 err "unknown option '--frobnicate'" --frobnicate
expect 2 err "needs a value" --backend
expect 2 err "backend no-such-backend: unknown backend" --backend no-such-backend gcm.json
expect 0 out "usage: aeskit vectors" --help

[ $fail = 0 ] && echo "vectors cli: all checks passed"
exit $fail
