# shellcheck shell=bash
# Sourced first by every load tool, after `set -euo pipefail`, as
# `. "$(dirname "$0")/lib.sh"`: the tool then runs from the repository's root.
# BENCH_PROFILE picks the build it runs: `release` (the default) for the figures of
# `make bench`; `debug` for the smoke run of `make test` (loadtests/smoke.sh), which checks
# only that each tool still runs end to end, on the binaries `make test` built, so a
# renamed route, test id or flow fails CI and not the next benchmark. BENCH_PREBUILT=1:
# the binaries are built already (the smoke run builds them once, with the tests'
# features, so no tool rebuilds the library with others).
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit
BENCH_PROFILE=${BENCH_PROFILE:-release}
CARGO=${CARGO:-cargo}
case "$BENCH_PROFILE" in
  release) BENCH_BUILD=(--release) ;;
  debug) BENCH_BUILD=() ;;
  *) echo "BENCH_PROFILE is release or debug, not $BENCH_PROFILE" >&2; exit 2 ;;
esac
OUT=./target/$BENCH_PROFILE
bench_build() { # cargo build arguments (--bin, --example)
  [ "${BENCH_PREBUILT:-0}" = 1 ] && return 0
  $CARGO build "${BENCH_BUILD[@]}" --locked "$@" >/dev/null
}

# Where a figure was measured, for a bench's heading: the time, cores and memory.
bench_machine() {
  echo "$(date -u +%FT%TZ), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), client and server on the same machine"
}

# Waits until FILE has a line matching PATTERN (a server's READY), for SECONDS at most;
# past them the tool goes on, and its next step fails if the line never came.
wait_for_line() { # pattern file seconds
  for _ in $(seq 1 $(($3 * 10))); do grep -qs "$1" "$2" && return 0; sleep 0.1; done
}

# An empty PostgreSQL database NAME on the server at URL (postgres://user@host:port).
fresh_database() { # url name
  psql "$1/postgres" -qc "DROP DATABASE IF EXISTS $2 WITH (FORCE)" -c "CREATE DATABASE $2" >/dev/null
}
drop_database() { # url name
  psql "$1/postgres" -qc "DROP DATABASE IF EXISTS $2 WITH (FORCE)" >/dev/null
}

# For the WebSocket benches (ws-bench.sh, room-bench.sh): each round starts a server (the bare
# broadcaster or Encore, both on the bench's Redis), measures it with examples/ws_load,
# and stops it. They set WORK (a temporary folder), REDIS and PREFIX (the run's Redis keys)
# and NET (the last source network a ws_load run used) first; servers' pids are in SERVERS.
SERVERS=()
stop_servers() {
  for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  SERVERS=()
}
# At exit (`trap ws_bench_cleanup EXIT`): the servers stopped, the run's Redis keys and WORK gone.
ws_bench_cleanup() {
  stop_servers
  redis-cli -u "$REDIS" --scan --pattern "$PREFIX*" | xargs -r redis-cli -u "$REDIS" del >/dev/null
  rm -rf "$WORK"
}

# `encore serve` on DATABASE-URL at 127.0.0.1:PORT, its bus on the bench's Redis, once it
# answers /api/v1/health; if it never does, the tool shows its log and exits.
serve_encore() { # database-url port
  RUST_LOG=warn $OUT/encore serve --data-dir "$WORK/data-$2" --database-url "$1" \
    --bind "127.0.0.1:$2" --public-url "http://127.0.0.1:$2" --ingest-bind "" \
    --connections-per-ip 0 --auth-rate-per-minute 1000000 \
    --redis-url "$REDIS" --redis-prefix "$PREFIX" >"$WORK/encore-$2.log" 2>&1 &
  SERVERS+=($!)
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$2/api/v1/health" >/dev/null && return; sleep 0.1; done
  cat "$WORK/encore-$2.log" >&2; exit 1
}

# The bare tokio-tungstenite broadcaster (examples/ws_baseline.rs) at 127.0.0.1:PORT on the
# bench's Redis, relaying CHANNEL (without one, the staff channel), once it is READY.
serve_baseline() { # port [channel]
  $OUT/examples/ws_baseline "$1" "$REDIS" "$PREFIX" "${@:2}" >"$WORK/baseline.out" 2>&1 &
  SERVERS+=($!)
  wait_for_line READY "$WORK/baseline.out" 10
}

# One measured round of `ws_load MODE` (broadcast, room) against the server just started,
# from a source network of its own: its RESULT line, labelled LABEL, goes to WORK/results
# (for bench_rounds); the server is stopped after it.
ws_load_round() { # mode label ws_load-arguments...
  NET=$((NET + 1))
  $OUT/examples/ws_load "$1" --label "$2" --pid "${SERVERS[0]}" --source-net "$NET" \
    --redis-url "$REDIS" --redis-prefix "$PREFIX" "${@:3}" | tee -a "$WORK/results"
  stop_servers
}

# Runs the Python read from stdin with `rounds`: the RESULT lines of FILE (`RESULT label
# key=value…`, as ws_load prints them) as (baseline, encore) pairs of dicts of floats,
# one pair a round, for it to print the figures that compare them.
bench_rounds() { # results-file <<'PY' … PY
  python3 -c "import sys
runs = {'baseline': [], 'encore': []}
for line in open(sys.argv[1]):
    if line.startswith('RESULT '):
        fields = line.split()
        runs[fields[1]].append({k: float(v) for k, v in (f.split('=') for f in fields[2:])})
rounds = list(zip(runs['baseline'], runs['encore']))
$(cat)" "$1"
}
