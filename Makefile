# Encore — the two commands a new machine needs are `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

CARGO ?= cargo
PG_TEST_URL ?= postgres://postgres@127.0.0.1:5432
NEXTEST := $(shell command -v cargo-nextest >/dev/null 2>&1 && echo "nextest run" || echo test)
# The library's, the binary's and the API's tests; not the examples (load tools for `make
# bench`), which clippy checks and `cargo test` would otherwise link five times (15 s).
TEST_TARGETS := --lib --bins --tests
WEB_PRESENT := $(wildcard web/package.json)
export CARGO_TERM_COLOR ?= never

.PHONY: run server release test bench bench-smoke lint lint-fast clippy rust-build rust-lane rust-test rust-test-sqlite rust-test-postgres web \
        web-deps web-checks web-lane web-test e2e e2e-run api-fuzz api-fuzz-run openapi system-deps services \
        compose-check screenshots clean

## make run: build the web app and the server, then serve http://127.0.0.1:8080 with demo data.
## The two builds run side by side: npm waits on the network and the disk while cargo
## compiles (the newcomer's first `make run`, and CI's fresh-machine check, gain a minute).
## The server is the dev profile, the one the test suites and the browser tests run (the
## password hashing and SQLite optimised, Cargo.toml): a first build in about 4 minutes
## where the release build takes 9 (docs/ci.md, fifteenth session). Deployments build
## `make release` (the Dockerfile does); `make bench` measures that one.
run: system-deps
	$(MAKE) --no-print-directory -j2 web server
	./target/debug/encore serve --demo

## A first build writes no incremental caches (our crate in 50 s instead of 60): nothing
## could use them yet. Later builds keep them.
server:
	$(if $(wildcard target/debug/encore),,CARGO_INCREMENTAL=0) $(CARGO) build --locked --bin encore

release:
	$(CARGO) build --release --locked --bin encore

## make test: lint both languages, run every test on SQLite and PostgreSQL, the web unit
## tests, the bundle budget, the end-to-end tests in Debian's chromium, schemathesis
## against the OpenAPI document, and each benchmark tool once at a toy size.
## The Rust suites mostly wait (on sockets, timers, PostgreSQL, child processes: they use
## about 1.2 of the two cores), so the web's checks, schemathesis (its own server,
## answers within its 2 s limit under that load) and the bench smoke run beside them once everything is
## compiled; the end-to-end tests, which time what a browser sees, run alone after. (The
## two suites side by side as well saved 36 s of 363 and slowed each by half: not kept.)
## `npm ci` (16 s, mostly the disk) runs beside the Rust build.
test: system-deps services compose-check lint-fast
	@[ -n "$(CLIPPY_DRIVER)" ] || { echo "clippy-driver is missing: rustup component add clippy"; exit 1; }
	$(MAKE) --no-print-directory -j2 --output-sync=recurse rust-build web-deps
	$(MAKE) --no-print-directory -j2 --output-sync=recurse rust-lane web-lane
	$(MAKE) --no-print-directory e2e-run

## `make test` lints as it builds: clippy-driver (rustc with clippy's lints added) compiles
## our crate as the workspace's compiler wrapper, as `cargo clippy` has it do for a check.
## A separate `cargo clippy` checked all 440 dependencies again to lint one crate: 3 min
## 54 s alone, where the lints add 17 s to the build (docs/ci.md, thirty-second session).
## Every cargo command under `make test` inherits the two variables: the wrapper is part of
## the crate's fingerprint, and a command without it would build the crate again. `make
## lint` and `make clippy` run `cargo clippy` as before.
CLIPPY_DRIVER := $(shell command -v clippy-driver 2>/dev/null)
test: export RUSTC_WORKSPACE_WRAPPER = $(CLIPPY_DRIVER)
test: export CLIPPY_ARGS = -Dwarnings
## Nor does it keep incremental caches: CI builds from nothing, where writing them only
## costs (the test targets of our crate in 90 s instead of 105, two pairs; docs/ci.md,
## thirty-third session). Plain cargo keeps them for the edit-and-build loop.
test: export CARGO_INCREMENTAL = 0

## The Rust suites (the lints ran in the build), then the bench smoke's first steps: the
## Rust lane (SQLite 180 s, PostgreSQL 305 s) ended 107 s before the other lane (web
## checks 160 s, schemathesis 189 s, bench smoke 244 s), and these take about 50 s of it
## (docs/ci.md, thirty-third session).
SMOKE_IN_RUST_LANE := passwords auth checkout
rust-lane: rust-test
	$(MAKE) --no-print-directory bench-smoke SMOKE_ONLY="$(SMOKE_IN_RUST_LANE)"

## Beside the Rust suites: the web's checks, then schemathesis, then every other benchmark
## tool once at a toy size (they mostly wait too).
web-lane:
	$(MAKE) --no-print-directory web-checks
	$(MAKE) --no-print-directory api-fuzz-run
	$(MAKE) --no-print-directory bench-smoke SMOKE_SKIP="$(SMOKE_IN_RUST_LANE)"

system-deps:
	@missing=""; \
	command -v node >/dev/null || missing="$$missing nodejs npm"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/lib/chromium/chromium-headless-shell ] || missing="$$missing chromium-headless-shell"; \
	command -v ffmpeg >/dev/null || missing="$$missing ffmpeg"; \
	command -v ezstream >/dev/null || missing="$$missing ezstream"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	command -v liquidsoap >/dev/null || missing="$$missing liquidsoap"; \
	command -v docker-compose >/dev/null || missing="$$missing docker-compose"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	[ -f /usr/lib/nginx/modules/ngx_stream_module.so ] || missing="$$missing libnginx-mod-stream"; \
	pkg-config --exists gstreamer-app-1.0 2>/dev/null || missing="$$missing libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev"; \
	for p in gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav fonts-noto-color-emoji; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

services:
	@scripts/ensure-services.sh

## make compose-check: docker-compose.yml is valid (images cannot be pulled here, so the
## suite runs the same topology as processes); the secrets it requires are placeholders.
compose-check:
	ENCORE_JWT_SECRET=compose-check-placeholder-not-a-secret-0000 \
	ENCORE_DATA_KEY=compose-check-placeholder-not-a-secret-0000 \
	  docker-compose -f docker-compose.yml config -q
	@if ENCORE_JWT_SECRET= ENCORE_DATA_KEY= docker-compose -f docker-compose.yml config -q 2>/dev/null; then \
	  echo "docker-compose.yml must refuse to start without the shared secrets"; exit 1; fi

## Both languages' formatting and lints, and no import of src/ going round in a circle
## (scripts/check-imports.py; the web's own check is part of its lint).
lint: lint-fast clippy

lint-fast:
	@date -u +"== %T lint"
	$(CARGO) fmt --all -- --check
	python3 scripts/check-imports.py

clippy:
	@date -u +"== %T clippy"
	$(CARGO) clippy --all-targets --locked -- -D warnings

## The test binaries and the server (target/debug/encore, which the integration tests run),
## built once for both suites, e2e and schemathesis. A separate `cargo build --bin encore`
## would build the library again, without the dev-dependencies' features (reqwest's).
## Then the examples and the bench, as the bench smoke runs them (18 s): under `make test`
## clippy's lints read them there, as `cargo clippy --all-targets` does.
rust-build:
	@date -u +"== %T Rust build"
	$(CARGO) $(NEXTEST) --locked $(TEST_TARGETS) --no-run
	$(CARGO) build --locked --bin encore --examples
	$(CARGO) test --locked --benches --no-run

## One suite after the other (each runs four tests at a time, .config/nextest.toml). The
## PostgreSQL pass runs the API's tests, the ones that start a server on a database: the
## library's and the binary's own 268 tests open none (only tests/api reads
## ENCORE_TEST_DB), so they run once, in the first pass (23.5 s alone, docs/ci.md).
rust-test:
	$(MAKE) --no-print-directory rust-test-sqlite
	$(MAKE) --no-print-directory rust-test-postgres

rust-test-sqlite:
	@date -u +"== %T Rust tests on SQLite"
	RUST_BACKTRACE=0 $(CARGO) $(NEXTEST) --locked $(TEST_TARGETS) --no-fail-fast

rust-test-postgres: services
	@date -u +"== %T Rust tests on PostgreSQL"
	psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS encore_test WITH (FORCE)" \
	  -c "CREATE DATABASE encore_test"
	ENCORE_TEST_DB=postgres ENCORE_TEST_POSTGRES_URL=$(PG_TEST_URL) RUST_BACKTRACE=0 \
	  $(CARGO) $(NEXTEST) --locked --test api --no-fail-fast

web-deps:
ifneq ($(WEB_PRESENT),)
	cd web && npm ci --no-audit --no-fund
endif

web: web-deps
ifneq ($(WEB_PRESENT),)
	cd web && npm run build
endif

web-test: web-deps
	$(MAKE) --no-print-directory web-checks

## The web's lint, types, unit tests, build and bundle budget (web-deps installed).
web-checks:
	@date -u +"== %T web checks"
ifneq ($(WEB_PRESENT),)
	cd web && npm run lint && npm run typecheck && npm test
	cd web && npm run build && npm run check-size
endif

e2e: web
	$(CARGO) build --locked --bin encore
	$(MAKE) --no-print-directory e2e-run

## The end-to-end tests against the built web app and server.
e2e-run:
	@date -u +"== %T end-to-end tests"
ifneq ($(WEB_PRESENT),)
	cd web && ENCORE_BIN=$(CURDIR)/target/debug/encore npm run e2e
endif

## Schemathesis (pinned, from PyPI, in a virtualenv under target/) fuzzes a running
## Encore from its own OpenAPI document, as a fan and as a super admin.
FUZZ_VENV := target/api-fuzz-venv
$(FUZZ_VENV)/bin/st: scripts/api-fuzz/requirements.txt
	python3 -m venv $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install --quiet --disable-pip-version-check -r $<
	touch $@

api-fuzz: $(FUZZ_VENV)/bin/st
	$(CARGO) build --locked --bin encore
	$(MAKE) --no-print-directory api-fuzz-run

api-fuzz-run: $(FUZZ_VENV)/bin/st
	@date -u +"== %T schemathesis"
	SCHEMATHESIS=$(CURDIR)/$(FUZZ_VENV)/bin/st $(FUZZ_VENV)/bin/python scripts/api-fuzz/run.py

## make openapi: rewrite web/openapi.json (the web client's types come from it) after an
## API change; a test fails while it is stale.
openapi:
	$(CARGO) run --locked --quiet --bin encore -- openapi > web/openapi.json

## make screenshots: the README's screenshots (docs/screenshots/), from the real binary and
## a pushed show in Debian's chromium; not part of `make test`.
screenshots: system-deps web
	$(CARGO) build --locked --bin encore
	cd web && ENCORE_BIN=$(CURDIR)/target/debug/encore node scripts/screenshots.mjs

## make bench: release build and the load tests; results go to docs/benchmarks.md by hand.
bench: services
	loadtests/run-all.sh

## Every tool of `make bench` once, at a toy size, on the debug build (loadtests/smoke.sh):
## a tool that no longer runs fails `make test`, not the next benchmark.
bench-smoke: services
	@date -u +"== %T bench smoke $(SMOKE_ONLY)$(if $(SMOKE_SKIP),(all but $(SMOKE_SKIP)))"
	SMOKE_ONLY="$(SMOKE_ONLY)" SMOKE_SKIP="$(SMOKE_SKIP)" loadtests/smoke.sh

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules
