#!/usr/bin/env bash
# `make bench`: every benchmark, one after the other, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== argon2id time per hash (criterion)"
cargo bench --locked --bench passwords -- --noplot 2>&1 | grep -E "^argon2id|time:" || true
echo "== sign-in and accounts API"
loadtests/auth-bench.sh "${BENCH_SECONDS:-10}"
echo "== checkout and payment (100 concurrent buyers, SQLite then PostgreSQL)"
loadtests/checkout-bench.sh
echo "== live audio: serving vs nginx, blocking-reload latency"
loadtests/stream-bench.sh
