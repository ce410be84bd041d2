"""Signing in to Encore the way the web app does, for the fuzz driver and its auth hook."""

import base64
import hashlib
import json
import secrets
import urllib.error
import urllib.request

PASSWORD = "Fuzz-Encore-Passw0rd"


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
