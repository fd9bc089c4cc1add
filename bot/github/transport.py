"""The one loop every GitHub request goes through.

It adds credentials, waits for the installation's pacer, makes GETs conditional, retries
what is safe to retry (see `bot.github.retry`), honours rate limits, and writes one log
line and one metric sample per HTTP exchange.

Resending rules: a GET, PUT, PATCH or DELETE is resent after a 5xx or a timeout. A POST
creates something, so after an ambiguous failure (5xx, timeout, dropped connection) it is
resent only when the caller declares it idempotent; a POST whose connection never opened
is always resent. A rate-limit answer (403/429) means GitHub did nothing: always resent
after the wait.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

import aiohttp

from bot.github.conditional import ConditionalCache, Stored
from bot.github.errors import GitHubUnavailable, RateLimited, error_for
from bot.github.pacing import Pacer
from bot.github.retry import RetryPolicy

API_VERSION = "2022-11-28"
log = logging.getLogger("lockin.github")


class Credentials(Protocol):
    """How one client authenticates: the App JWT, an installation or user token, or nothing
    (an empty `authorization()`: no header, for public endpoints)."""

    scope: str  # "app" or the installation id, for logs, metrics and cache keys

    async def authorization(self) -> str:
        """The value of the Authorization header."""
        ...

    def renew(self, refused: str) -> bool:
        """GitHub refused the Authorization value `refused` (401): drop that credential
        unless another request already replaced it; True if a fresh one may succeed."""
        ...


class RequestObserver(Protocol):
    def github_request(
        self, *, method: str, status: str, seconds: float, scope: str, remaining: int | None
    ) -> None: ...


@dataclass(frozen=True)
class Reply:
    status: int
    headers: Mapping[str, str]
    body: bytes


@dataclass
class TransportConfig:
    """What the clients of one App share: set up once by `AppAuth`."""

    session: aiohttp.ClientSession
    api_url: str
    policy: RetryPolicy
    conditional: ConditionalCache
    request_timeout: float
    observer: RequestObserver | None = None
    user_agent: str = "lockin"


class Transport:
    def __init__(
        self,
        config: TransportConfig,
        credentials: Credentials,
        pacer: Pacer,
        *,
        delivery_id: str | None = None,
    ) -> None:
        self.config = config
        self._credentials = credentials
        self._pacer = pacer
        self._delivery_id = delivery_id
        self.requests_made = 0
        self.rate_limit_remaining: int | None = None

    async def send(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes, *, idempotent: bool
    ) -> Reply:
        """One logical request; the body of the final answer, whatever its status."""
        reply, response = await self._exchange(method, url, headers, body, idempotent, False)
        assert response is None
        return reply

    async def open(self, url: str, headers: Mapping[str, str]) -> aiohttp.ClientResponse:
        """A GET whose 2xx body is left unread for streaming; the caller releases it."""
        reply, response = await self._exchange("GET", url, headers, b"", True, True)
        if response is None:
            raise error_for(reply.status, reply.headers, reply.body)
        return response

    async def _exchange(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes,
        idempotent: bool,
        stream: bool,
    ) -> tuple[Reply, aiohttp.ClientResponse | None]:
        """Send until an answer is final; decide from each answer whether to try again."""
        policy = self.config.policy
        cache_key = (self._credentials.scope, url, headers.get("accept", ""))
        stored = self.config.conditional.lookup(cache_key) if method == "GET" else None
        failures = limits = attempt = 0
        renewed = False
        while True:
            attempt += 1
            conditional = stored if not stream else None
            # Credentials before the pacer: a token mint must not eat into a write's slot.
            authorization = await self._credentials.authorization()
            try:
                response, payload = await self._send_once(
                    method, url, headers, body, authorization, conditional, stream, attempt
                )
            except (TimeoutError, aiohttp.ClientError) as exc:
                failures += 1
                never_sent = isinstance(exc, aiohttp.ClientConnectorError)
                if failures >= policy.attempts or not (idempotent or never_sent):
                    raise GitHubUnavailable(
                        f"{method} {_path(url)}: {_failure(exc)} after {attempt} attempt(s)"
                    ) from exc
                await asyncio.sleep(policy.backoff_delay(failures))
                continue
            status = response.status
            if payload is None:  # a stream's 2xx answer, its body left for the caller
                return Reply(status, response.headers, b""), response
            if status == 304 and conditional is not None:
                return Reply(200, conditional.headers, conditional.body), None
            if status == 401 and not renewed and self._credentials.renew(authorization):
                renewed = True
                continue
            if status >= 500:
                failures += 1
                if failures >= policy.attempts or not idempotent:
                    raise GitHubUnavailable(
                        f"{method} {_path(url)}: HTTP {status} after {attempt} attempt(s)",
                        status=status,
                    )
                await asyncio.sleep(policy.backoff_delay(failures))
                continue
            wait = policy.rate_limit_wait(
                status, response.headers, _message(payload), now=time.time(), nth=limits + 1
            )
            if wait is not None:
                limits += 1
                if wait > policy.max_rate_limit_wait or limits > policy.rate_limit_retries:
                    raise RateLimited(
                        f"{method} {_path(url)}: rate limited, GitHub asks to wait {wait:.0f}s",
                        wait=wait,
                        status=status,
                    )
                log.warning(
                    "rate limited: holding installation requests %.1fs",
                    wait,
                    extra=self._fields(method, url, str(status), attempt),
                )
                # Every request of this installation waits, not only this one.
                self._pacer.pause(wait)
                continue
            if method == "GET" and 200 <= status < 300:
                self.config.conditional.store(cache_key, response.headers, payload)
            return Reply(status, response.headers, payload), None

    async def _send_once(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes,
        authorization: str,
        conditional: Stored | None,
        stream: bool,
        attempt: int,
    ) -> tuple[aiohttp.ClientResponse, bytes | None]:
        """One HTTP exchange: the answer and its body (None: a stream's unread 2xx body)."""
        await self._pacer.before(method)
        request_headers = {
            **headers,
            "x-github-api-version": API_VERSION,
            "user-agent": self.config.user_agent,
        }
        if authorization:
            request_headers["authorization"] = authorization
        if conditional is not None:
            request_headers["if-none-match"] = conditional.etag
        started = time.monotonic()
        try:
            response = await self.config.session.request(
                method,
                url,
                headers=request_headers,
                data=body or None,
                timeout=self._timeout(stream),
            )
            payload = None
            if not (stream and response.status < 300):
                async with response:
                    payload = await response.read()
        except (TimeoutError, aiohttp.ClientError) as exc:
            self._observe(method, url, _failure(exc), started, attempt, None)
            raise
        self._observe(method, url, str(response.status), started, attempt, response)
        return response, payload

    def _timeout(self, stream: bool) -> aiohttp.ClientTimeout:
        seconds = self.config.request_timeout
        if stream:
            # A large archive takes longer than one request: bound the silences instead.
            return aiohttp.ClientTimeout(total=None, sock_connect=seconds, sock_read=seconds)
        return aiohttp.ClientTimeout(total=seconds)

    def _observe(
        self,
        method: str,
        url: str,
        status: str,
        started: float,
        attempt: int,
        response: aiohttp.ClientResponse | None,
    ) -> None:
        seconds = time.monotonic() - started
        self.requests_made += 1
        remaining = None
        if response is not None:
            remaining = _int(response.headers.get("x-ratelimit-remaining"))
            if remaining is not None:
                self.rate_limit_remaining = remaining
                reset = _int(response.headers.get("x-ratelimit-reset"))
                if remaining == 0 and reset is not None and response.status < 400:
                    # The next request would be refused: wait for the reset up front.
                    self._pacer.pause(max(0.0, reset - time.time()) + 1.0)
        if self.config.observer is not None:
            self.config.observer.github_request(
                method=method,
                status=status,
                seconds=seconds,
                scope=self._credentials.scope,
                remaining=remaining,
            )
        fields = self._fields(method, url, status, attempt)
        fields.update(ms=round(seconds * 1000, 1), rate_limit_remaining=remaining)
        level = logging.INFO if status.isdigit() and int(status) < 400 else logging.WARNING
        log.log(level, "GitHub %s %s -> %s", method, _path(url), status, extra=fields)

    def _fields(self, method: str, url: str, status: str, attempt: int) -> dict[str, object]:
        return {
            "delivery_id": self._delivery_id,
            "installation_id": self._credentials.scope,
            "method": method,
            "path": _path(url),
            "status": status,
            "attempt": attempt,
        }


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _failure(exc: BaseException) -> str:
    return "timeout" if isinstance(exc, TimeoutError) else "connection_error"


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _message(payload: bytes) -> str:
    try:
        data = json.loads(payload)
    except ValueError:
        return payload[:200].decode("utf-8", "replace")
    return str(data.get("message", "")) if isinstance(data, dict) else ""
