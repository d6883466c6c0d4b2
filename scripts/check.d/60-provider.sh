#!/usr/bin/env bash
# The OpenSSL 3 provider (issue 14, provider/): build aeskit.so; OpenSSL's
# evp_test data and the differential tests (ctest; akp_modes15: the issue-15
# ciphers), the same three under
# AddressSanitizer + UBSan; then real clients on 127.0.0.1: openssl speed and
# enc, s_server/s_client over TLS 1.3 and 1.2 (GCM, CCM) with 64 MiB each
# way, and Python's ssl module on both ends through an openssl.cnf.  Each TLS
# transfer must show the aeskit seal/open counters of both processes going
# up.  Then nginx and curl with the provider loaded through an openssl.cnf
# (64 MiB each way over TLS 1.3, SHA-256 and counters checked) and openssl
# s_time.  Last, figures only (no timed assertion: speed lives in benchmarks
# that print): akp_bench, GCM through EVP, default provider vs aeskit.
# Exit 77 (skip) where OpenSSL 3 headers or tools are missing.
# About 3-4 minutes on an idle 2-core machine.
set -euo pipefail
if ! pkg-config --atleast-version=3.0 libcrypto 2>/dev/null; then
  echo "skipped: OpenSSL 3 development files (libssl-dev) not installed"; exit 77
fi
for t in openssl python3 ss; do
  command -v $t >/dev/null || { echo "skipped: $t not installed"; exit 77; }
done
# Suite 10's build (build/check-release, the same configure line; the
# provider is on by default where OpenSSL 3 is found), so after that suite
# only the ASan variants are compiled; run alone, it configures that build
# and compiles what the provider needs.
dir=build/check-release
cmake -S . -B $dir -G Ninja -DCMAKE_BUILD_TYPE=Release -DAESKIT_WERROR=ON -DAESKIT_BUILD_PROVIDER=ON >/dev/null
cmake --build $dir --target aeskit_provider akp_evp_runner akp_diff akp_modes15 akp_bench akp_asan
ctest --test-dir $dir -R '^provider-' --output-on-failure
echo "--- the same under AddressSanitizer + UBSan"
data=provider/tests/data
$dir/provider/akp_evp_runner_asan --provider-path $dir/provider/asan \
  $data/evpciph_aes_common.txt $data/evpciph_aes_ccm_cavs.txt $data/evpmac_common.txt \
  $data/evpciph_aes_ocb.txt
$dir/provider/akp_diff_asan --provider-path $dir/provider/asan --iterations 20000
$dir/provider/akp_modes15_asan --provider-path $dir/provider/asan --iterations 6000
echo "--- real clients"
MODDIR=$dir/provider timeout 300 bash provider/scripts/clients.sh 64
timeout 200 python3 provider/scripts/pyssl.py $dir/provider 64
MODDIR=$dir/provider timeout 300 bash provider/scripts/apps.sh 64
echo "--- speed (figures only): GCM through EVP, default provider vs aeskit, and aeskit's one-shot GCM"
for alg in aes-128-gcm aes-256-gcm; do
  $dir/provider/tests/akp_bench --provider-path $dir/provider --alg $alg --rounds 5 --burst-ms 10
done
