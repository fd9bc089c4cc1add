"""Reading a webhook body that nobody has authenticated yet, in bounded memory and time.

Until the HMAC is checked, the sender may be anyone on the internet, and nothing such a
sender does may delay or refuse GitHub's real deliveries. So:

- Every body needs one of `total` slots (bounded memory), a body past `SMALL_BODY` bytes
  one of the few `LARGE_SLOTS` too (GitHub's own payloads are almost all far below it). A
  peer holds at most one large slot, and a large body waits for one as any body waits for
  its slot: two stalled large uploads must not turn GitHub's next large push away at once.
- One peer (a client address; an IPv6 /64, which one subscriber typically holds whole)
  holds at most `per_peer` of them: a sender stalling many uploads from one address
  locks out only itself. The peer is the socket's address, or the client a trusted proxy
  names (bot.server.peers).
- GitHub sends a body at once, so each chunk must arrive within `chunk_idle` seconds of
  the previous one, and the whole body within `deadline`: a stalled upload frees its slot
  in seconds, not after one long deadline.
- A body that finds no free slot waits up to `wait` seconds for one (slots free within
  `chunk_idle`) before it is answered 503, which GitHub records as a failed delivery.

The body is streamed into the HMAC as it arrives (GitHub signs the raw bytes).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

#: GitHub caps webhook payloads at 25 MB.
MAX_PAYLOAD = 25 * 2**20
SMALL_BODY = 1 * 2**20
LARGE_SLOTS = 2
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class AdmissionLimits:
    #: Bodies being read at once, from every peer together.
    total: int = 32
    #: Bodies being read at once from one peer.
    per_peer: int = 4
    #: Seconds a body waits for a slot before it is answered 503.
    wait: float = 3.0
    #: Seconds between two chunks of one body before it is cut off (408).
    chunk_idle: float = 2.0
    #: Seconds to receive a whole body: GitHub gives a delivery 10 s in all.
    deadline: float = 5.0


class BodyRefused(Exception):
    def __init__(self, status: int, outcome: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.outcome = outcome
        self.detail = detail


class _Peer:
    """A peer's slots, kept while any of its bodies holds or waits for one."""

    def __init__(self, slots: int) -> None:
        self.slots = asyncio.Semaphore(slots)
        self.users = 0
        self.large = False


class BodyAdmission:
    """The slots unverified bodies need; one per app (see WebServices)."""

    def __init__(
        self,
        limits: AdmissionLimits | None = None,
        *,
        on_saturated: Callable[[], None] = lambda: None,
    ) -> None:
        self.limits = limits or AdmissionLimits()
        self._on_saturated = on_saturated
        self._all = asyncio.Semaphore(self.limits.total)
        self.large = asyncio.Semaphore(LARGE_SLOTS)
        self._peers: dict[str, _Peer] = {}
        self.in_use = 0
        self.waiting = 0

    @property
    def saturated(self) -> bool:
        """Every slot is taken: a body arriving now has to wait."""
        return self._all.locked()

    @asynccontextmanager
    async def slot(self, peer: str) -> AsyncIterator[None]:
        """Hold one slot for `peer`, waiting up to `limits.wait`; BodyRefused 503 if none."""
        state = self._peers.get(peer)
        if state is None:
            state = self._peers[peer] = _Peer(self.limits.per_peer)
        state.users += 1
        got_peer = got_all = False
        self.waiting += 1
        try:
            try:
                async with asyncio.timeout(self.limits.wait):
                    await state.slots.acquire()
                    got_peer = True
                    if self._all.locked():
                        self._on_saturated()
                    await self._all.acquire()
                    got_all = True
            except TimeoutError:
                raise _busy(peer_full=not got_peer) from None
            finally:
                self.waiting -= 1
            self.in_use += 1
            try:
                yield
            finally:
                self.in_use -= 1
        finally:
            if got_all:
                self._all.release()
            if got_peer:
                state.slots.release()
            state.users -= 1
            if state.users == 0:
                del self._peers[peer]

    @asynccontextmanager
    async def large_slot(self, peer: str) -> AsyncIterator[None]:
        """Hold a large-body slot for `peer` (which holds a `slot`), waiting up to
        `limits.wait`; BodyRefused 503 if none, or if the peer already holds one."""
        state = self._peers[peer]
        if state.large:
            raise _busy(peer_full=True)
        state.large = True
        self.waiting += 1
        try:
            try:
                async with asyncio.timeout(self.limits.wait):
                    await self.large.acquire()
            except TimeoutError:
                raise _busy(peer_full=False) from None
            finally:
                self.waiting -= 1
            try:
                yield
            finally:
                self.large.release()
        finally:
            state.large = False


def _busy(*, peer_full: bool) -> BodyRefused:
    if peer_full:
        return BodyRefused(
            503, "busy_peer", "too many webhook bodies in flight from this address; retry later"
        )
    return BodyRefused(503, "busy", "too many webhook bodies in flight; redeliver later")


def _too_large() -> BodyRefused:
    return BodyRefused(413, "too_large", f"payload above {MAX_PAYLOAD} bytes")


async def read_signed(
    request: web.Request, admission: BodyAdmission, peer: str, secret: str, signature: str
) -> bytes:
    """The body, once its `sha256=` signature checks out; BodyRefused otherwise."""
    if (request.content_length or 0) > MAX_PAYLOAD:
        raise _too_large()
    limits = admission.limits
    async with admission.slot(peer), AsyncExitStack() as large:
        mac = hmac.new(secret.encode(), digestmod=hashlib.sha256)
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(limits.deadline):
                while True:
                    try:
                        async with asyncio.timeout(limits.chunk_idle):
                            chunk = await request.content.readany()
                    except TimeoutError:
                        raise BodyRefused(
                            408,
                            "stalled_body",
                            f"the body stalled for {limits.chunk_idle:g} s",
                        ) from None
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > MAX_PAYLOAD:
                        raise _too_large()
                    if size > SMALL_BODY and size - len(chunk) <= SMALL_BODY:
                        await large.enter_async_context(admission.large_slot(peer))
                    mac.update(chunk)
                    chunks.append(chunk)
        except TimeoutError:
            raise BodyRefused(
                408, "slow_body", f"the body did not arrive within {limits.deadline:g} s"
            ) from None
    expected = "sha256=" + mac.hexdigest()
    if not hmac.compare_digest(expected.encode(), signature.encode()):
        raise BodyRefused(401, "bad_signature", "X-Hub-Signature-256 does not match the payload")
    return b"".join(chunks)
