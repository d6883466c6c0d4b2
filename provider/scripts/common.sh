# Shared helpers of the provider scripts (sourced).  MODDIR is the directory
# holding aeskit.so; every network use is on 127.0.0.1 only.
set -euo pipefail
: "${MODDIR:?set MODDIR to the directory holding aeskit.so}"
PROV_ARGS=(-provider-path "$MODDIR" -provider aeskit -provider default -propquery "?provider=aeskit")
STRICT_ARGS=(-provider-path "$MODDIR" -provider aeskit -provider default -propquery "provider=aeskit")

# A free TCP port on 127.0.0.1 (bounded search).
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then echo "$p"; return 0; fi
  done
  return 1
}

# Waits (at most ~10 s) until something listens on 127.0.0.1:$1.
wait_listen() {
  for _ in $(seq 1 100); do
    ss -Htln "sport = :$1" 2>/dev/null | grep -q . && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1"; return 1
}

# The counters one process wrote at exit (AESKIT_PROVIDER_STATS): "seal open".
stats_of() {
  sed -nE 's/.*seal=([0-9]+) open=([0-9]+).*/\1 \2/p' "$1" | tail -1
}
