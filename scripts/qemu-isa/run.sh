#!/usr/bin/env bash
# The seed's experiment (issue 17), reproduced: Debian 12's QEMU 7.2 with
# target/i386's AES-NI and PCLMULQDQ helpers routed to aeskit_isa, against
# the stock Debian qemu-x86_64, running Debian's x86-64 `openssl speed`.
#
#   scripts/qemu-isa/run.sh [all|build|bench|profile]     (default: all)
#   ARM=1 scripts/qemu-isa/run.sh ...   also the other direction: qemu-aarch64
#          with target/arm's AESE/AESD/AESMC/AESIMC/PMULL(.1Q) helpers routed
#          to aeskit_isa (0002-*.patch), running Debian's arm64 openssl
#          (openssl:arm64 and libssl3:arm64 unpacked with apt-get download +
#          dpkg -x, nothing installed) with and without OPENSSL_armcap=0
#          (OpenSSL's own switch to its table-driven software AES).
#
#   build: adds a deb-src line if there is none, `apt-get source qemu`
#          (23 MB), builds aeskit (Release, static), applies
#          scripts/qemu-isa/*.patch (ours: ops_sse.h's AES/PCLMUL helpers
#          call aeskit_isa_x86_*), configures QEMU for x86_64-linux-user
#          only and builds qemu-x86_64.
#   bench: `openssl speed -evp aes-128-gcm` and `-evp aes-128-ctr` under the
#          stock /usr/bin/qemu-x86_64 and the patched one, each with
#          -cpu max (the guest sees AES-NI and PCLMULQDQ) and -cpu qemu64
#          (it does not; OpenSSL uses its table-driven software AES), and
#          prints a table in MB/s (10^6 bytes/s).
#   profile: perf (cpu-clock samples) of a 16 KiB AES-128-GCM run under each
#          qemu-x86_64: the share of translated code and of the AES/PCLMULQDQ
#          helpers, and the speed-up bounds they imply (RUNS=3 runs).
#
# Not in CI: the QEMU build takes about 20 minutes on 2 shared cores (it
# runs under nice -n 19 with -j2, override with JOBS=); the benchmark about
# 3 minutes (SECONDS_PER_SIZE=2, 6 sizes, 8 runs).  Needs root (or sudo)
# for apt-get the first time.  Work directory: build-qemu-isa/ in the
# repository (WORK= to change it).  The patch needs a little-endian host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${WORK:-$root/build-qemu-isa}
jobs=${JOBS:-2}
secs=${SECONDS_PER_SIZE:-2}
stage=${1:-all}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
mkdir -p "$work"
cd "$work"

build() {
    local t0=$(date +%s)
    # 1. packages: the build needs meson and glib; the benchmark the stock
    #    qemu-user and openssl.
    local need=()
    for p in meson libglib2.0-dev qemu-user openssl dpkg-dev ninja-build pkg-config; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
    done
    if [ ${#need[@]} -gt 0 ]; then
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq "${need[@]}"
    fi
    # 2. the source: a deb-src line for bookworm if none is configured.
    if [ ! -d qemu-7.2+dfsg ]; then
        if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
                $sudo tee /etc/apt/sources.list.d/aeskit-qemu-src.sources >/dev/null
            $sudo apt-get update -qq
        fi
        apt-get source -qq qemu
    fi
    local src=$work/qemu-7.2+dfsg
    [ -d "$src" ] || { echo "qemu-isa: apt-get source gave no qemu-7.2+dfsg (not Debian 12?)"; exit 1; }
    # 3. aeskit, static, position-independent (QEMU links PIE).
    cmake -S "$root" -B "$work/aeskit-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DAESKIT_BUILD_TESTS=OFF -DAESKIT_BUILD_TOOLS=OFF -DAESKIT_WERROR=OFF >/dev/null
    nice -n 19 cmake --build "$work/aeskit-build" -j"$jobs" --target aeskit_static
    local lib=$work/aeskit-build/libaeskit.a
    # 4. our patch (idempotent).
    for p in "$here"/*.patch; do
        if patch -d "$src" -p1 -R --dry-run -s <"$p" >/dev/null 2>&1; then
            echo "qemu-isa: $(basename "$p") already applied"
        else
            patch -d "$src" -p1 <"$p"
        fi
    done
    # 5. configure + build qemu-x86_64 only.  The archive is linked whole
    #    (--whole-archive) so its place on the link line does not matter.
    local targets=x86_64-linux-user bins=qemu-x86_64
    if [ "${ARM:-0}" = 1 ]; then
        targets=$targets,aarch64-linux-user
        bins="$bins qemu-aarch64"
    fi
    mkdir -p "$src/build-isa"
    cd "$src/build-isa"
    local have=1
    for t in ${targets//,/ }; do grep -q "^TARGET_DIRS=.*$t" config-host.mak 2>/dev/null || have=0; done
    if [ ! -f build.ninja ] || [ $have = 0 ]; then
        ../configure --target-list=$targets --disable-system --disable-tools \
            --disable-docs --disable-werror --disable-capstone --disable-gnutls --disable-nettle \
            --disable-gcrypt --extra-cflags="-I$root/include" \
            --extra-ldflags="-Wl,--push-state,--whole-archive,$lib,--pop-state" >configure.log 2>&1 ||
            { tail -30 configure.log; exit 1; }
    fi
    nice -n 19 ninja -j"$jobs" $bins
    for b in $bins; do cp "$b" "$work/$b-aeskit"; done
    cd "$work"
    echo "qemu-isa: built $work/qemu-x86_64-aeskit in $(( $(date +%s) - t0 ))s"
}

# speed QEMU CPU ALG: the openssl speed row, in MB/s per block size.
speed() {
    nice -n 5 "$1" -cpu "$2" /usr/bin/openssl speed -seconds "$secs" -evp "$3" 2>/dev/null |
        awk -v alg="$3" 'tolower($1) == alg { for (i = 2; i <= NF; i++) { v = $i; sub(/k$/, "", v); printf " %9.1f", v / 1000 } }'
}

bench() {
    local patched=$work/qemu-x86_64-aeskit stock=/usr/bin/qemu-x86_64
    [ -x "$patched" ] || { echo "qemu-isa: run '$0 build' first"; exit 1; }
    local t0=$(date +%s)
    echo "openssl $(/usr/bin/openssl version | awk '{print $2}') speed -seconds $secs, MB/s (10^6 bytes/s);"
    echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); aeskit_isa host path as printed by 'aeskit isa-speed'"
    printf '%-34s %9s %9s %9s %9s %9s %9s\n' "qemu-x86_64, guest CPU, cipher" 16B 64B 256B 1KiB 8KiB 16KiB
    for alg in aes-128-gcm aes-128-ctr; do
        for cpu in max qemu64; do
            printf '%-34s%s\n' "stock (Debian 7.2) -cpu $cpu $alg" "$(speed "$stock" "$cpu" "$alg")"
            printf '%-34s%s\n' "aeskit_isa patch  -cpu $cpu $alg" "$(speed "$patched" "$cpu" "$alg")"
        done
    done
    echo "(bench took $(( $(date +%s) - t0 ))s)"
    [ "${ARM:-0}" = 1 ] && bench_arm
    return 0
}

# The other direction: an arm64 guest's openssl on this (x86) host.
speed_arm() { # QEMU ARMCAP ALG
    local root=$work/arm64-root
    nice -n 5 "$1" -cpu max -L /usr/aarch64-linux-gnu \
        -E LD_LIBRARY_PATH="$root/usr/lib/aarch64-linux-gnu:/usr/aarch64-linux-gnu/lib" ${2:+-E OPENSSL_armcap=$2} \
        "$root/usr/bin/openssl" speed -seconds "$secs" -evp "$3" 2>/dev/null |
        awk -v alg="$3" 'tolower($1) == alg { for (i = 2; i <= NF; i++) { v = $i; sub(/k$/, "", v); printf " %9.1f", v / 1000 } }'
}
bench_arm() {
    local patched=$work/qemu-aarch64-aeskit stock=/usr/bin/qemu-aarch64 root=$work/arm64-root
    [ -x "$patched" ] || { echo "qemu-isa: ARM=1 '$0 build' first"; exit 1; }
    if [ ! -x "$root/usr/bin/openssl" ]; then
        mkdir -p "$work/arm64-debs" "$root"
        (cd "$work/arm64-debs" && apt-get download -qq openssl:arm64 libssl3:arm64)
        for d in "$work"/arm64-debs/*.deb; do dpkg -x "$d" "$root"; done
    fi
    printf '%-34s %9s %9s %9s %9s %9s %9s\n' "qemu-aarch64 -cpu max, cipher" 16B 64B 256B 1KiB 8KiB 16KiB
    for alg in aes-128-gcm aes-128-ctr; do
        for cap in "" 0; do
            local what="ARMv8 CE"
            [ -n "$cap" ] && what="armcap=0"
            printf '%-34s%s\n' "stock (Debian 7.2) $what $alg" "$(speed_arm "$stock" "$cap" "$alg")"
            printf '%-34s%s\n' "aeskit_isa patch  $what $alg" "$(speed_arm "$patched" "$cap" "$alg")"
        done
    done
}

# profile: where each qemu-x86_64 spends a 16 KiB AES-128-GCM `openssl speed`
# run, sampled by perf's cpu-clock software event (no hardware counters
# needed).  Three shares per run: the translated guest code ([JIT]: the same
# TCG output in both builds, since the patch changes helper bodies only),
# the AES-NI/PCLMULQDQ helpers with aeskit_isa beneath them (patched build
# only: the stock binary is stripped), and the rest.  From them, two upper
# bounds on what any AES/PCLMULQDQ helper could give:
#   stock / JIT-only:   throughput <= stock / (JIT share of stock)
#                       (every helper, ours and QEMU's, free);
#   patched, ours free: throughput <= patched / (1 - helper share of patched).
profile() {
    local patched=$work/qemu-x86_64-aeskit stock=/usr/bin/qemu-x86_64 runs=${RUNS:-3}
    if ! command -v perf >/dev/null; then
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq linux-perf
    fi
    [ -x "$patched" ] || { echo "qemu-isa: run '$0 build' first"; exit 1; }
    printf '%-24s %10s %8s %14s %22s\n' run "MB/s" "JIT" "AES/PCLMUL" "bound (x stock run)"
    local r q n mbs jit aes s_mbs=0
    for r in $(seq "$runs"); do
        for q in "$stock" "$patched"; do
            n=$work/profile-$(basename "$q")-$r.data
            mbs=$(perf record -q -e cpu-clock -F 2000 -o "$n" -- "$q" -cpu max /usr/bin/openssl speed \
                -evp aes-128-gcm -seconds "$secs" -bytes 16384 2>/dev/null |
                awk '/^AES-128-GCM/ { v = $2; sub(/k$/, "", v); printf "%.1f", v / 1000 }')
            jit=$(perf report -i "$n" --stdio --sort dso 2>/dev/null | awk '/\[JIT\]/ { sub(/%/, "", $1); s += $1 } END { printf "%.1f", s }')
            aes=$(perf report -i "$n" --stdio --sort sym 2>/dev/null |
                awk '/h_x86_aes|h_x86_pclmul|helper_aes|helper_pclmul|aeskit_isa_/ { sub(/%/, "", $1); s += $1 } END { printf "%.1f", s }')
            if [ "$q" = "$stock" ]; then
                s_mbs=$mbs
                printf '%-24s %10s %7s%% %14s %22s\n' "stock $r" "$mbs" "$jit" "(stripped)" \
                    "$(awk -v j="$jit" 'BEGIN { printf "JIT-only <= %.1fx", 100 / j }')"
            else
                printf '%-24s %10s %7s%% %13s%% %22s\n' "patched $r" "$mbs" "$jit" "$aes" \
                    "$(awk -v m="$mbs" -v a="$aes" -v s="$s_mbs" 'BEGIN { printf "%.1fx, ours free <= %.1fx", m / s, m / (1 - a / 100) / s }')"
            fi
        done
    done
}

case $stage in
    build) build ;;
    bench) bench ;;
    profile) profile ;;
    all) build; bench ;;
    *) echo "usage: $0 [all|build|bench|profile]"; exit 2 ;;
esac
