#!/usr/bin/env bash
# Real applications with the aeskit provider loaded only through an
# openssl.cnf (OPENSSL_CONF; default_properties = ?provider=aeskit), on
# 127.0.0.1 only:
#   1. nginx serves over TLS 1.3, curl fetches MiB MiB from it and PUTs MiB
#      MiB back (nginx's DAV module), for TLS_AES_128_GCM_SHA256 and
#      TLS_AES_256_GCM_SHA384; both SHA-256s checked, the suite nginx logged
#      checked, and the aeskit seal/open counters each process wrote at exit
#      (AESKIT_PROVIDER_STATS) must cover the records: 16 KiB records at most,
#      so MiB * 64 each way.
#   2. openssl s_time against s_server -WWW, both with aeskit: connections
#      and bytes per second (printed; nothing asserted about the figures).
# usage: MODDIR=build/provider provider/scripts/apps.sh [MiB]
# exit 0 all passed, 1 a failure, 77 nginx or curl is missing.
MODDIR=$(cd "${MODDIR:?}" && pwd)
. "$(dirname "$0")/common.sh"
MIB=${1:-64}
for t in nginx curl openssl ss sha256sum timeout; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
W=$(mktemp -d /tmp/akp-apps.XXXXXX)
NGINX_PID=
cleanup() {
  if [ -n "$NGINX_PID" ]; then kill "$NGINX_PID" 2>/dev/null || true; fi
  rm -rf "$W"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$W/openssl.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
aeskit = aeskit_sect
[default_sect]
activate = 1
[aeskit_sect]
module = $MODDIR/aeskit.so
activate = 1
[evp_properties]
default_properties = ?provider=aeskit
EOF
export OPENSSL_CONF=$W/openssl.cnf

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/key.pem" -out "$W/crt.pem" -days 2 \
  -subj /CN=localhost -addext subjectAltName=DNS:localhost 2>/dev/null
mkdir -p "$W/www/up" "$W/tmp"
head -c $((MIB * 1024 * 1024)) /dev/urandom > "$W/www/down.bin"
head -c $((MIB * 1024 * 1024)) /dev/urandom > "$W/up.bin"
sum_down=$(sha256sum < "$W/www/down.bin" | cut -d' ' -f1)
sum_up=$(sha256sum < "$W/up.bin" | cut -d' ' -f1)
records=$((MIB * 1024 / 16))

echo "--- nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') and $(curl -V | head -1 | cut -d' ' -f1-2), aeskit through OPENSSL_CONF, $MIB MiB each way"
echo "  $(openssl list -providers | grep -A2 aeskit | tr -s ' \n' ' ')"

# nginx_case NAME SUITE
nginx_case() {
  local name=$1 suite=$2 port
  port=$(free_port)
  rm -f "$W"/*.stats "$W/www/up/"* "$W/access.log"
  # one process (master_process off) as the invoking user; nginx clears the
  # environment of what it runs unless named by env
  cat > "$W/nginx.conf" <<EOF
daemon off;
master_process off;
pid $W/nginx.pid;
error_log $W/error.log warn;
env OPENSSL_CONF;
env AESKIT_PROVIDER_STATS;
events { worker_connections 64; }
http {
  log_format akp '\$request_method \$uri \$status \$ssl_protocol \$ssl_cipher \$bytes_sent \$request_length';
  access_log $W/access.log akp;
  client_body_temp_path $W/tmp/body;
  proxy_temp_path $W/tmp/proxy;
  fastcgi_temp_path $W/tmp/fastcgi;
  uwsgi_temp_path $W/tmp/uwsgi;
  scgi_temp_path $W/tmp/scgi;
  server {
    listen 127.0.0.1:$port ssl;
    server_name localhost;
    ssl_certificate $W/crt.pem;
    ssl_certificate_key $W/key.pem;
    ssl_protocols TLSv1.3;
    root $W/www;
    client_max_body_size 0;
    location /up/ { dav_methods PUT; create_full_put_path on; }
  }
}
EOF
  AESKIT_PROVIDER_STATS="$W/nginx.stats" nginx -p "$W/" -c "$W/nginx.conf" -e "$W/error.log" \
    >"$W/nginx.out" 2>&1 &
  NGINX_PID=$!
  if ! wait_listen "$port"; then
    fail "$name: nginx did not start"; cat "$W/nginx.out" "$W/error.log" 2>/dev/null | tail -5
    kill "$NGINX_PID" 2>/dev/null; NGINX_PID=; return
  fi
  local c=(curl -sS --fail --tlsv1.3 --tls13-ciphers "$suite" --cacert "$W/crt.pem"
           --resolve "localhost:$port:127.0.0.1" --max-time 120)
  local t0 t1 t2
  t0=$(date +%s.%N)
  AESKIT_PROVIDER_STATS="$W/curl-get.stats" "${c[@]}" -o "$W/got.bin" \
    -w '%{ssl_verify_result} %{http_version}\n' "https://localhost:$port/down.bin" >"$W/get.out" 2>&1 \
    || fail "$name: curl GET: $(tail -1 "$W/get.out")"
  t1=$(date +%s.%N)
  AESKIT_PROVIDER_STATS="$W/curl-put.stats" "${c[@]}" -T "$W/up.bin" \
    "https://localhost:$port/up/up.bin" >"$W/put.out" 2>&1 \
    || fail "$name: curl PUT: $(tail -1 "$W/put.out")"
  t2=$(date +%s.%N)
  kill -QUIT "$NGINX_PID" 2>/dev/null
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=
  local ns no gs go ps po got_suite down up
  read -r ns no < <(stats_of "$W/nginx.stats")
  read -r gs go < <(stats_of "$W/curl-get.stats")
  read -r ps po < <(stats_of "$W/curl-put.stats")
  got_suite=$(awk '$1 == "GET" {print $4, $5}' "$W/access.log" | head -1)
  down=$(sha256sum < "$W/got.bin" 2>/dev/null | cut -d' ' -f1)
  up=$(sha256sum < "$W/www/up/up.bin" 2>/dev/null | cut -d' ' -f1)
  if [ "$got_suite" != "TLSv1.3 $suite" ]; then
    fail "$name: nginx logged '$got_suite', wanted TLSv1.3 $suite"
  elif [ "$down" != "$sum_down" ]; then
    fail "$name: nginx -> curl: SHA-256 differs ($(stat -c %s "$W/got.bin" 2>/dev/null || echo 0) bytes)"
  elif [ "$up" != "$sum_up" ]; then
    fail "$name: curl -> nginx: SHA-256 differs ($(stat -c %s "$W/www/up/up.bin" 2>/dev/null || echo 0) bytes)"
  elif [ "${ns:-0}" -lt $records ] || [ "${go:-0}" -lt $records ]; then
    fail "$name: nginx -> curl counters too low (nginx seal=${ns:-?}, curl open=${go:-?}, need $records)"
  elif [ "${ps:-0}" -lt $records ] || [ "${no:-0}" -lt $records ]; then
    fail "$name: curl -> nginx counters too low (curl seal=${ps:-?}, nginx open=${no:-?}, need $records)"
  else
    printf '  %s: nginx -> curl %s MiB in %.2f s, curl -> nginx %s MiB in %.2f s, SHA-256 ok, nginx logged %s\n' \
      "$name" "$MIB" "$(awk "BEGIN {print $t1 - $t0}")" "$MIB" "$(awk "BEGIN {print $t2 - $t1}")" "$got_suite"
    echo "    aeskit counters: nginx seal=$ns open=$no; curl GET seal=$gs open=$go; curl PUT seal=$ps open=$po"
  fi
}

nginx_case "TLS 1.3 AES-128-GCM" TLS_AES_128_GCM_SHA256
nginx_case "TLS 1.3 AES-256-GCM" TLS_AES_256_GCM_SHA384

echo "--- openssl s_time against s_server -WWW (1 MiB page, 3 s, new connections; figures printed, not asserted)"
head -c $((1024 * 1024)) /dev/urandom > "$W/www/page.bin"
for suite in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384; do
  port=$(free_port)
  (cd "$W/www" && AESKIT_PROVIDER_STATS="$W/st-s.stats" timeout 60 openssl s_server \
     -accept 127.0.0.1:$port -WWW -quiet -tls1_3 -ciphersuites $suite -key "$W/key.pem" \
     -cert "$W/crt.pem" >"$W/st-s.log" 2>&1) &
  spid=$!
  if ! wait_listen "$port"; then fail "s_time $suite: server did not start"; kill $spid 2>/dev/null; continue; fi
  rm -f "$W/st-c.stats"
  out=$(AESKIT_PROVIDER_STATS="$W/st-c.stats" timeout 60 openssl s_time -connect 127.0.0.1:$port \
          -new -time 3 -www /page.bin -ciphersuites $suite 2>&1 || true)
  kill $spid 2>/dev/null; wait $spid 2>/dev/null || true
  read -r cs co < <(stats_of "$W/st-c.stats")
  line=$(echo "$out" | grep -m1 "connections in .* real seconds" || true)
  if [ -z "$line" ] || [ "${co:-0}" -lt 64 ]; then
    fail "s_time $suite: no figures or aeskit did not open the pages (client open=${co:-?})"
    echo "$out" | tail -3 | sed 's/^/    /'
  else
    echo "  $suite: $line; aeskit counters: client seal=$cs open=$co"
  fi
done

if [ $fails -eq 0 ]; then echo "apps: all passed"; else echo "apps: $fails failed"; fi
[ $fails -eq 0 ]
