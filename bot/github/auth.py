"""GitHub App authentication: the App JWT and cached installation tokens.

The App JWT (RS256, `iat` backdated 60 s for clock drift, `iss` the App id as a string)
authenticates only `/app` endpoints. Each installation gets its own token, minted once and
reused by every job until five minutes before GitHub's `expires_at`; concurrent jobs of one
installation share a single mint. App and installation clients are separate objects, as
gidgethub requires.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import aiohttp
from cachetools import LRUCache
from gidgethub.apps import get_jwt

from bot.github.client import GitHub
from bot.github.conditional import ConditionalCache
from bot.github.errors import GitHubError
from bot.github.pacing import Pacer
from bot.github.retry import RetryPolicy
from bot.github.transport import RequestObserver, Transport, TransportConfig

# Refresh a token this long before it expires: a job that starts with it has time to finish.
TOKEN_MARGIN = 300.0
# GitHub accepts JWTs up to 10 minutes; ours are reissued after half of that.
_JWT_LIFETIME = 600
_JWT_REUSE = 300.0
# Installations whose tokens and pacers are kept in memory.
_MAX_INSTALLATIONS = 10_000


@dataclass(frozen=True)
class _Token:
    value: str = field(repr=False)  # a live credential: never in a repr, a log or a traceback
    refresh_at: float  # time.monotonic() deadline


class AppAuth:
    def __init__(
        self,
        app_id: str,
        private_key: str,
        api_url: str,
        session: aiohttp.ClientSession,
        *,
        policy: RetryPolicy | None = None,
        observer: RequestObserver | None = None,
        write_interval: float = 1.0,
        request_timeout: float = 10.0,
        conditional: ConditionalCache | None = None,
        on_secret: Callable[[str], None] | None = None,
    ) -> None:
        self.app_id = str(app_id)
        self._private_key = private_key
        policy = policy or RetryPolicy()
        self._config = TransportConfig(
            session=session,
            api_url=api_url.rstrip("/"),
            policy=policy,
            conditional=conditional or ConditionalCache(),
            request_timeout=request_timeout,
            observer=observer,
        )
        self._write_interval = write_interval
        # Told every JWT and token minted, so that log redaction knows them.
        self._on_secret = on_secret or (lambda _: None)
        self._jwt: tuple[str, float] | None = None
        self._tokens: LRUCache[int, _Token] = LRUCache(maxsize=_MAX_INSTALLATIONS)
        self._mints: dict[int, asyncio.Future[str]] = {}
        self._pacers: LRUCache[int, Pacer] = LRUCache(maxsize=_MAX_INSTALLATIONS)
        # Minting tokens creates no content: the App's own requests are not spaced.
        self._app_pacer = Pacer(write_interval=0.0, max_wait=policy.max_rate_limit_wait)
        self.tokens_minted = 0

    def jwt(self) -> str:
        now = time.monotonic()
        if self._jwt is None or now >= self._jwt[1]:
            token = get_jwt(
                app_id=self.app_id, private_key=self._private_key, expiration=_JWT_LIFETIME
            )
            self._on_secret(token)
            self._jwt = (token, now + _JWT_REUSE)
        return self._jwt[0]

    async def installation_token(self, installation_id: int) -> str:
        cached = self._tokens.get(installation_id)
        if cached is not None and time.monotonic() < cached.refresh_at:
            return cached.value
        pending = self._mints.get(installation_id)
        if pending is None:
            pending = asyncio.ensure_future(self._mint(installation_id))
            self._mints[installation_id] = pending
            pending.add_done_callback(lambda _: self._mints.pop(installation_id, None))
        # shield: one caller cancelled (its job timed out) must not cancel the others' mint.
        return await asyncio.shield(pending)

    async def _mint(self, installation_id: int) -> str:
        answer = await self.app_client().post(
            "/app/installations/{installation_id}/access_tokens",
            {"installation_id": installation_id},
            data=b"",
            idempotent=True,
        )
        try:
            token, expires_at = answer["token"], answer["expires_at"]
            lifetime = datetime.fromisoformat(expires_at).timestamp() - time.time()
        except (TypeError, KeyError, ValueError) as exc:
            raise GitHubError(f"unexpected access token answer: {exc!r}") from None
        self._on_secret(token)
        self._tokens[installation_id] = _Token(
            token, time.monotonic() + max(0.0, lifetime - TOKEN_MARGIN)
        )
        self.tokens_minted += 1
        return token

    def forget(self, installation_id: int, *, refused: str | None = None) -> bool:
        """Drop the cached token (installation deleted or suspended), or, given the token
        GitHub `refused`, only that one: jobs sent with it get their 401s one by one, and
        the first already replaced it. False when the cache holds a newer token."""
        cached = self._tokens.get(installation_id)
        if refused is not None and cached is not None and cached.value != refused:
            return False
        self._tokens.pop(installation_id, None)
        return True

    def app_client(self) -> GitHub:
        return GitHub(Transport(self._config, _AppCredentials(self), self._app_pacer))

    def public_client(self) -> GitHub:
        """A client that sends no credentials, for public endpoints (`GET /meta`) that do
        not take the App's JWT."""
        return GitHub(Transport(self._config, _NoCredentials(), self._app_pacer))

    def user_client(self, token: str) -> GitHub:
        """A client acting as a signed-in user (a user-to-server token from the OAuth web
        flow): it sees what the user may see through this App, nothing more."""
        self._on_secret(token)
        pacer = Pacer(write_interval=0.0, max_wait=self._config.policy.max_rate_limit_wait)
        return GitHub(Transport(self._config, _UserCredentials(token), pacer))

    def installation_client(
        self, installation_id: int, *, delivery_id: str | None = None
    ) -> GitHub:
        pacer = self._pacers.get(installation_id)
        if pacer is None:
            pacer = Pacer(
                write_interval=self._write_interval,
                max_wait=self._config.policy.max_rate_limit_wait,
            )
            self._pacers[installation_id] = pacer
        credentials = _InstallationCredentials(self, installation_id)
        return GitHub(Transport(self._config, credentials, pacer, delivery_id=delivery_id))


def token_client(
    token: str, *, api_url: str, session: aiohttp.ClientSession, request_timeout: float = 10.0
) -> GitHub:
    """A client with a token it is handed (an Actions job's GITHUB_TOKEN): no App, no
    minting; the same retries, rate limits and pacing as the App's clients."""
    policy = RetryPolicy()
    config = TransportConfig(
        session=session,
        api_url=api_url.rstrip("/"),
        policy=policy,
        conditional=ConditionalCache(),
        request_timeout=request_timeout,
    )
    pacer = Pacer(write_interval=0.0, max_wait=policy.max_rate_limit_wait)
    return GitHub(Transport(config, _UserCredentials(token), pacer))


class _AppCredentials:
    scope = "app"

    def __init__(self, auth: AppAuth) -> None:
        self._auth = auth

    async def authorization(self) -> str:
        return f"Bearer {self._auth.jwt()}"

    def renew(self, refused: str) -> bool:
        # A fresh JWT from the same key would be refused the same way.
        return False


class _NoCredentials:
    scope = "public"

    async def authorization(self) -> str:
        return ""  # the transport sends no Authorization header

    def renew(self, refused: str) -> bool:
        return False


class _UserCredentials:
    """A ready bearer token: a signed-in user's, or an Actions job's."""

    scope = "user"

    def __init__(self, token: str) -> None:
        self._token = token

    async def authorization(self) -> str:
        return f"Bearer {self._token}"

    def renew(self, refused: str) -> bool:
        return False  # an expired or revoked user token means signing in again


class _InstallationCredentials:
    def __init__(self, auth: AppAuth, installation_id: int) -> None:
        self._auth = auth
        self._installation_id = installation_id
        self.scope = str(installation_id)

    async def authorization(self) -> str:
        return f"token {await self._auth.installation_token(self._installation_id)}"

    def renew(self, refused: str) -> bool:
        self._auth.forget(self._installation_id, refused=refused.removeprefix("token "))
        return True
