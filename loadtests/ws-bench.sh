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
. "$(dirname "$0")/lib.sh"
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
trap ws_bench_cleanup EXIT

echo "# WebSocket bench $(bench_machine)"
echo "# $SOCKETS sockets (descriptor limit $HARD per process), $ACCOUNTS staff accounts × $PER_ACCOUNT sockets"
SQLITE="sqlite://$WORK/bench.db?mode=rwc"
$OUT/examples/ws_load prepare "$SQLITE" "$ACCOUNTS" "$WORK/accounts"

NET=10
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round: baseline (bare tokio-tungstenite)"
  serve_baseline $BASELINE_PORT
  ws_load_round broadcast baseline --url "ws://127.0.0.1:$BASELINE_PORT/api/v1/ws" \
    --sockets "$SOCKETS" "${PACE[@]}" "${LOAD_ARGS[@]}"
  echo "== round $round: Encore (SQLite, Redis bus)$([ "$SIGNUPS" = 1 ] && echo ", real sign-ups $SIGNUPS_IN_FLIGHT at a time")"
  serve_encore "$SQLITE" $ENCORE_PORT
  SOURCE=()
  if [ "$SIGNUPS" = 1 ]; then
    SOURCE=(--signups "http://127.0.0.1:$ENCORE_PORT" --signups-in-flight "$SIGNUPS_IN_FLIGHT")
  fi
  ws_load_round broadcast encore "${SOURCE[@]}" --url "ws://127.0.0.1:$ENCORE_PORT/api/v1/ws" \
    --sockets "$SOCKETS" --accounts "$WORK/accounts" --per-account "$PER_ACCOUNT" \
    --database-url "$SQLITE" "${PACE[@]}" "${LOAD_ARGS[@]}"
done
bench_rounds "$WORK/results" <<'PY'
for i, (b, e) in enumerate(rounds, 1):
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
fresh_database "$PG" $DB
CROSS_SOCKETS=${CROSS_SOCKETS:-2000}
$OUT/examples/ws_load prepare "$PG/$DB" $((CROSS_SOCKETS / 8)) "$WORK/cross-accounts"
serve_encore "$PG/$DB" $ENCORE_PORT
$OUT/examples/ws_load cross --url "ws://127.0.0.1:$ENCORE_PORT/api/v1/ws" \
  --sockets "$CROSS_SOCKETS" --source-net $((NET + 1)) --accounts "$WORK/cross-accounts" \
  --database-url "$PG/$DB" --redis-url "$REDIS" --redis-prefix "$PREFIX"
stop_servers
drop_database "$PG" $DB
