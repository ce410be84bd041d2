"""Fuzz the API with schemathesis against a real `encore serve`, from its own OpenAPI
document, signed in as a super admin and as a fan. Run by `make api-fuzz` (part of
`make test`); exits non-zero on any failure.

Every operation gets a bounded number of generated cases (ENCORE_FUZZ_EXAMPLES, default
20). Checked: no 5xx, status codes, content types and bodies as documented, every answer
an envelope (hooks.py), no answer slower than a second.
"""

import base64
import hashlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN = Path(os.environ.get("ENCORE_BIN", ROOT / "target/debug/encore"))
ST = os.environ.get("SCHEMATHESIS", "st")
EXAMPLES = os.environ.get("ENCORE_FUZZ_EXAMPLES", "20")
PASSWORD = "Fuzz-Encore-Passw0rd"
ACCOUNTS = {"sa": "fuzz-sa@example.com", "user": "fuzz-fan@example.com"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url, body=None, headers=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def sign_in(base, email):
    """The web app's OAuth flow: authorize with PKCE, then exchange the code."""
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    basic = {"Authorization": "Basic " + base64.b64encode(b"encore-web:").decode()}
    redirect = f"{base}/auth/callback"
    state = secrets.token_hex(8)
    status, body = call(f"{base}/api/v1/oauth2/authorize", {
        "email": email, "password": PASSWORD, "response_type": "code", "response_mode": "query",
        "scope": "openid profile email", "redirect_uri": redirect, "code_challenge": challenge,
        "code_challenge_method": "S256", "client_id": "encore-web", "state": state,
        "nonce": secrets.token_hex(8),
    }, basic)
    assert status == 200, (status, body)
    status, body = call(f"{base}/api/v1/oauth2/token", {
        "grant_type": "authorization_code", "code": body["payload"]["code"],
        "redirect_uri": redirect, "code_verifier": verifier, "client_id": "encore-web", "state": state,
    }, basic)
    assert status == 200, (status, body)
    return body["payload"]["access_token"]


def main():
    data_dir = Path(tempfile.mkdtemp(prefix="encore-fuzz-"))
    for role, email in ACCOUNTS.items():
        subprocess.run([BIN, "admin", "create", "--data-dir", data_dir, "--email", email,
                        "--password", PASSWORD, "--role", role, "--first-name", "Fuzz",
                        "--last-name", role], check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(data_dir / "server.log", "wb")
    env = {**os.environ, "ENCORE_AUTH_RATE_PER_MINUTE": "100000", "ENCORE_PAYMENTS": "test",
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
        tokens = {role: sign_in(base, email) for role, email in ACCOUNTS.items()}
        # The fan first: the super admin's run may disable or delete accounts.
        for role in ("user", "sa"):
            print(f"== schemathesis as {role}", flush=True)
            result = subprocess.run([
                ST, "run", f"{base}/api/v1/openapi.json",
                "--checks", "all", "--max-examples", EXAMPLES, "--max-response-time", "1",
                "--workers", "2", "--seed", os.environ.get("ENCORE_FUZZ_SEED", "1"),
                "--generation-database", "none", "--no-color",
                "--header", f"Authorization: Bearer {tokens[role]}",
                "--header", "Accept-Language: en",
                # While working on one domain: ENCORE_FUZZ_TAG=events.
                *(["--include-tag", os.environ["ENCORE_FUZZ_TAG"]] if os.environ.get("ENCORE_FUZZ_TAG") else []),
            ], env={**os.environ, "SCHEMATHESIS_HOOKS": "hooks", "PYTHONPATH": str(HERE)},
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
