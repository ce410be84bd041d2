# Sourced by every load tool. BENCH_PROFILE picks the build it runs: `release` (the
# default) for the figures of `make bench`; `debug` for the smoke run of `make test`
# (loadtests/smoke.sh), which checks only that each tool still runs end to end, on the
# binaries `make test` built, so a renamed route, test id or flow fails CI and not the
# next benchmark. BENCH_PREBUILT=1: the binaries are built already (the smoke run builds
# them once, with the tests' features, so no tool rebuilds the library with others).
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
