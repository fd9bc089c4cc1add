"""App JWTs, installation tokens and per-credential rate-limit buckets, as GitHub checks them."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

MAX_JWT_LIFETIME = 600  # GitHub refuses an App JWT whose exp is more than 10 minutes after iat
CLOCK_DRIFT = 60  # GitHub tolerates iat slightly in the future (clients set it 60 s back)
RATE_LIMIT = 5000
RATE_WINDOW = 3600


class AuthError(Exception):
    """Rejected credentials: the message is GitHub's wording."""


def generate_private_key() -> tuple[str, rsa.RSAPublicKey]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,  # "BEGIN RSA PRIVATE KEY" like GitHub
        serialization.NoEncryption(),
    ).decode()
    return pem, key.public_key()


def verify_app_jwt(token: str, public_key: rsa.RSAPublicKey, app_id: int) -> None:
    try:
        claims = jwt.decode(
            token,
            public_key,
            algorithms=["RS256"],
            options={"require": ["iat", "exp", "iss"], "verify_iat": False, "verify_exp": False},
        )
    except jwt.InvalidTokenError as exc:
        raise AuthError(f"A JSON web token could not be decoded ({exc})") from exc
    now = time.time()
    iat, exp, iss = claims["iat"], claims["exp"], claims["iss"]
    if not isinstance(iat, int | float) or iat > now + CLOCK_DRIFT:
        raise AuthError(
            "'Issued at' claim ('iat') must be an Integer representing a time in the past"
        )
    if not isinstance(exp, int | float) or exp <= now:
        raise AuthError(
            "'Expiration time' claim ('exp') must be a numeric value representing the future time"
            " at which the assertion expires"
        )
    if exp - iat > MAX_JWT_LIFETIME:
        raise AuthError("'Expiration time' claim ('exp') is too far in the future")
    # The JSON type matters: GitHub wants the app id as a string ("iss": "424242").
    if not isinstance(iss, str) or iss != str(app_id):
        raise AuthError("'Issuer' claim ('iss') must be the app id as a string")


@dataclass
class Installation:
    id: int
    account: str
    suspended: bool = False


@dataclass
class Bucket:
    """One rate-limit window (GitHub counts per installation token / per app)."""

    limit: int = RATE_LIMIT
    used: int = 0
    reset: int = field(default_factory=lambda: int(time.time()) + RATE_WINDOW)

    @property
    def remaining(self) -> int:
        return max(self.limit - self.used, 0)

    def headers(self) -> dict[str, str]:
        return {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-reset": str(self.reset),
            "x-ratelimit-used": str(self.used),
            "x-ratelimit-resource": "core",
        }


@dataclass
class Token:
    value: str
    installation_id: int
    expires_at: float
    bucket: Bucket = field(default_factory=Bucket)

    @property
    def live(self) -> bool:
        return time.time() < self.expires_at


def new_token_value() -> str:
    return "ghs_" + secrets.token_urlsafe(27)[:36]
