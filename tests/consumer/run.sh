#!/usr/bin/env bash
# run.sh PREFIX - uses an aeskit installed at PREFIX (cmake --install build
# --prefix PREFIX) the ways the README documents, and checks each result:
#   1. pkg-config: `cc app.c $(pkg-config --cflags --libs aeskit)`, run
#      against the shared library; `pkg-config --static` linked statically
#   2. find_package(aeskit): aeskit::aeskit shared by default, static with
#      -Daeskit_USE_STATIC=ON or COMPONENTS static, and the explicit targets
#   3. the tree moved elsewhere still works (aeskit.pc and the CMake package
#      are relative to where they lie)
#   4. the installed command and its manual page
# Each step prints one "ok:" or "FAIL:" line; exits 1 if any failed.
set -uo pipefail
prefix=$(cd "$1" && pwd) || exit 1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cc=${CC:-cc}
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

libdir=$(ls -d "$prefix"/lib*/pkgconfig 2>/dev/null | head -1)
libdir=${libdir%/pkgconfig}
[ -n "$libdir" ] || { echo "FAIL: no lib*/pkgconfig under $prefix"; exit 1; }

# needs_shared BINARY: 0 if BINARY needs libaeskit.so
needs_shared() { readelf -d "$1" 2>/dev/null | grep -q 'NEEDED.*libaeskit\.so'; }

# 1. pkg-config, shared and static
pc() { PKG_CONFIG_PATH="$1/${libdir#"$prefix"/}/pkgconfig" pkg-config "${@:2}" aeskit; }
pkgconfig_recipes() { # PREFIX LABEL
    local p=$1 label=$2
    local flags
    flags=$(pc "$p" --cflags --libs) || { bad "$label: pkg-config --cflags --libs aeskit failed"; return; }
    # the -I and -L directories, resolved, must be this tree's
    local inc lib
    inc=$(printf '%s\n' $flags | sed -n 's/^-I//p' | head -1)
    lib=$(printf '%s\n' $flags | sed -n 's/^-L//p' | head -1)
    if [ -n "$inc" ] && [ -n "$lib" ] && [ "$(realpath -m "$inc")" = "$p/include" ] &&
        [ "$(realpath -m "$lib")" = "$p/${libdir#"$prefix"/}" ]; then
        ok "$label: pkg-config --cflags --libs aeskit names this tree: $flags"
    else
        bad "$label: pkg-config --cflags --libs aeskit = '$flags', not $p/include and $p/${libdir#"$prefix"/}"
    fi
    local ver
    ver=-DEXPECT_VERSION=\"$(pc "$p" --modversion)\"
    # shellcheck disable=SC2086
    if $cc "$here/app.c" -o "$work/app-pc" "$ver" $flags 2>"$work/cc.log" &&
        out=$(LD_LIBRARY_PATH="$p/${libdir#"$prefix"/}" "$work/app-pc") && needs_shared "$work/app-pc"; then
        ok "$label: cc app.c \$(pkg-config --cflags --libs aeskit) -> shared: $out"
    else
        bad "$label: the pkg-config shared recipe"; cat "$work/cc.log"
    fi
    local sflags
    sflags=$(pc "$p" --static --cflags --libs) || { bad "$label: pkg-config --static failed"; return; }
    # static: -l names resolved to the archive (-Wl,-Bstatic), libc still shared
    # shellcheck disable=SC2086
    if $cc "$here/app.c" -o "$work/app-pcs" "$ver" $(pc "$p" --cflags) -Wl,-Bstatic $(pc "$p" --static --libs) -Wl,-Bdynamic 2>"$work/cc.log" &&
        out=$("$work/app-pcs") && ! needs_shared "$work/app-pcs"; then
        ok "$label: pkg-config --static (libaeskit.a, no libaeskit.so needed): $out"
    else
        bad "$label: the pkg-config static recipe ($sflags)"; cat "$work/cc.log"
    fi
}
pkgconfig_recipes "$prefix" "pkg-config"

# 2. find_package(aeskit)
cmake_recipe() { # PREFIX LABEL WANT(shared|static) CMAKE-ARGS...
    local p=$1 label=$2 want=$3
    shift 3
    local b="$work/b-$RANDOM"
    if ! cmake -S "$here" -B "$b" -G Ninja -DCMAKE_PREFIX_PATH="$p" "$@" >"$work/cm.log" 2>&1 ||
        ! cmake --build "$b" >>"$work/cm.log" 2>&1; then
        bad "$label: configure/build against $p"; tail -n 20 "$work/cm.log"; return
    fi
    local out
    if ! out=$(LD_LIBRARY_PATH= "$b/app" 2>&1); then
        bad "$label: app did not run: $out"; return
    fi
    if needs_shared "$b/app"; then got=shared; else got=static; fi
    if [ "$got" = "$want" ]; then
        ok "$label: $got: $out"
    else
        bad "$label: linked $got, want $want"
    fi
}
cmake_recipe "$prefix" "find_package(aeskit) + aeskit::aeskit" shared
cmake_recipe "$prefix" "-Daeskit_USE_STATIC=ON + aeskit::aeskit" static -Daeskit_USE_STATIC=ON
cmake_recipe "$prefix" "COMPONENTS static + aeskit::aeskit" static -DCONSUMER_COMPONENT=static
cmake_recipe "$prefix" "COMPONENTS shared + aeskit::aeskit" shared -DCONSUMER_COMPONENT=shared
cmake_recipe "$prefix" "aeskit::aeskit_shared" shared -DCONSUMER_TARGET=aeskit_shared
cmake_recipe "$prefix" "aeskit::aeskit_static" static -DCONSUMER_TARGET=aeskit_static
# an unknown component is refused at configure time
if cmake -S "$here" -B "$work/b-bad" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_COMPONENT=frobnicate >"$work/cm.log" 2>&1; then
    bad "find_package(aeskit COMPONENTS frobnicate) was accepted"
else
    ok "find_package(aeskit COMPONENTS frobnicate) refused"
fi

# 3. the same tree moved: nothing in it may name the install prefix
moved="$work/moved/elsewhere"
mkdir -p "$moved" && cp -a "$prefix"/. "$moved"/
if grep -rlF "$prefix" "$moved/${libdir#"$prefix"/}/pkgconfig" "$moved/${libdir#"$prefix"/}/cmake" >"$work/grep.log" 2>/dev/null; then
    bad "the installed package names its prefix: $(tr '\n' ' ' <"$work/grep.log")"
else
    ok "aeskit.pc and the CMake package are relative to where they lie"
fi
pkgconfig_recipes "$moved" "moved tree, pkg-config"
cmake_recipe "$moved" "moved tree, find_package(aeskit)" shared
cmake_recipe "$moved" "moved tree, -Daeskit_USE_STATIC=ON" static -Daeskit_USE_STATIC=ON

# 4. the command and its manual page
if out=$("$prefix/bin/aeskit" --version) && [ "$out" = "$("$prefix/bin/aeskit" -V)" ]; then
    ok "installed command: $out"
else
    bad "no working $prefix/bin/aeskit"
fi
man1="$prefix/share/man/man1/aeskit.1"
if [ ! -f "$man1" ]; then
    bad "no manual page $man1"
elif command -v groff >/dev/null; then
    if warn=$(groff -man -Tutf8 -ww -z "$man1" 2>&1) && [ -z "$warn" ]; then
        # Plain text: no SGR escapes, overstrikes removed; a word may be
        # split by the justification's extra spaces.
        text=$(GROFF_NO_SGR=1 groff -man -Tutf8 -P-c "$man1" 2>/dev/null |
            sed 's/.\x08//g; s/\x1b\[[0-9;]*m//g' | tr -s ' ')
        missing=""
        for w in "aeskit list" "aeskit vectors" "aeskit speed" AESKIT_CPU AESKIT_BACKEND "EXIT STATUS"; do
            # A here-string, not a pipe: under pipefail, grep -q leaving
            # early would fail the writer with SIGPIPE.
            grep -qF -- "$w" <<<"$text" || missing="$missing '$w'"
        done
        if [ -z "$missing" ]; then
            ok "manual page $man1 renders without warnings"
        else
            bad "aeskit.1 lacks$missing; groff rendered ${#text} characters, these lines name aeskit:"
            grep -n 'aeskit [a-z]' <<<"$text" | head -n 20
        fi
    else
        bad "groff warns on aeskit.1: $warn"
    fi
else
    ok "manual page installed ($man1; groff absent, not rendered)"
fi

exit $fail
