"""Fuzz the API with schemathesis against a real `encore serve`, from its own OpenAPI
document, signed in as a super admin and as a fan. Run by `make api-fuzz` (part of
`make test`); exits non-zero on any failure.

Every operation gets a bounded number of generated cases (ENCORE_FUZZ_EXAMPLES, default
20). Checked: no 5xx, status codes, content types and bodies as documented, every answer
an envelope (hooks.py), no answer slower than two seconds.

The time limit catches an answer that does unbounded work on hostile input. It was one
second until CI went red three times on trivial answers (a 404 for an unknown concert, two
422s) at 1,019-1,050 ms: `make test` runs this beside the PostgreSQL suite on two cores,
where queueing, not the server's own work, took that second (docs/ci.md, thirty-third
session).
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session import PASSWORD, call  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN = Path(os.environ.get("ENCORE_BIN", ROOT / "target/debug/encore"))
ST = os.environ.get("SCHEMATHESIS", "st")
EXAMPLES = os.environ.get("ENCORE_FUZZ_EXAMPLES", "20")
ACCOUNTS = {"sa": "fuzz-sa@example.com", "user": "fuzz-fan@example.com"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    data_dir = Path(tempfile.mkdtemp(prefix="encore-fuzz-"))
    for role, email in ACCOUNTS.items():
        subprocess.run([BIN, "admin", "create", "--data-dir", data_dir, "--email", email,
                        "--password", PASSWORD, "--role", role, "--first-name", "Fuzz",
                        "--last-name", role], check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(data_dir / "server.log", "wb")
    # Metrics on (a token configured), as an operator runs them: fuzzed like any endpoint.
    env = {**os.environ, "ENCORE_AUTH_RATE_PER_MINUTE": "100000", "ENCORE_PAYMENTS": "test",
           "ENCORE_METRICS_TOKEN": "api-fuzz-metrics-token-not-a-secret",
           "ENCORE_ACCOUNT_FAILURES_PER_HOUR": "100000", "RUST_LOG": "warn"}
    server = subprocess.Popen([BIN, "serve", "--bind", f"127.0.0.1:{port}", "--data-dir", data_dir,
                               "--public-url", base, "--ingest-bind", "", "--demo"],
                              env=env, stdout=log, stderr=log)
    failed = False
    try:
        deadline = time.time() + 60
        while True:
            try:
                if call(f"{base}/api/v1/health")[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.time() > deadline:
                sys.exit(f"encore serve did not start; see {data_dir / 'server.log'}")
            time.sleep(0.2)
        # The fan first: the super admin's run may disable or delete accounts.
        for role in ("user", "sa"):
            print(f"== schemathesis as {role}", flush=True)
            result = subprocess.run([
                ST, "--config-file", str(HERE / "schemathesis.toml"), "run", f"{base}/api/v1/openapi.json",
                "--max-examples", EXAMPLES, "--max-response-time", "2",
                "--workers", "2", "--seed", os.environ.get("ENCORE_FUZZ_SEED", "1"),
                "--generation-database", "none", "--no-color",
                "--header", "Accept-Language: en",
                # While working on one domain: ENCORE_FUZZ_TAG=events.
                *(["--include-tag", os.environ["ENCORE_FUZZ_TAG"]] if os.environ.get("ENCORE_FUZZ_TAG") else []),
            ], env={**os.environ, "SCHEMATHESIS_HOOKS": "hooks", "PYTHONPATH": str(HERE),
                    # hooks.py signs in as this account, and again whenever a token is refused
                    # (the fuzz itself signs out, ends sessions, changes passwords).
                    "ENCORE_FUZZ_BASE": base, "ENCORE_FUZZ_EMAIL": ACCOUNTS[role]},
                cwd=data_dir)  # its caches and reports stay out of the checkout
            failed |= result.returncode != 0
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
        if failed:
            print(f"server log kept in {data_dir / 'server.log'}", file=sys.stderr)
        else:
            shutil.rmtree(data_dir, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
