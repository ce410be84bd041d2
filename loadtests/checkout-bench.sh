#!/usr/bin/env bash
# Issue 4's figure: checkout + payment round trips per second and p99 with 100 concurrent
# buyers, on SQLite and on PostgreSQL, one after the other in one run (release build).
# Usage: loadtests/checkout-bench.sh [buyers] [concerts]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
BUYERS=${1:-100}
CONCERTS=${2:-10}
PORT=18182
BASE="http://127.0.0.1:$PORT"
bench_build --bin encore --example checkout_load

run() {
  local label=$1 url=$2 data
  data=$(mktemp -d)
  $OUT/encore admin create --data-dir "$data" --database-url "$url" \
    --email load-admin@example.com --password "a fine long passphrase" --role admin >/dev/null
  ENCORE_AUTH_RATE_PER_MINUTE=100000000 ENCORE_PAYMENTS=test ENCORE_HOLDS_PER_CLIENT=100000 ENCORE_CONNECTIONS_PER_IP=0 RUST_LOG=warn $OUT/encore serve \
    --data-dir "$data" --database-url "$url" --bind 127.0.0.1:$PORT --public-url "$BASE" \
    >"$data/server.log" 2>&1 &
  local server=$!
  for _ in $(seq 1 50); do curl -fs "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done
  echo -n "$label: "
  $OUT/examples/checkout_load "$BASE" load-admin@example.com "a fine long passphrase" \
    "$BUYERS" "$CONCERTS" 2>"$data/errors.txt" || true
  head -3 "$data/errors.txt"
  kill $server; wait $server 2>/dev/null || true
  rm -rf "$data"
}

run "SQLite" "sqlite://$(mktemp -d)/bench.db?mode=rwc"
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS encore_bench WITH (FORCE)" \
  -c "CREATE DATABASE encore_bench" 2>/dev/null
run "PostgreSQL" "postgres://postgres@127.0.0.1:5432/encore_bench"
