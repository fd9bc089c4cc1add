"""Reading a webhook body that nobody has authenticated yet, in bounded memory and time.

Until the HMAC is checked, the sender may be anyone on the internet. The body is streamed
into the HMAC as it arrives (GitHub signs the raw bytes), under a read deadline, and the
memory held by unverified bodies is bounded by admission: every body needs one of
`SMALL_SLOTS` slots, and a body past `SMALL_BODY` bytes one of the few `LARGE_SLOTS` too
(GitHub's own payloads are almost all far below it). A sender who cannot get a slot at
once is answered 503, which GitHub records as a failed delivery that can be redelivered.
So twenty stalled 24 MiB uploads hold at most `LARGE_SLOTS` x 25 MiB, for at most
`READ_DEADLINE` seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from dataclasses import dataclass, field

from aiohttp import web

#: GitHub caps webhook payloads at 25 MB.
MAX_PAYLOAD = 25 * 2**20
SMALL_BODY = 1 * 2**20
SMALL_SLOTS = 32
LARGE_SLOTS = 2
#: Seconds to receive a whole body: GitHub sends it at once; a slow sender is an attack.
READ_DEADLINE = 10.0
_CHUNK = 64 * 1024


class BodyRefused(Exception):
    def __init__(self, status: int, outcome: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.outcome = outcome
        self.detail = detail


@dataclass
class BodyAdmission:
    """The slots unverified bodies need; one per app (see Services)."""

    small: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(SMALL_SLOTS))
    large: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(LARGE_SLOTS))
    read_deadline: float = READ_DEADLINE


def _busy() -> BodyRefused:
    return BodyRefused(503, "busy", "too many webhook bodies in flight; redeliver later")


def _too_large() -> BodyRefused:
    return BodyRefused(413, "too_large", f"payload above {MAX_PAYLOAD} bytes")


async def read_signed(
    request: web.Request, admission: BodyAdmission, secret: str, signature: str
) -> bytes:
    """The body, once its `sha256=` signature checks out; BodyRefused otherwise."""
    if (request.content_length or 0) > MAX_PAYLOAD:
        raise _too_large()
    if admission.small.locked():
        raise _busy()
    async with admission.small:
        mac = hmac.new(secret.encode(), digestmod=hashlib.sha256)
        chunks: list[bytes] = []
        size = 0
        large = False
        try:
            async with asyncio.timeout(admission.read_deadline):
                async for chunk in request.content.iter_chunked(_CHUNK):
                    size += len(chunk)
                    if size > MAX_PAYLOAD:
                        raise _too_large()
                    if size > SMALL_BODY and not large:
                        if admission.large.locked():
                            raise _busy()
                        await admission.large.acquire()
                        large = True
                    mac.update(chunk)
                    chunks.append(chunk)
        except TimeoutError:
            raise BodyRefused(
                408, "slow_body", f"the body did not arrive within {admission.read_deadline:g} s"
            ) from None
        finally:
            if large:
                admission.large.release()
    expected = "sha256=" + mac.hexdigest()
    if not hmac.compare_digest(expected.encode(), signature.encode()):
        raise BodyRefused(401, "bad_signature", "X-Hub-Signature-256 does not match the payload")
    return b"".join(chunks)
