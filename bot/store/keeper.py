"""The trend store is optional: while it is corrupt, locked or unreachable nothing waits on it.

A `Keeper` stands between the store and its callers. While the database answers, a write
runs at once. When it does not (a corrupt SQLite file, another process holding its write
lock past the busy timeout, PostgreSQL down), the store is *degraded*: the write waits in a
bounded backlog, in order, and a background task retries the backlog every
``retry_seconds`` and at once when the next write arrives; beyond the bound the oldest write
is dropped, with a log line and a count (`lockin_trend_store_writes_dropped_total`). Reads
raise `StoreUnavailable`, which callers turn into "no trend" (the PR check) or a 503 (the
pages). Readiness and the logs say the trend is degraded until the backlog is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from alembic.util import CommandError
from sqlalchemy.exc import (
    DataError,
    DBAPIError,
    IntegrityError,
    NotSupportedError,
    ProgrammingError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

log = logging.getLogger("lockin.store")

T = TypeVar("T")


class StoreUnavailable(Exception):
    """The trend store cannot answer now; the message says why (never a URL or password)."""


def is_unavailable(exc: BaseException) -> bool:
    """A failure of the database rather than of the statement: worth trying again later.
    A statement the database refuses (a constraint, bad data) would fail again: not one."""
    if isinstance(exc, IntegrityError | ProgrammingError | DataError | NotSupportedError):
        return False
    return isinstance(
        exc, DBAPIError | PoolTimeout | OSError | TimeoutError | CommandError | StoreUnavailable
    )


def reason(exc: BaseException) -> str:
    """One line on what went wrong: the driver's first line, without SQLAlchemy's footer."""
    original = getattr(exc, "orig", None) or exc
    first = (str(original).strip().splitlines() or [""])[0]
    return f"{type(original).__name__}: {first}"[:200]


@dataclass(frozen=True, slots=True)
class _Write:
    what: str  # for the log: "record_point octo-org/kernels"
    run: Callable[[], Awaitable[Any]]


class Keeper:
    """Whether the store answers, and the writes waiting until it does."""

    def __init__(
        self,
        *,
        probe: Callable[[], Awaitable[None]],
        ready: bool,
        retry_seconds: float,
        capacity: int,
    ) -> None:
        self._probe = probe  # opens (migrates) the store, or checks that it answers
        self.ready = ready  # the schema is known to be current
        self.problem: str | None = None  # why the trend is degraded; None while it is not
        self.dropped = 0
        self._retry_seconds = retry_seconds
        self._writes: deque[_Write] = deque()
        self._capacity = capacity
        self._nudge = asyncio.Event()
        self._recovery: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        return len(self._writes)

    async def start(self) -> None:
        """Open the store now if it can be; else start degraded and keep trying."""
        try:
            await self._probe()
        except Exception as exc:  # whatever stops it opening must not stop the server
            self.failed(exc)
            return
        self.ready = True

    async def write(self, what: str, run: Callable[[], Awaitable[T]], default: T) -> T:
        """``run()`` now while the store answers and nothing waits before it; else later
        (``default`` is returned now)."""
        if self.ready and not self._writes:
            try:
                return await run()
            except Exception as exc:
                if not is_unavailable(exc):
                    raise
                self.failed(exc)
        self._defer(_Write(what, run))
        return default

    def failed(self, exc: BaseException) -> StoreUnavailable:
        """Note that the store did not answer (and start retrying); the error to raise."""
        problem = reason(exc)
        if self.problem is None:
            log.warning(
                "trend store degraded (%s): PR checks go on without the trend; writes wait "
                "(up to %d) and are retried every %gs",
                problem,
                self._capacity,
                self._retry_seconds,
                extra={"store_problem": problem},
            )
        self.problem = problem
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.create_task(self._recover())
        return StoreUnavailable(problem)

    def _defer(self, write: _Write) -> None:
        if len(self._writes) >= self._capacity:
            lost = self._writes.popleft()
            self.dropped += 1
            log.warning(
                "trend store backlog full (%d writes): dropped %s",
                self._capacity,
                lost.what,
                extra={"store_dropped": self.dropped},
            )
        self._writes.append(write)
        self._nudge.set()
        if self.problem is None:  # not ready yet: the first write starts the retries
            self.failed(StoreUnavailable("the store is not open yet"))

    async def _recover(self) -> None:
        """Retry until the store answers and the backlog is written, in order."""
        while True:
            self._nudge.clear()
            with contextlib.suppress(TimeoutError):  # the timer, or the next write
                await asyncio.wait_for(self._nudge.wait(), self._retry_seconds)
            try:
                await self._probe()
                self.ready = True
                written = await self._flush()
            except Exception as exc:
                if not is_unavailable(exc):
                    log.exception("trend store: cannot be opened")
                self.problem = reason(exc)
                continue
            log.info(
                "trend store recovered: %d waiting writes applied",
                written,
                extra={"store_dropped": self.dropped},
            )
            self.problem = None
            return

    async def _flush(self) -> int:
        written = 0
        while self._writes:
            write = self._writes[0]
            try:
                await write.run()
            except Exception as exc:
                if is_unavailable(exc):
                    raise
                # Refused by the database itself: it would be refused again, forever.
                log.exception("trend store refused %s: dropped", write.what)
                self.dropped += 1
            else:
                written += 1
            self._writes.popleft()
        return written

    async def close(self) -> None:
        if self._recovery is not None:
            self._recovery.cancel()
            await asyncio.gather(self._recovery, return_exceptions=True)
        if self._writes:
            log.warning("trend store closed with %d writes not applied", len(self._writes))
