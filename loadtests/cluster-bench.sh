#!/usr/bin/env bash
# Issue 14: one show on two instances. Instance A (the publisher's: `listeners serve`, a
# release Encore with a concert and N listening sessions) and instance B (`encore serve`)
# share PostgreSQL and Redis. A real-time publisher pushes to A over HTTP; N listeners,
# alternating between A and B, loop like LL-HLS players (blocking reload for the next
# part, then the part). Reported per instance, and the figure: how long after a part's
# first answer on A its parked blocking reloads on B are answered (goal p99 ≤ 50 ms).
# Usage: loadtests/cluster-bench.sh [listeners] [seconds]   (needs Redis and PostgreSQL)
#
# SPLIT=1 loadtests/cluster-bench.sh [listeners (5000)] [seconds (30)]: the same N listeners
# and the same publisher, back to back in one run, all on A (B subscribed, idle) and then
# half on A and half on B, ROUNDS times (default 2: alone, split, split, alone). Each
# phase measures, over SECONDS once the listeners have arrived, the CPU time (utime +
# stime in /proc) and memory of A, B and Redis, the 200s served and the errors; the
# figure is total CPU per listener, half on each / all on A.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SPLIT=${SPLIT:-0}
ROUNDS=${ROUNDS:-2}
if [ "$SPLIT" = 1 ]; then N=${1:-5000}; else N=${1:-200}; fi
SECS=${2:-30}
CARGO=${CARGO:-cargo}
REDIS=${CLUSTER_BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
PG=${CLUSTER_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
DB=encore_clusterbench
PORT_A=18198
PORT_B=18199
bench_build --bin encore --example listeners
WORK=$(mktemp -d)
export ENCORE_DATABASE_URL="$PG/$DB" ENCORE_REDIS_URL="$REDIS" ENCORE_REDIS_PREFIX="clusterbench:$$:"
export ENCORE_JWT_SECRET=bench-secret-bench-secret-bench-secret
# Instances sharing Redis must share their secrets (Encore refuses to start otherwise).
export ENCORE_DATA_KEY=bench-data-key-bench-data-key-bench-data
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  redis-cli -u "$REDIS" --scan --pattern "$ENCORE_REDIS_PREFIX*" | xargs -r redis-cli -u "$REDIS" del >/dev/null
  drop_database "$PG" $DB
  rm -rf "$WORK"
}
trap cleanup EXIT
fresh_database "$PG" $DB
# Audio for the whole run: with SPLIT=1, 2 × ROUNDS phases of arrival + SECS + leaving.
AUDIO=$((SECS + 30)); [ "$SPLIT" = 1 ] && AUDIO=$((2 * ROUNDS * (SECS + 10) + 30))
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$AUDIO" \
  -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
ulimit -n "$(ulimit -Hn)"

# B first: it hears the listening sessions A opens.
RUST_LOG=warn $OUT/encore serve --data-dir "$WORK/b" --bind "127.0.0.1:$PORT_B" \
  --public-url "http://127.0.0.1:$PORT_A" --ingest-bind "" --connections-per-ip 0 >"$WORK/b.log" 2>&1 &
PIDS+=($!)
PID_B=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT_B/api/v1/health" >/dev/null && break; sleep 0.1; done
$OUT/examples/listeners serve $PORT_A "$N" "$WORK/sessions" >"$WORK/a.out" 2>"$WORK/a.err" &
PIDS+=($!)
PID_A=$!
wait_for_line READY "$WORK/a.out" 120
cat "$WORK/a.err" >&2

if [ "$SPLIT" = 1 ]; then
  # Redis's CPU time too, when it runs on this machine (not in another PID namespace).
  REDIS_PID=$(redis-cli -u "$REDIS" info server | tr -d '\r' | awk -F: '/^process_id:/ {print $2}')
  grep -qs redis "/proc/$REDIS_PID/comm" && export REDIS_PID || unset REDIS_PID
  echo "# $N listeners on one instance vs half on each of two, same run, $(date -u +%FT%TZ), $(nproc) cores, ${SECS} s per phase, $ROUNDS rounds, PostgreSQL + Redis, everything on this machine"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  $OUT/examples/listeners compare "http://127.0.0.1:$PORT_A" "$PID_A" "http://127.0.0.1:$PORT_B" "$PID_B" \
    "$WORK/sessions" "$WORK/show.aac" "$SECS" "$ROUNDS"
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

echo "# one show on two instances $(date -u +%FT%TZ), $(nproc) cores, $N listeners (half on each), ${SECS} s, PostgreSQL + Redis, everything on this machine"
LISTEN_URLS="http://127.0.0.1:$PORT_A http://127.0.0.1:$PORT_B" \
  $OUT/examples/listeners load "http://127.0.0.1:$PORT_A" "$WORK/sessions" "$WORK/show.aac" "$SECS"
