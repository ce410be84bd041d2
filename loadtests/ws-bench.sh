#!/usr/bin/env bash
# Issue 13's figures for the dashboard's WebSocket (release build, client on this machine):
#   1. memory per idle authenticated socket with SOCKETS open on one instance (default
#      20,000, or as many as one process's descriptor limit allows);
#   2. a staff broadcast's delivery latency to every socket (p50/p99/max);
#   3. delivered messages/s in bursts, Encore ÷ a bare tokio-tungstenite broadcast server
#      (examples/ws_baseline.rs), the same client, alternating in one run (ROUNDS pairs).
#      Encore's messages are real sign-ups (issue 27: `POST /accounts/signup`, the password
#      hashed, the account and its one staff activity row committed, then the staff
#      channel), SIGNUPS_IN_FLIGHT at most at a time; the baseline's a publish on the bus.
#      A sign-up costs an argon2 hash (≈ 5 a second on these 2 cores beside 18,000
#      sockets), so both are offered the same RATE messages a second (default 4) and the
#      ratio says whether Encore delivers all of them as fast as a bare broadcaster does.
#      SIGNUPS=0 publishes on Encore's bus directly instead, as fast as it goes (the socket
#      layer alone, the figure of issue 13);
#   4. a notification committed on instance A reaching a socket on instance B through
#      Redis (PostgreSQL shared), p50/p99.
# Usage: loadtests/ws-bench.sh [sockets]   (make bench runs it; needs Redis and PostgreSQL,
# `make services`). CARGO=/work/bin/cargo-locked to build under a lock. A short run:
# ROUNDS=1 CROSS=0 WS_LOAD_ARGS="--latency-broadcasts 10 --rounds 1" loadtests/ws-bench.sh
# (WS_LOAD_ARGS go to every `ws_load broadcast`; CROSS=0 skips figure 4).
set -euo pipefail
cd "$(dirname "$0")/.."
. loadtests/lib.sh
WANT=${1:-18000}
# Sockets per staff account: 4, as in issue 27's review (18,000 sockets = 4,500 admins).
PER_ACCOUNT=${PER_ACCOUNT:-4}
ROUNDS=${ROUNDS:-2}
CROSS=${CROSS:-1}
SIGNUPS=${SIGNUPS:-1}
SIGNUPS_IN_FLIGHT=${SIGNUPS_IN_FLIGHT:-8}
RATE=${RATE:-4}
PACE=()
if [ "$SIGNUPS" = 1 ]; then PACE=(--rate "$RATE" --burst "${BURST:-60}"); fi
read -r -a LOAD_ARGS <<<"${WS_LOAD_ARGS:-}"
CARGO=${CARGO:-cargo}
REDIS=${WS_BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
PG=${WS_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
PREFIX="wsbench:$$:"
BASELINE_PORT=18196
ENCORE_PORT=18197
export ENCORE_JWT_SECRET=ws-bench-secret-ws-bench-secret-ws-bench
# Instances sharing Redis must share their secrets (Encore refuses to start otherwise).
export ENCORE_DATA_KEY=ws-bench-data-key-ws-bench-data-key-ws
bench_build --bin encore --example ws_load --example ws_baseline

# Every socket is a descriptor on both sides, and one process may hold at most the hard
# limit; the server keeps a few dozen for itself (database, Redis, listeners).
ulimit -n "$(ulimit -Hn)"
HARD=$(ulimit -Hn)
SOCKETS=$WANT
if [ "$SOCKETS" -gt $((HARD - 100)) ]; then SOCKETS=$(((HARD - 100) / 8 * 8)); fi
ACCOUNTS=$(((SOCKETS + PER_ACCOUNT - 1) / PER_ACCOUNT))

WORK=$(mktemp -d)
SERVER=
stop() { if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; SERVER=; fi; }
trap 'stop; redis-cli -u "$REDIS" --scan --pattern "$PREFIX*" | xargs -r redis-cli -u "$REDIS" del >/dev/null; rm -rf "$WORK"' EXIT

serve_encore() { # database-url port → SERVER
  RUST_LOG=warn $OUT/encore serve --data-dir "$WORK/data-$2" --database-url "$1" \
    --bind "127.0.0.1:$2" --public-url "http://127.0.0.1:$2" --ingest-bind "" \
    --connections-per-ip 0 --auth-rate-per-minute 1000000 \
    --redis-url "$REDIS" --redis-prefix "$PREFIX" >"$WORK/encore-$2.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$2/api/v1/health" >/dev/null && return; sleep 0.1; done
  cat "$WORK/encore-$2.log" >&2; exit 1
}

echo "# WebSocket bench $(date -u +%FT%TZ), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), client and server on the same machine"
echo "# $SOCKETS sockets (descriptor limit $HARD per process), $ACCOUNTS staff accounts × $PER_ACCOUNT sockets"
SQLITE="sqlite://$WORK/bench.db?mode=rwc"
$OUT/examples/ws_load prepare "$SQLITE" "$ACCOUNTS" "$WORK/accounts"

NET=10
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round: baseline (bare tokio-tungstenite)"
  $OUT/examples/ws_baseline $BASELINE_PORT "$REDIS" "$PREFIX" >"$WORK/baseline.out" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 100); do grep -q READY "$WORK/baseline.out" && break; sleep 0.1; done
  NET=$((NET + 1))
  $OUT/examples/ws_load broadcast --label baseline --pid "$SERVER" \
    --url "ws://127.0.0.1:$BASELINE_PORT/api/v1/ws" --sockets "$SOCKETS" --source-net $NET \
    --redis-url "$REDIS" --redis-prefix "$PREFIX" "${PACE[@]}" "${LOAD_ARGS[@]}" | tee -a "$WORK/results"
  stop
  echo "== round $round: Encore (SQLite, Redis bus)$([ "$SIGNUPS" = 1 ] && echo ", real sign-ups $SIGNUPS_IN_FLIGHT at a time")"
  serve_encore "$SQLITE" $ENCORE_PORT
  NET=$((NET + 1))
  SOURCE=()
  if [ "$SIGNUPS" = 1 ]; then
    SOURCE=(--signups "http://127.0.0.1:$ENCORE_PORT" --signups-in-flight "$SIGNUPS_IN_FLIGHT")
  fi
  $OUT/examples/ws_load broadcast --label encore --pid "$SERVER" "${SOURCE[@]}" \
    --url "ws://127.0.0.1:$ENCORE_PORT/api/v1/ws" --sockets "$SOCKETS" --source-net $NET \
    --accounts "$WORK/accounts" --per-account "$PER_ACCOUNT" --database-url "$SQLITE" \
    --redis-url "$REDIS" --redis-prefix "$PREFIX" "${PACE[@]}" "${LOAD_ARGS[@]}" | tee -a "$WORK/results"
  stop
done
python3 - "$WORK/results" <<'PY'
import sys
runs = {"baseline": [], "encore": []}
for line in open(sys.argv[1]):
    if line.startswith("RESULT "):
        fields = line.split()
        runs[fields[1]].append({k: float(v) for k, v in (f.split("=") for f in fields[2:])})
for i, (b, e) in enumerate(zip(runs["baseline"], runs["encore"]), 1):
    print(f"round {i}: delivered messages/s Encore {e['rate']:.0f} ÷ baseline {b['rate']:.0f} = "
          f"{e['rate'] / b['rate']:.2f}; per idle socket {e['kb_per_socket']:.2f} KB "
          f"(baseline {b['kb_per_socket']:.2f}); broadcast p99 {e['p99_ms']:.1f} ms "
          f"(baseline {b['p99_ms']:.1f}); CPU per delivery of one broadcast, server / client "
          f"{e['one_server_us']:.1f} / {e['one_client_us']:.1f} µs (baseline "
          f"{b['one_server_us']:.1f} / {b['one_client_us']:.1f}); out of order "
          f"{e['out_of_order']:.0f} (baseline {b['out_of_order']:.0f})")
PY
[ "$CROSS" = 0 ] && exit 0

echo "== a notification committed on instance A, received on instance B (PostgreSQL + Redis)"
DB=encore_wsbench
psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
CROSS_SOCKETS=${CROSS_SOCKETS:-2000}
$OUT/examples/ws_load prepare "$PG/$DB" $((CROSS_SOCKETS / 8)) "$WORK/cross-accounts"
serve_encore "$PG/$DB" $ENCORE_PORT
$OUT/examples/ws_load cross --url "ws://127.0.0.1:$ENCORE_PORT/api/v1/ws" \
  --sockets "$CROSS_SOCKETS" --source-net $((NET + 1)) --accounts "$WORK/cross-accounts" \
  --database-url "$PG/$DB" --redis-url "$REDIS" --redis-prefix "$PREFIX"
stop
psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
