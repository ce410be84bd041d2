#!/usr/bin/env bash
# Fuzz every parser and hand-written decoder that reads network input (fuzz/fuzz_targets:
# adts, mp3, icecast_head, playlist_query, stream_token, websocket_first_frame) for a bounded time each, with
# cargo-fuzz and libFuzzer. Part of `make bench` (loadtests/run-all.sh), not `make test`.
#
#   loadtests/fuzz.sh [SECONDS]     # per target, default 60; FUZZ_TARGETS="adts mp3" for some
#
# The corpus grows in fuzz/corpus/<target>/ (only the seed-* files are committed). A crash
# fails the script and prints the input; keep it as a regression test beside the parser.
#
# Why `--sanitizer none`: cargo-fuzz's default, AddressSanitizer, needs `-Zsanitizer`, a
# nightly-only flag, and this project builds with stable Rust only (no other toolchain can
# be installed here). Without it, libFuzzer still gets its coverage instrumentation
# (stable `-C` flags) and the targets are safe Rust: an out-of-bounds index, an overflow
# (`--debug-assertions`) or a broken invariant is a panic, which libFuzzer reports as a
# crash. No RUSTC_BOOTSTRAP is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
targets="${FUZZ_TARGETS:-adts mp3 icecast_head playlist_query stream_token websocket_first_frame}"
# One cargo build at a time on this 2-core machine (the lock is shared with every worktree).
cargo_locked() {
  if command -v flock >/dev/null; then flock /tmp/encore-cargo.lock cargo "$@"; else cargo "$@"; fi
}
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo_locked install cargo-fuzz --locked
fi
# fuzz/ is its own workspace with its own Cargo.lock: keep to it.
cargo_locked fetch --locked --quiet --manifest-path fuzz/Cargo.toml
flags=(--sanitizer none --debug-assertions)
cargo_locked fuzz build "${flags[@]}"
failed=""
for target in $targets; do
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
  echo "== fuzz $target for ${seconds}s"
  log="fuzz/artifacts/$target/last-run.txt"
  if cargo_locked fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" -- \
      -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::new_units_added" "$log" |
      sed 's/^stat::/   /' || true
    grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -1 | sed 's/^/   /' || true
  else
    failed="$failed $target"
    tail -40 "$log"
    for crash in fuzz/artifacts/"$target"/crash-* fuzz/artifacts/"$target"/oom-* \
                 fuzz/artifacts/"$target"/timeout-*; do
      [ -f "$crash" ] || continue
      echo "-- $crash"
      od -A d -t x1z "$crash" | head -40
    done
  fi
done
if [ -n "$failed" ]; then
  echo "fuzzing found crashes in:$failed (inputs above; reproduce with" \
       "cargo fuzz run --sanitizer none --debug-assertions <target> <file>)"
  exit 1
fi
echo "fuzzing: no crash in $targets"
