#!/usr/bin/env bash
# Issue 4's figure: checkout + payment round trips per second and p99 with 100 concurrent
# buyers, on SQLite and on PostgreSQL, one after the other in one run (release build).
# Issue 31's: the same with three tiers per concert and a promo code entered for every
# purchase (`checkout_load … tiers`), side by side with the single-price checkout in the
# same run: ROUNDS pairs per database, the order alternating, each on a fresh database,
# and the ratio tiers ÷ single per pair and its median, twice: over the whole flow (cart
# and checkout: a tiered purchase enters its code in the cart, one more request) and over
# the checkout and payment alone (the cart already holding its tier and code).
# Usage: loadtests/checkout-bench.sh [buyers] [concerts]   (ROUNDS=3 by default)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
BUYERS=${1:-100}
CONCERTS=${2:-10}
ROUNDS=${ROUNDS:-3}
PORT=18182
BASE="http://127.0.0.1:$PORT"
bench_build --bin encore --example checkout_load

run() { # LABEL DATABASE_URL MODE: prints the load tool's line, keeps its rates in $RESULTS
  local label=$1 url=$2 mode=$3 data
  data=$(mktemp -d)
  $OUT/encore admin create --data-dir "$data" --database-url "$url" \
    --email load-admin@example.com --password "a fine long passphrase" --role admin >/dev/null
  ENCORE_AUTH_RATE_PER_MINUTE=100000000 ENCORE_PAYMENTS=test ENCORE_HOLDS_PER_CLIENT=100000 ENCORE_CONNECTIONS_PER_IP=0 RUST_LOG=warn $OUT/encore serve \
    --data-dir "$data" --database-url "$url" --bind 127.0.0.1:$PORT --public-url "$BASE" \
    >"$data/server.log" 2>&1 &
  local server=$!
  for _ in $(seq 1 50); do curl -fs "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done
  local line
  line=$($OUT/examples/checkout_load "$BASE" load-admin@example.com "a fine long passphrase" \
    "$BUYERS" "$CONCERTS" "$mode" 2>"$data/errors.txt") || true
  echo "$label, $mode: $line"
  head -3 "$data/errors.txt"
  kill $server; wait $server 2>/dev/null || true
  rm -rf "$data"
  # The rate, and no errors: a run with failed purchases is not a figure.
  if ! grep -q "errors 0$" <<<"$line"; then
    echo "checkout bench: $label $mode had errors"
    exit 1
  fi
  sed -E 's/.* = ([0-9.]+) purchases\/s .*/\1/' <<<"$line" >"$RESULTS.$mode.flow"
  sed -E 's/.* ([0-9.]+) checkout\+payment round trips\/s .*/\1/' <<<"$line" >"$RESULTS.$mode.checkout"
}

median() { # the median of its arguments
  printf '%s\n' "$@" | sort -n | \
    awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

ratio() { # WHAT: tiers ÷ single of the last pair
  awk -v t="$(cat "$RESULTS.tiers.$1")" -v s="$(cat "$RESULTS.single.$1")" 'BEGIN { printf "%.2f", t / s }'
}

RESULTS=$(mktemp)
trap 'rm -f "$RESULTS" "$RESULTS".*' EXIT

database() { # LABEL: a fresh database's URL
  if [ "$1" = SQLite ]; then
    echo "sqlite://$(mktemp -d)/bench.db?mode=rwc"
  else
    psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS encore_bench WITH (FORCE)" \
      -c "CREATE DATABASE encore_bench" >/dev/null 2>&1
    echo "postgres://postgres@127.0.0.1:5432/encore_bench"
  fi
}

for label in SQLite PostgreSQL; do
  flows=()
  checkouts=()
  for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then order=(single tiers); else order=(tiers single); fi
    for mode in "${order[@]}"; do run "$label" "$(database "$label")" "$mode"; done
    flows+=("$(ratio flow)")
    checkouts+=("$(ratio checkout)")
    echo "$label round $round (${order[*]}): tiers ÷ single = ${flows[-1]} (cart and checkout), ${checkouts[-1]} (checkout alone)"
  done
  echo "$label: tiers ÷ single, median of $ROUNDS = $(median "${flows[@]}") (cart and checkout), $(median "${checkouts[@]}") (checkout alone)"
done
