"""App JWTs as GitHub expects them, for tests that talk to the fake GitHub directly."""

import json
import time
from typing import Any

import jwt

from tests.fakegithub import FakeGitHub


def app_jwt(fake: FakeGitHub, *, key: str | None = None, **claims: Any) -> str:
    """An RS256 App JWT signed with the fake's key (or `key`); keyword arguments override the
    claims with any JSON type, so tests can also build the tokens GitHub refuses."""
    now = int(time.time())
    payload = {"iat": now - 60, "exp": now + 540, "iss": str(fake.app_id), **claims}
    # PyJWS signs the claims as given (PyJWT's encode would refuse a non-string iss).
    return jwt.api_jws.encode(
        json.dumps(payload).encode(),
        key or fake.private_key_pem,
        algorithm="RS256",
        headers={"typ": "JWT"},
    )
