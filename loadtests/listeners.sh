#!/usr/bin/env bash
# Issue 5, figure 4: N simulated LL-HLS listeners (default 5,000) on one Encore instance
# (release build), each on its own connection, for SECONDS (default 30). The server runs
# in its own process so its CPU time and memory are read from /proc on their own.
# PRERECORD=MINUTES: the show already has that much recorded when listeners arrive.
# SPREAD=1 (issue 32): the same N listeners, back to back in one run, all on the standard
# rendition and then spread over the data saver, the standard and the source (the publisher
# pushes 192 kbit/s AAC, so the source is the High rendition), ROUNDS times (default 2:
# standard, spread, spread, standard), SECONDS measured per phase; the figure is the 200s
# served per CPU-second spread ÷ standard (goal ≥ 0.95).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
N=${1:-5000}
SECS=${2:-30}
SPREAD=${SPREAD:-0}
ROUNDS=${ROUNDS:-2}
PORT=18195
bench_build --example listeners
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
AUDIO=$((SECS + 30)) BITRATE=128k
# Every phase: arrival and settling (3 s), the window, leaving and a pause (≈ 4 s).
[ "$SPREAD" = 1 ] && AUDIO=$((2 * ROUNDS * (SECS + 8) + 30)) BITRATE=192k
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$AUDIO" \
  -ac 2 -c:a aac -b:a $BITRATE -f adts "$WORK/show.aac"
ulimit -n "$(ulimit -Hn)"
# PIN=1: the server on the first core and the load generator on the second, so neither
# steals the other's CPU (client and server otherwise share both cores).
SERVER_CPU=(); CLIENT_CPU=()
if [ "${PIN:-0}" = 1 ]; then SERVER_CPU=(taskset -c 0); CLIENT_CPU=(taskset -c 1); fi
PRERECORDED=(); [ -n "${PRERECORD:-}" ] && PRERECORDED=("$WORK/show.aac" "$PRERECORD")
"${SERVER_CPU[@]}" $OUT/examples/listeners serve $PORT "$N" "$WORK/sessions" "${PRERECORDED[@]}" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER=$!
wait_for_line READY "$WORK/server.out" 120
cat "$WORK/server.err" >&2
if [ "$SPREAD" = 1 ]; then
  echo "# $N listeners all on the standard rendition vs spread over three, same run, $(bench_machine), ${SECS} s per phase, $ROUNDS rounds"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "${CLIENT_CPU[@]}" $OUT/examples/listeners spread "http://127.0.0.1:$PORT" "$SERVER" "$WORK/sessions" "$WORK/show.aac" "$SECS" "$ROUNDS"
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER/status"; }
idle_rss=$(rss_kb)
before=$(cpu_ticks)
t0=$(date +%s.%N)
peak=0
( while kill -0 $SERVER 2>/dev/null; do r=$(rss_kb); [ "$r" -gt "$peak" ] && peak=$r && echo "$peak" >"$WORK/peak"; sleep 0.5; done ) &
SAMPLER=$!
echo "# $N LL-HLS listeners $(date -u +%FT%TZ), $(nproc) cores, ${SECS} s, client and server on the same machine$([ "${PIN:-0}" = 1 ] && echo ', server pinned to core 0, client to core 1')$([ -n "${PRERECORD:-}" ] && echo ", joining a show $PRERECORD min in")"
"${CLIENT_CPU[@]}" ${CLIENT_TIME:-} $OUT/examples/listeners load "http://127.0.0.1:$PORT" "$WORK/sessions" "$WORK/show.aac" "$SECS"
after=$(cpu_ticks)
t1=$(date +%s.%N)
kill $SAMPLER 2>/dev/null || true
hz=$(getconf CLK_TCK)
python3 - "$before" "$after" "$t0" "$t1" "$hz" "$idle_rss" "$(cat "$WORK/peak" 2>/dev/null || echo 0)" <<'PY'
import sys
before, after, t0, t1, hz, idle, peak = sys.argv[1:]
cpu = (int(after) - int(before)) / int(hz)
wall = float(t1) - float(t0)
print(f"server: {cpu / wall * 100:.0f}% of one core on average ({cpu:.1f} CPU-s in {wall:.0f} s), "
      f"memory {int(idle) / 1024:.0f} MiB before, {int(peak) / 1024:.0f} MiB peak RSS")
PY
