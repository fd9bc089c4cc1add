"""`GitHub`: the one client every feature uses for GitHub I/O.

gidgethub builds URLs, encodes and decodes JSON, follows `Link: rel=next` pages and
classifies error answers; our `Transport` underneath sends each request (credentials,
pacing, conditional GETs, retries, rate limits, logs, metrics). Only `bot.github.errors`
exceptions come out.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import aiohttp
import gidgethub
import gidgethub.abc
from gidgethub import sansio

from bot.github.errors import GitHubUnavailable, error_for, translated
from bot.github.retry import RetryPolicy
from bot.github.transport import Transport

JSON = sansio.accept_format()
RAW = "application/vnd.github.raw+json"

UrlVars = Mapping[str, Any]


class _GidgetAPI(gidgethub.abc.GitHubAPI):
    """gidgethub over our transport. Credentials come from the transport, not from here."""

    def __init__(self, transport: Transport, *, post_idempotent: bool, resend: bool = True) -> None:
        super().__init__(transport.config.user_agent, base_url=transport.config.api_url)
        self._transport = transport
        self._post_idempotent = post_idempotent
        self._resend = resend

    async def _request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes = b""
    ) -> tuple[int, Mapping[str, str], bytes]:
        idempotent = self._resend and (method != "POST" or self._post_idempotent)
        reply = await self._transport.send(method, url, headers, body, idempotent=idempotent)
        return reply.status, reply.headers, reply.body

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@contextmanager
def _our_errors() -> Iterator[None]:
    try:
        yield
    except gidgethub.HTTPException as exc:
        raise translated(exc) from exc


class GitHub:
    """An installation- or app-scoped client. Cheap to create: one per job."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self._api = _GidgetAPI(transport, post_idempotent=False)
        self._idempotent_api = _GidgetAPI(transport, post_idempotent=True)
        self._once_api = _GidgetAPI(transport, post_idempotent=False, resend=False)

    @property
    def requests_made(self) -> int:
        """HTTP requests this client sent, retries included (for requests-per-PR figures)."""
        return self._transport.requests_made

    @property
    def rate_limit_remaining(self) -> int | None:
        return self._transport.rate_limit_remaining

    @property
    def policy(self) -> RetryPolicy:
        """How this client resends: for callers that resend a write themselves."""
        return self._transport.config.policy

    async def getitem(
        self, url: str, url_vars: UrlVars | None = None, *, accept: str = JSON
    ) -> Any:
        with _our_errors():
            return await self._api.getitem(url, url_vars or {}, accept=accept)

    async def getiter(
        self,
        url: str,
        url_vars: UrlVars | None = None,
        *,
        accept: str = JSON,
        per_page: int = 100,
        iterable_key: str | None = "items",
    ) -> AsyncIterator[Any]:
        """Every item of every page. `iterable_key` names the list in wrapped answers
        (`check_runs`, `tree`, ...)."""
        with _our_errors():
            pages = self._api.getiter(
                _with_per_page(url, per_page),
                url_vars or {},
                accept=accept,
                iterable_key=iterable_key,
            )
            async for item in pages:
                yield item

    async def post(
        self,
        url: str,
        url_vars: UrlVars | None = None,
        *,
        data: Any,
        accept: str = JSON,
        idempotent: bool = False,
    ) -> Any:
        """Create something. `idempotent=True` lets the client resend after an ambiguous
        failure (a 5xx or timeout): only for POSTs GitHub deduplicates, such as reactions."""
        api = self._idempotent_api if idempotent else self._api
        with _our_errors():
            return await api.post(url, url_vars or {}, data=data, accept=accept)

    async def patch(
        self,
        url: str,
        url_vars: UrlVars | None = None,
        *,
        data: Any,
        accept: str = JSON,
        resend: bool = True,
    ) -> Any:
        """Change something. ``resend=False``: not resent after an ambiguous failure (a 5xx
        or timeout), for a caller that must look again before it writes again."""
        api = self._api if resend else self._once_api
        with _our_errors():
            return await api.patch(url, url_vars or {}, data=data, accept=accept)

    async def put(
        self, url: str, url_vars: UrlVars | None = None, *, data: Any = b"", accept: str = JSON
    ) -> Any:
        with _our_errors():
            return await self._api.put(url, url_vars or {}, data=data, accept=accept)

    async def delete(self, url: str, url_vars: UrlVars | None = None) -> None:
        with _our_errors():
            await self._api.delete(url, url_vars or {})

    async def get_bytes(
        self, url: str, url_vars: UrlVars | None = None, *, accept: str = RAW
    ) -> bytes:
        """A body as bytes, undecoded (file contents, blobs in the raw media type)."""
        reply = await self._transport.send(
            "GET", self._url(url, url_vars), {"accept": accept}, b"", idempotent=True
        )
        if not 200 <= reply.status < 300:
            raise error_for(reply.status, reply.headers, reply.body)
        return reply.body

    @asynccontextmanager
    async def stream(
        self, url: str, url_vars: UrlVars | None = None, *, accept: str = JSON
    ) -> AsyncIterator[aiohttp.ClientResponse]:
        """A 2xx answer with its body unread (a tarball: the redirect to the archive host is
        followed, without our credentials). Read it with `response.content`."""
        full_url = self._url(url, url_vars)
        response = await self._transport.open(full_url, {"accept": accept})
        try:
            yield response
        except (TimeoutError, aiohttp.ClientError) as exc:
            # The body broke off or stalled while the caller read it.
            raise GitHubUnavailable(f"GET {full_url}: the download failed ({exc!r})") from exc
        finally:
            response.release()

    def _url(self, url: str, url_vars: UrlVars | None) -> str:
        return sansio.format_url(url, url_vars or {}, base_url=self._transport.config.api_url)


def _with_per_page(url: str, per_page: int) -> str:
    if "per_page=" in url or "{?" in url:
        return url
    return f"{url}{'&' if '?' in url else '?'}per_page={per_page}"
