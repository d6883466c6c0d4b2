#!/bin/sh
# plot_browser.sh AESKIT [OUT.png] - draws an `aeskit speed --plot` SVG in a
# real browser (headless Chromium) and checks the screenshot
# (png_check.py): the expected size, not blank, text and frame drawn, each
# implementation's line colour present.  Keeps the screenshot at OUT.png if
# given.  Exits 77 (skipped), saying why, without chromium or python3.
aeskit=$1
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "SKIP: no chromium (Debian package chromium, listed in scripts/deps/plot.txt)"
    exit 77
fi
if ! command -v python3 >/dev/null; then
    echo "SKIP: no python3 to read the screenshot"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# two implementations (colours #1f77b4, #d62728), two algorithms, a wide
# size range: the log y axis has small and large figures to show
backends=generic
best=$("$aeskit" list | sed -n 's/^default backend: //p')
[ -n "$best" ] && [ "$best" != generic ] && backends="$best,generic"
if ! "$aeskit" speed --alg aes-128-gcm,aes-128-cmac --sizes 16,256,4k,16k --seconds 0.02 \
        --peers none --backend "$backends" --quiet --format csv --plot "$tmp/plot.svg" >"$tmp/speed.csv"; then
    echo "FAIL: aeskit speed --plot"
    exit 1
fi
colours="#1f77b4"
case $backends in *,*) colours="$colours #d62728" ;; esac
w=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)".*/\1/p' "$tmp/plot.svg" | head -1)
h=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$tmp/plot.svg" | head -1)
if [ -z "$w" ] || [ -z "$h" ]; then
    echo "FAIL: no width/height on the <svg> element"
    exit 1
fi
# the browser's own profile, no network, no GPU: a clean, quiet, offline run
profile="$tmp/profile"
mkdir -p "$profile"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --force-device-scale-factor=1 --user-data-dir="$profile" --window-size="$w,$h" \
    --screenshot="$tmp/out.png" "file://$tmp/plot.svg" >"$tmp/browser.log" 2>&1
rc=$?
if [ ! -s "$tmp/out.png" ]; then
    echo "FAIL: $browser wrote no screenshot (exit $rc)"
    tail -n 5 "$tmp/browser.log"
    exit 1
fi
[ -n "$keep" ] && cp "$tmp/out.png" "$keep"
# shellcheck disable=SC2086
python3 "$here/png_check.py" "$tmp/out.png" "$w" "$h" $colours
rc=$?
[ $rc = 0 ] && echo "plot: $w x $h SVG drawn by $("$browser" --version 2>/dev/null | head -1), checks passed"
exit $rc
