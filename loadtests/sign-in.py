#!/usr/bin/env python3
"""Sign in through authorize + token (PKCE) and print the access token. Standard library only."""
import base64, hashlib, json, os, secrets, sys, urllib.request

base, email, password = sys.argv[1], sys.argv[2], sys.argv[3]
verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
redirect = f"{base}/auth/callback"

def post(path, body):
    req = urllib.request.Request(f"{base}/api/v1/oauth2/{path}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Basic ZW5jb3JlLXdlYjo="})
    with urllib.request.urlopen(req) as r:
        return json.load(r)["payload"]

code = post("authorize", {"email": email, "password": password, "response_type": "code",
    "response_mode": "query", "scope": "openid profile email", "redirect_uri": redirect,
    "code_challenge": challenge, "code_challenge_method": "S256", "client_id": "encore-web",
    "state": "bench", "nonce": "bench"})["code"]
tokens = post("token", {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
    "code_verifier": verifier, "client_id": "encore-web", "state": "bench"})
print(tokens["access_token"])
