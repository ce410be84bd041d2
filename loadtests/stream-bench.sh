#!/usr/bin/env bash
# Issue 5's figures 1 and 2, side by side in one run (release build):
#  1. serving a part with token verification (Encore) vs nginx serving the same file
#     from disk with sendfile — same wrk, same concurrency;
#  2. server-added latency of blocking playlist reload (printed by the example).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${1:-10}
PORT=18190
NGINX_PORT=18191
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
bench_build --example stream_bench
WORK=$(mktemp -d)
trap 'kill $BENCH 2>/dev/null || true; rm -rf "$WORK"' EXIT
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" \
  -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
$OUT/examples/stream_bench "$WORK/show.aac" $PORT >"$WORK/bench.out" 2>"$WORK/bench.err" &
BENCH=$!
wait_for_line READY "$WORK/bench.out" 60
grep "server-added" "$WORK/bench.out"
read -r _ PART_URL SHOW_DIR < <(grep READY "$WORK/bench.out")
# nginx twice: one worker (its classic single-process figure) and one per core (what
# Encore's runtime uses), each serving the show directory with sendfile.
nginx_conf() { # WORKERS PORT NAME
  cat >"$WORK/$3.conf" <<CONF
worker_processes $1;
pid $WORK/$3.pid;
error_log $WORK/$3-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  server { listen 127.0.0.1:$2; root $SHOW_DIR; }
}
CONF
  nginx -c "$WORK/$3.conf"
}
NGINX_AUTO_PORT=$((NGINX_PORT + 1))
nginx_conf 1 $NGINX_PORT nginx1
nginx_conf auto $NGINX_AUTO_PORT nginxauto
trap 'kill $BENCH 2>/dev/null || true; for f in "$WORK"/*.pid; do kill "$(cat "$f")" 2>/dev/null; done; rm -rf "$WORK"' EXIT
sleep 0.5
rps() { awk '/Requests\/sec/ {print $2}'; }
p99() { awk '$1 == "99%" {print $2}'; }
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
# Server CPU per request (user + system, µs) from /proc: what each server costs, apart
# from the load generator sharing the machine.
ticks() { local t=0; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo $t; }
workers() { pgrep -P "$(cat "$WORK/$1.pid")" | tr '\n' ' '; }
# run NAME URL PIDS...: wrk, then "req/s p99 µs-per-request"
run() {
  local url=$1; shift
  local before out after
  before=$(ticks "$@"); out=$(wrk -t2 -c50 -d"${SECS}s" --latency "$url"); after=$(ticks "$@")
  local r; r=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "$(echo "$out" | rps) $(echo "$out" | p99) $(python3 -c "print(f'{($after - $before) * 1e6 / $(getconf CLK_TCK) / $r:.1f}')")"
}
PART=${PART_URL##*/}
echo "# stream serving $(date -u +%FT%TZ), $(nproc) cores, wrk -t2 -c50 -d${SECS}s, the same ~4.5 KB part ($PART)"
for round in 1 2; do
  read -r er ep ec < <(run "$PART_URL" "$BENCH")
  read -r nr np nc < <(run "http://127.0.0.1:$NGINX_PORT/$PART" $(workers nginx1))
  read -r ar ap ac < <(run "http://127.0.0.1:$NGINX_AUTO_PORT/$PART" $(workers nginxauto))
  echo "round $round: encore $er req/s (p99 $ep, $ec µs CPU/req), nginx 1 worker $nr req/s (p99 $np, $nc µs/req), nginx $(nproc) workers $ar req/s (p99 $ap, $ac µs/req); encore/nginx-1 $(ratio "$er" "$nr"), encore/nginx-$(nproc) $(ratio "$er" "$ar")"
done
