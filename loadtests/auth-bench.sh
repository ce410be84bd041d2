#!/usr/bin/env bash
# Issue 2's figures, side by side in one run on this machine (release build, wrk on loopback):
#   1. GET /api/v1/accounts/userinfo/me (valid token) vs GET /api/v1/health: requests/s, ratio
#   2. GET /api/v1/health latency (p50/p99) alone, then while 50 clients hammer `authorize`
#      with wrong passwords
# Usage: loadtests/auth-bench.sh [seconds-per-run]   (make bench runs it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${1:-10}
PORT=18181
BASE="http://127.0.0.1:$PORT"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

bench_build --bin encore
DATA=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
$OUT/encore admin create --data-dir "$DATA" --email bench@example.com \
  --password "a fine long passphrase" --role user >/dev/null
# Lift the per-IP limit: the load comes from one address, and the point is to load argon2.
ENCORE_AUTH_RATE_PER_MINUTE=100000000 ENCORE_CONNECTIONS_PER_IP=0 RUST_LOG=warn $OUT/encore serve \
  --data-dir "$DATA" --bind 127.0.0.1:$PORT --public-url "$BASE" >"$DATA/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 50); do curl -fs "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done
TOKEN=$(python3 loadtests/sign-in.py "$BASE" bench@example.com "a fine long passphrase")

rps() { awk '/Requests\/sec/ {print $2}'; }
p() { awk -v q="$1" '$1 == q {print $2}'; }

echo "# auth bench $(date -u +%FT%TZ) on $(nproc) cores, ${SECS}s per run, 2 threads, 50 connections"
for round in 1 2; do
  h=$(wrk -t2 -c50 -d"${SECS}s" "$BASE/api/v1/health" | rps)
  m=$(wrk -t2 -c50 -d"${SECS}s" -H "Authorization: Bearer $TOKEN" "$BASE/api/v1/accounts/userinfo/me" | rps)
  echo "round $round: health ${h} req/s, userinfo/me ${m} req/s, ratio $(python3 -c "print(f'{$m/$h:.2f}')")"
done

quiet=$(wrk -t1 -c4 -d"${SECS}s" --latency "$BASE/api/v1/health")
echo "health alone (4 connections): p50 $(echo "$quiet" | p 50%) p99 $(echo "$quiet" | p 99%)"
REDIRECT_URI="$BASE/auth/callback" wrk -t1 -c50 -d"$((SECS + 4))s" --timeout 15s \
  -s loadtests/authorize-wrong-password.lua "$BASE/api/v1/oauth2/authorize" >"$DATA/hammer.txt" &
HAMMER=$!
sleep 2
loaded=$(wrk -t1 -c4 -d"${SECS}s" --latency "$BASE/api/v1/health")
wait $HAMMER
echo "health while 50 clients hammer authorize: p50 $(echo "$loaded" | p 50%) p99 $(echo "$loaded" | p 99%)"
echo "authorize under hammer: $(rps <"$DATA/hammer.txt") req/s (each a full argon2id verification)"
grep -E "Non-2xx|Socket errors" "$DATA/hammer.txt" || true
