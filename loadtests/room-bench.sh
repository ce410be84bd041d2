#!/usr/bin/env bash
# Issue 29's figures for the live room (release build, client on this machine):
#   1. one room of SOCKETS sockets (default 10,000) on one instance, each a ticket holder
#      following `chat:<id>`, with MESSAGES messages (default 100) and REACTIONS reactions
#      (default 2,000) posted a second over HTTP for SECONDS: messages lost, post-to-delivery
#      p50/p99, frames per socket per second, server CPU per delivered message; beside a
#      bare tokio-tungstenite broadcaster (examples/ws_baseline.rs) sending each message
#      as its own frame, the same messages through the bus, the same client, alternating
#      in one run (ROUNDS pairs);
#   2. a message posted on instance A reaching sockets on instance B (PostgreSQL + Redis
#      shared): p50/p99 against the batch window;
#   3. LISTENERS LL-HLS listeners (default 5,000, examples/listeners.rs) on one instance,
#      alone and then beside that room (a fresh server each, the same holders): part-
#      serving and blocking-reload p99 in both.
# Usage: loadtests/room-bench.sh [sockets]   (make bench runs it; needs Redis and
# PostgreSQL, `make services`; ROUNDS=0 CROSS=0 for the listeners' part alone). A short run:
# SECONDS_EACH=5 CROSS=0 LISTEN=0 loadtests/room-bench.sh 2000
set -euo pipefail
. "$(dirname "$0")/lib.sh"
WANT=${1:-10000}
ROUNDS=${ROUNDS:-2}
CROSS=${CROSS:-1}
LISTEN=${LISTEN:-1}
LISTENERS=${LISTENERS:-5000}
MESSAGES=${MESSAGES:-100}
REACTIONS=${REACTIONS:-2000}
SECONDS_EACH=${SECONDS_EACH:-20}
# How much longer than the listeners the room beside them runs (it starts first).
BESIDE_EXTRA=${BESIDE_EXTRA:-15}
# The room's client beside the listeners at this niceness (19: it takes only the CPU the
# server and the listeners' client leave, standing in for fans on other machines).
ROOM_CLIENT_NICE=${ROOM_CLIENT_NICE:-19}
REDIS=${ROOM_BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
PG=${ROOM_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
PREFIX="roombench:$$:"
BASELINE_PORT=18296
ENCORE_PORT=18297
OTHER_PORT=18298
export ENCORE_JWT_SECRET=room-bench-secret-room-bench-secret-room
export ENCORE_DATA_KEY=room-bench-data-key-room-bench-data-key-r
bench_build --bin encore --example ws_load --example ws_baseline \
  --example listeners

ulimit -n "$(ulimit -Hn)"
HARD=$(ulimit -Hn)
SOCKETS=$WANT
if [ "$SOCKETS" -gt $((HARD - 200)) ]; then SOCKETS=$((HARD - 200)); fi
# Posters and reacting fans are holders too: at least 1,000 fans.
MIN_FANS=${MIN_FANS:-1000}
FANS=$((SOCKETS > MIN_FANS ? SOCKETS : MIN_FANS))

WORK=$(mktemp -d)
trap ws_bench_cleanup EXIT

echo "# Room bench $(bench_machine)"
echo "# $SOCKETS holder sockets, $MESSAGES messages and $REACTIONS reactions a second for $SECONDS_EACH s"
SQLITE="sqlite://$WORK/bench.db?mode=rwc"
$OUT/examples/ws_load prepare-room "$SQLITE" "$FANS" "$WORK/fans"
EVENT=$(cat "$WORK/fans.event")
ROOM=(--event "$EVENT" --sockets "$SOCKETS" --per-account 1 --seconds "$SECONDS_EACH"
  --messages-per-second "$MESSAGES" --reactions-per-second "$REACTIONS")

NET=30
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round: baseline (bare tokio-tungstenite, one frame per message)"
  serve_baseline $BASELINE_PORT "chat:$EVENT"
  ws_load_round room baseline "${ROOM[@]}" --url "ws://127.0.0.1:$BASELINE_PORT/api/v1/ws"
  echo "== round $round: Encore (SQLite, Redis bus), holders posting over HTTP"
  serve_encore "$SQLITE" $ENCORE_PORT
  ws_load_round room encore "${ROOM[@]}" --url "ws://127.0.0.1:$ENCORE_PORT/api/v1/ws" \
    --http "http://127.0.0.1:$ENCORE_PORT" --accounts "$WORK/fans" --database-url "$SQLITE"
done
[ "$ROUNDS" -gt 0 ] && bench_rounds "$WORK/results" <<'PY'
for i, (b, e) in enumerate(rounds, 1):
    print(f"round {i}: server CPU per delivered message Encore {e['server_us']:.3f} µs ÷ baseline "
          f"{b['server_us']:.3f} µs = {e['server_us'] / b['server_us']:.2f}; lost {e['lost']:.0f} "
          f"(baseline {b['lost']:.0f}); p99 {e['p99_ms']:.0f} ms (baseline {b['p99_ms']:.0f}); frames "
          f"per socket a second {e['frames_per_s']:.2f}, at most {e['busiest']:.0f} (baseline "
          f"{b['frames_per_s']:.2f}); out of order {e['out_of_order']:.0f}")
PY
if [ "$LISTEN" = 1 ]; then
  LISTEN_PORT=18299
  ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$((SECONDS_EACH + 60))" \
    -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
  for with_room in 0 1; do
    echo "== $LISTENERS LL-HLS listeners$([ $with_room = 1 ] && echo ", beside the room ($SOCKETS sockets, $MESSAGES messages and $REACTIONS reactions a second)" || echo " alone") (one instance, SQLite)"
    ROOM_FANS=$FANS $OUT/examples/listeners serve $LISTEN_PORT "$LISTENERS" "$WORK/listen" \
      >"$WORK/listen.out" 2>"$WORK/listen.err" &
    SERVERS+=($!)
    wait_for_line READY "$WORK/listen.out" 120
    ROOM_CLIENT=
    if [ $with_room = 1 ]; then
      NET=$((NET + 1))
      nice -n "$ROOM_CLIENT_NICE" $OUT/examples/ws_load room --label beside --pid "${SERVERS[0]}" \
        --event "$(cat "$WORK/listen.event")" --sockets "$SOCKETS" --per-account 1 \
        --seconds $((SECONDS_EACH + BESIDE_EXTRA)) --messages-per-second "$MESSAGES" \
        --reactions-per-second "$REACTIONS" --redis-url "$REDIS" --redis-prefix "$PREFIX" \
        --url "ws://127.0.0.1:$LISTEN_PORT/api/v1/ws" --http "http://127.0.0.1:$LISTEN_PORT" \
        --tokens "$WORK/listen.tokens" --source-net $NET >"$WORK/beside.out" 2>&1 &
      ROOM_CLIENT=$!
      # The listeners start once every socket follows the room and posting has begun.
      wait_for_line "^sockets:" "$WORK/beside.out" 120
      sleep 3
    fi
    $OUT/examples/listeners load "http://127.0.0.1:$LISTEN_PORT" "$WORK/listen" "$WORK/show.aac" "$SECONDS_EACH"
    if [ -n "$ROOM_CLIENT" ]; then
      wait "$ROOM_CLIENT" || true
      # A room client that ended without its figures says why (a clean-clone run once
      # stopped here with nothing to read).
      grep -E "^RESULT|lost|frames per socket" "$WORK/beside.out" \
        || { echo "the room client beside the listeners gave no figures:"; tail -20 "$WORK/beside.out"; exit 1; }
    fi
    stop_servers
  done
fi
[ "$CROSS" = 0 ] && exit 0

echo "== a message posted on instance A, received by sockets on instance B (PostgreSQL + Redis)"
DB=encore_roombench
fresh_database "$PG" $DB
CROSS_SOCKETS=${CROSS_SOCKETS:-1000}
$OUT/examples/ws_load prepare-room "$PG/$DB" "${CROSS_FANS:-1000}" "$WORK/cross-fans"
serve_encore "$PG/$DB" $ENCORE_PORT
serve_encore "$PG/$DB" $OTHER_PORT
$OUT/examples/ws_load room --label cross --pid "${SERVERS[1]}" \
  --event "$(cat "$WORK/cross-fans.event")" --sockets "$CROSS_SOCKETS" --per-account 1 \
  --seconds "$SECONDS_EACH" --messages-per-second "${CROSS_MESSAGES:-10}" --reactions-per-second 0 \
  --posters "${CROSS_POSTERS:-200}" --redis-url "$REDIS" --redis-prefix "$PREFIX" \
  --url "ws://127.0.0.1:$OTHER_PORT/api/v1/ws" --http "http://127.0.0.1:$ENCORE_PORT" \
  --accounts "$WORK/cross-fans" --database-url "$PG/$DB" --source-net $((NET + 1))
stop_servers
drop_database "$PG" $DB
