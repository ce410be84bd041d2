#!/usr/bin/env bash
# Issue 32: the CPU of making a show's rendition ladder (decode once, AAC-LC at 48 and
# 128 kbit/s, an AAC publisher's own frames passed through) against today's
# single-rendition ingest, side by side in one run, for an AAC and an MP3 publisher;
# and the data saver's bytes against the standard's. SECONDS of audio per run (default
# 120), ROUNDS rounds (default 5; medians printed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${1:-120}
bench_build --example ladder_bench
echo "ladder bench: $(date -u +%FT%TZ), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d" " -f1-3 /proc/loadavg)"
$OUT/examples/ladder_bench "$SECS" "${ROUNDS:-5}"
