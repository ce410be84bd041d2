#!/usr/bin/env bash
# Issue 14: one show on two instances. Instance A (the publisher's: `listeners serve`, a
# release Encore with a concert and N listening sessions) and instance B (`encore serve`)
# share PostgreSQL and Redis. A real-time publisher pushes to A over HTTP; N listeners,
# alternating between A and B, loop like LL-HLS players (blocking reload for the next
# part, then the part). Reported per instance, and the figure: how long after a part's
# first answer on A its parked blocking reloads on B are answered (goal p99 ≤ 50 ms).
# Usage: loadtests/cluster-bench.sh [listeners] [seconds]   (needs Redis and PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
SECS=${2:-30}
CARGO=${CARGO:-cargo}
REDIS=${CLUSTER_BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
PG=${CLUSTER_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
DB=encore_clusterbench
PORT_A=18198
PORT_B=18199
$CARGO build --release --locked --bin encore --example listeners >/dev/null
WORK=$(mktemp -d)
export ENCORE_DATABASE_URL="$PG/$DB" ENCORE_REDIS_URL="$REDIS" ENCORE_REDIS_PREFIX="clusterbench:$$:"
export ENCORE_JWT_SECRET=bench-secret-bench-secret-bench-secret
# Instances sharing Redis must share their secrets (Encore refuses to start otherwise).
export ENCORE_DATA_KEY=bench-data-key-bench-data-key-bench-data
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  redis-cli -u "$REDIS" --scan --pattern "$ENCORE_REDIS_PREFIX*" | xargs -r redis-cli -u "$REDIS" del >/dev/null
  psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$((SECS + 30))" \
  -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
ulimit -n "$(ulimit -Hn)"

# B first: it hears the listening sessions A opens.
RUST_LOG=warn ./target/release/encore serve --data-dir "$WORK/b" --bind "127.0.0.1:$PORT_B" \
  --public-url "http://127.0.0.1:$PORT_A" --ingest-bind "" --connections-per-ip 0 >"$WORK/b.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT_B/api/v1/health" >/dev/null && break; sleep 0.1; done
./target/release/examples/listeners serve $PORT_A "$N" "$WORK/sessions" >"$WORK/a.out" 2>"$WORK/a.err" &
PIDS+=($!)
for _ in $(seq 1 1200); do grep -q READY "$WORK/a.out" 2>/dev/null && break; sleep 0.1; done
cat "$WORK/a.err" >&2

echo "# one show on two instances $(date -u +%FT%TZ), $(nproc) cores, $N listeners (half on each), ${SECS} s, PostgreSQL + Redis, everything on this machine"
LISTEN_URLS="http://127.0.0.1:$PORT_A http://127.0.0.1:$PORT_B" \
  ./target/release/examples/listeners load "http://127.0.0.1:$PORT_A" "$WORK/sessions" "$WORK/show.aac" "$SECS"
