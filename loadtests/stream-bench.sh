#!/usr/bin/env bash
# Issue 5's figures 1 and 2, side by side in one run (release build):
#  1. serving a part with token verification (Encore) vs nginx serving the same file
#     from disk with sendfile — same wrk, same concurrency;
#  2. server-added latency of blocking playlist reload (printed by the example).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-10}
PORT=18190
NGINX_PORT=18191
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
cargo build --release --locked --example stream_bench >/dev/null
WORK=$(mktemp -d)
trap 'kill $BENCH 2>/dev/null || true; [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null; rm -rf "$WORK"' EXIT
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" \
  -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
./target/release/examples/stream_bench "$WORK/show.aac" $PORT >"$WORK/bench.out" 2>"$WORK/bench.err" &
BENCH=$!
for _ in $(seq 1 600); do grep -q READY "$WORK/bench.out" 2>/dev/null && break; sleep 0.1; done
grep "server-added" "$WORK/bench.out"
read -r _ PART_URL SHOW_DIR < <(grep READY "$WORK/bench.out")
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  server { listen 127.0.0.1:$NGINX_PORT; root $SHOW_DIR; }
}
CONF
nginx -c "$WORK/nginx.conf"
sleep 0.5
rps() { awk '/Requests\/sec/ {print $2}'; }
p99() { awk '$1 == "99%" {print $2}'; }
echo "# stream serving $(date -u +%FT%TZ), $(nproc) cores, wrk -t2 -c50 -d${SECS}s, the same ~4.5 KB part"
for round in 1 2; do
  e=$(wrk -t2 -c50 -d"${SECS}s" --latency "$PART_URL")
  n=$(wrk -t2 -c50 -d"${SECS}s" --latency "http://127.0.0.1:$NGINX_PORT/seg3.1.m4s")
  echo "round $round: encore $(echo "$e" | rps) req/s (p99 $(echo "$e" | p99)), nginx $(echo "$n" | rps) req/s (p99 $(echo "$n" | p99)), ratio $(python3 -c "print(f'{$(echo "$e" | rps)/$(echo "$n" | rps):.2f}')")"
done
