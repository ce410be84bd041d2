#!/usr/bin/env bash
# `make test` runs every tool of `make bench` once, at a toy size, on the debug build
# (BENCH_PROFILE=debug, loadtests/lib.sh): seconds each, not minutes. It checks that each
# tool still runs end to end against today's server and web app (a renamed route, test id
# or flow fails CI here, not the next benchmark), never its figures: those are measured on
# the release build by `make bench` and written in docs/benchmarks.md.
# The fuzzers are the one tool left out: cargo-fuzz builds its own libFuzzer workspace
# (minutes); `make bench` runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_PROFILE=debug BENCH_SMOKE=1 RUST_BACKTRACE=0
CARGO=${CARGO:-cargo}
# Built once, beside the tests' binaries and with their features, so that no tool
# rebuilds the library.
$CARGO build --locked --bin encore --examples
export BENCH_PREBUILT=1
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
# SMOKE_ONLY="a b" runs those steps alone, SMOKE_SKIP="a b" all but those: `make test`
# runs the first few at the end of its Rust lane, which ends before the other (Makefile).
step() { # NAME COMMAND...: run it, say how long it took; on failure show its end and stop
  local name=$1 t0; shift
  if [ -n "${SMOKE_ONLY:-}" ] && [[ " $SMOKE_ONLY " != *" $name "* ]]; then return; fi
  if [[ " ${SMOKE_SKIP:-} " == *" $name "* ]]; then return; fi
  t0=$(date +%s)
  if ! "$@" >"$LOG/$name.log" 2>&1; then
    tail -40 "$LOG/$name.log"
    echo "bench smoke: $name failed (${*})"
    exit 1
  fi
  echo "bench smoke: $name ran in $(($(date +%s) - t0)) s"
}
step passwords $CARGO test --locked --bench passwords
step auth loadtests/auth-bench.sh 1
step checkout env ROUNDS=1 loadtests/checkout-bench.sh 4 2
step stream loadtests/stream-bench.sh 1
step stream-ab env NEW_BIN="$PWD/target/debug/examples/stream_bench" \
  OLD_BIN="$PWD/target/debug/examples/stream_bench" loadtests/stream-ab.sh HEAD 1 1
step ladder env ROUNDS=1 loadtests/ladder-bench.sh 2
step listeners loadtests/listeners.sh 20 3
step listeners-joining-late env PRERECORD=2 loadtests/listeners.sh 20 3
step listeners-spread env SPREAD=1 ROUNDS=1 loadtests/listeners.sh 20 1
step websockets env ROUNDS=1 CROSS_SOCKETS=16 SIGNUPS_IN_FLIGHT=2 BURST=8 \
  WS_LOAD_ARGS="--latency-broadcasts 5 --rounds 1" loadtests/ws-bench.sh 40
step room env ROUNDS=1 SECONDS_EACH=2 MESSAGES=10 REACTIONS=40 MIN_FANS=40 LISTENERS=20 \
  BESIDE_EXTRA=4 CROSS_SOCKETS=16 CROSS_FANS=40 CROSS_POSTERS=8 loadtests/room-bench.sh 40
step cluster env ROUNDS=1 loadtests/cluster-bench.sh 10 3
step cluster-split env SPLIT=1 ROUNDS=1 loadtests/cluster-bench.sh 10 3
if [ -d web/dist ]; then
  # Every rendition the menu offers, one start and one beep each, a beep every 2 s.
  step glass-to-ear env STARTS=1 BEEPS_EACH=1 WARMUP=1 PERIOD_S=2 ENCORE_BIN="$PWD/target/debug/encore" node loadtests/glass-to-ear.mjs
fi
