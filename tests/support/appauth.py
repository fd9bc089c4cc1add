"""App JWTs as GitHub expects them, for tests that talk to the fake GitHub directly."""

import time
from typing import Any

import jwt

from tests.fakegithub import FakeGitHub


def app_jwt(fake: FakeGitHub, **claims: Any) -> str:
    """An RS256 App JWT signed with the fake's key; keyword arguments override the claims."""
    now = int(time.time())
    payload = {"iat": now - 60, "exp": now + 540, "iss": str(fake.app_id), **claims}
    return jwt.encode(payload, fake.private_key_pem, algorithm="RS256")
