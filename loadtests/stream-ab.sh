#!/usr/bin/env bash
# Part serving, A/B: this checkout's stream_bench against another commit's, and both
# against one nginx, in one run. Rounds alternate the order (A B, then B A, ...) and the
# server not being measured is stopped (SIGSTOP), so a machine that drifts or a build
# running meanwhile weighs on both alike; compare the per-round ratios and their median.
#
# Usage: loadtests/stream-ab.sh REV [rounds] [seconds]
#   REV: the commit to compare with (built in a temporary worktree, release profile, its
#   own target dir under target/ab/). NEW_BIN / OLD_BIN: use these stream_bench binaries
#   instead of building.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
REV=${1:?usage: loadtests/stream-ab.sh REV [rounds] [seconds]}
ROUNDS=${2:-6}
SECS=${3:-10}
NEW_PORT=18193
OLD_PORT=18194
NGINX_PORT=18195
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
  [ -d "$WORK/old" ] && git worktree remove --force "$WORK/old"
  rm -rf "$WORK"
}
trap cleanup EXIT
NEW_DESC=${NEW_BIN:-$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src examples Cargo.toml || echo ' with uncommitted changes')}
OLD_DESC=${OLD_BIN:-$(git rev-parse --short "$REV")}
if [ -z "${NEW_BIN:-}" ]; then
  bench_build --example stream_bench
  NEW_BIN=$PWD/target/$BENCH_PROFILE/examples/stream_bench
fi
if [ -z "${OLD_BIN:-}" ]; then
  git worktree add --detach "$WORK/old" "$REV" >/dev/null
  target=$PWD/target/ab/$(git rev-parse --short "$REV")
  (cd "$WORK/old" && CARGO_TARGET_DIR=$target $CARGO build "${BENCH_BUILD[@]}" --locked --example stream_bench >/dev/null)
  OLD_BIN=$target/$BENCH_PROFILE/examples/stream_bench
fi
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" \
  -ac 2 -c:a aac -b:a 128k -f adts "$WORK/show.aac"
# start NAME BIN PORT: a server, once it has printed READY (its latency figure first).
start() {
  "$2" "$WORK/show.aac" "$3" >"$WORK/$1.out" 2>"$WORK/$1.err" &
  PIDS+=($!)
  for _ in $(seq 1 600); do grep -q READY "$WORK/$1.out" 2>/dev/null && break; sleep 0.1; done
  echo "$1: $(grep server-added "$WORK/$1.out")"
}
start new "$NEW_BIN" $NEW_PORT
NEW_PID=${PIDS[-1]}
kill -STOP "$NEW_PID"
start old "$OLD_BIN" $OLD_PORT
OLD_PID=${PIDS[-1]}
kill -STOP "$OLD_PID"
read -r _ NEW_URL SHOW_DIR < <(grep READY "$WORK/new.out")
read -r _ OLD_URL _ < <(grep READY "$WORK/old.out")
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
NGINX_WORKERS=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')
PART=${NEW_URL##*/}
ticks() { local t=0; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo $t; }
# measure URL PID...: "req/s µs-CPU-per-request" (the server's user + system time)
measure() {
  local url=$1; shift
  local before out after r
  before=$(ticks "$@"); out=$(wrk -t2 -c50 -d"${SECS}s" "$url"); after=$(ticks "$@")
  r=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(python3 -c "print(f'{($after - $before) * 1e6 / $(getconf CLK_TCK) / $r:.1f}')")"
}
# server NAME: wrk against that Encore, the other one stopped meanwhile.
server() {
  local pid url
  if [ "$1" = new ]; then pid=$NEW_PID url=$NEW_URL; else pid=$OLD_PID url=$OLD_URL; fi
  kill -CONT "$pid"; sleep 0.3
  measure "$url" "$pid"
  kill -STOP "$pid"
}
echo "# part serving A/B $(date -u +%FT%TZ), $(nproc) cores, wrk -t2 -c50 -d${SECS}s, part $PART"
echo "# new = $NEW_DESC, old = $OLD_DESC"
echo "round order new req/s (µs/req) old req/s (µs/req) nginx req/s (µs/req) new/nginx old/nginx new/old load"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order="new old"; else order="old new"; fi
  for s in $order; do read -r "${s}_r" "${s}_c" < <(server "$s"); done
  # shellcheck disable=SC2086
  read -r ng_r ng_c < <(measure "http://127.0.0.1:$NGINX_PORT/$PART" $NGINX_WORKERS)
  python3 - "$round" "${order/ /,}" "$new_r" "$new_c" "$old_r" "$old_c" "$ng_r" "$ng_c" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY' | tee -a "$WORK/rounds"
import sys
rd, order, nr, nc, orr, oc, gr, gc, load = sys.argv[1:]
nr, orr, gr = float(nr), float(orr), float(gr)
print(f"{rd} {order} {nr:.0f} ({nc}) {orr:.0f} ({oc}) {gr:.0f} ({gc}) {nr/gr:.3f} {orr/gr:.3f} {nr/orr:.3f} {load}")
PY
done
python3 - "$WORK/rounds" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
col = lambda i: [float(r[i]) for r in rows]
cpu = lambda i: [float(r[i].strip("()")) for r in rows]
med = statistics.median
print(f"median: new/nginx {med(col(8)):.3f}, old/nginx {med(col(9)):.3f}, new/old {med(col(10)):.3f}"
      f" (range {min(col(10)):.3f}–{max(col(10)):.3f}); µs CPU/req new {med(cpu(3)):.1f},"
      f" old {med(cpu(5)):.1f}, nginx {med(cpu(7)):.1f}")
PY
