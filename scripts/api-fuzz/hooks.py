"""Checks of ours that schemathesis runs beside its own (loaded by run.py)."""

import os

import schemathesis

from session import sign_in

# Answers not in the envelope: the OpenAPI document itself, and outside the API the
# encoder ingest (one line of text, as Icecast encoders expect), its metadata call (XML or
# an HTML error page, as Icecast answers) and the signed HLS files
# (playlists and audio; a refusal has no body).
NOT_ENVELOPED = ("/api/v1/openapi.json",)
OUTSIDE_THE_API = ("/live/", "/stream/", "/admin/")


def documented_non_json(case, response):
    """A success in a media type its operation documents that is not JSON (a picture)."""
    if response.status_code >= 400:
        return False
    media_type = (response.headers.get("content-type") or [""])[0].split(";")[0].strip()
    if media_type.endswith("json"):
        return False
    answer = case.operation.definition.raw.get("responses", {}).get(str(response.status_code), {})
    return media_type in answer.get("content", {})


@schemathesis.check
def envelope(ctx, response, case):
    """Every answer of the API is `{success, payload, error}`, success matching the status."""
    if (
        case.path in NOT_ENVELOPED
        or case.path.startswith(OUTSIDE_THE_API)
        or response.status_code == 204
        or documented_non_json(case, response)
    ):
        return None
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"not JSON: {response.text[:200]!r}") from None
    if not isinstance(body, dict) or not {"success", "payload", "error"} <= body.keys():
        raise AssertionError(f"not an envelope: {str(body)[:200]}")
    ok = response.status_code < 400
    if body["success"] is not ok:
        raise AssertionError(f"success={body['success']} with status {response.status_code}")
    if not ok and not (isinstance(body["error"], str) and body["error"].strip()):
        raise AssertionError("a failure without an error message")
    return None


@schemathesis.serializer("audio/aac", "audio/mpeg", "audio/webm", "audio/ogg", "audio/mp4")
def audio(ctx, value):
    """The ingest's body is audio, which the document cannot type: whatever was generated
    goes as bytes (the server must refuse it cleanly)."""
    return value if isinstance(value, bytes) else repr(value).encode()


@schemathesis.auth()
class SignedIn:
    """The run's account, signed in through OAuth; signed in again whenever a request is
    refused with 401, as the fuzz signs itself out and ends its own sessions."""

    def get(self, case, ctx):
        return sign_in(os.environ["ENCORE_FUZZ_BASE"], os.environ["ENCORE_FUZZ_EMAIL"])

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
