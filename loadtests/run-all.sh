#!/usr/bin/env bash
# `make bench`: every benchmark, one after the other, on this machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
echo "== argon2id time per hash (criterion)"
cargo bench --locked --bench passwords -- --noplot 2>&1 | grep -E "^argon2id|time:" || true
echo "== sign-in and accounts API"
loadtests/auth-bench.sh "${BENCH_SECONDS:-10}"
echo "== checkout and payment (100 concurrent buyers, SQLite then PostgreSQL)"
loadtests/checkout-bench.sh
echo "== live audio: serving vs nginx, blocking-reload latency"
loadtests/stream-bench.sh
echo "== live audio: the rendition ladder's CPU vs today's single-rendition ingest (issue 32)"
loadtests/ladder-bench.sh
echo "== live audio: 5,000 LL-HLS listeners on one instance"
loadtests/listeners.sh 5000 30
PIN=1 loadtests/listeners.sh 5000 30
echo "== live audio: 5,000 listeners joining a concert two hours in"
PRERECORD=120 loadtests/listeners.sh 5000 30
echo "== live audio: 5,000 listeners all on the standard rendition vs spread over three, same run (issue 32)"
SPREAD=1 loadtests/listeners.sh 5000 30
echo "== live over WebSocket: 20,000 sockets, staff broadcasts vs a bare tokio-tungstenite server, across instances"
loadtests/ws-bench.sh
echo "== the live room: 10,000 holder sockets, 100 messages and 2,000 reactions a second, vs a bare broadcaster; A to B; listeners beside it"
loadtests/room-bench.sh
echo "== one show on two instances (PostgreSQL + Redis): a part on B after A"
loadtests/cluster-bench.sh 200 30
echo "== 5,000 listeners on one instance vs split over two, same run (PostgreSQL + Redis): CPU per listener"
SPLIT=1 loadtests/cluster-bench.sh 5000 30
echo "== fuzzing: every network parser for ${FUZZ_SECONDS:-60} s each (cargo-fuzz)"
loadtests/fuzz.sh "${FUZZ_SECONDS:-60}"
echo "== live audio: glass-to-ear in chromium with hls.js, per rendition (PUSH=flac: an Ogg FLAC encoder)"
if [ -f loadtests/glass-to-ear.mjs ]; then
  (cd web && npm run build >/dev/null) && bench_build --bin encore
  ENCORE_BIN="$PWD/$OUT/encore" node loadtests/glass-to-ear.mjs
fi
