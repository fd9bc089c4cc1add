"""Background work of one app that must not eat its GitHub API budget: the back-fills.

Every request a back-fill makes waits its turn in a pacer of its installation, so however
many repositories an installation adds, the back-fills use at most ``per_minute`` of its
budget; one back-fill per repository runs at a time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


class RequestPacer:
    """At most ``per_minute`` requests a minute: each caller waits for its own slot."""

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._interval = 60.0 / per_minute
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0

    async def turn(self) -> None:
        now = self._clock()
        slot = max(now, self._next)
        self._next = slot + self._interval  # taken before sleeping: callers queue in order
        if slot > now:
            await self._sleep(slot - now)


class BackfillSlots:
    """The back-fills of one app: one pacer per installation, one run per repository."""

    def __init__(self, per_minute: int) -> None:
        self._per_minute = per_minute
        self._pacers: dict[int, RequestPacer] = {}
        self._running: set[str] = set()

    def pacer(self, installation_id: int) -> RequestPacer:
        pacer = self._pacers.get(installation_id)
        if pacer is None:
            pacer = self._pacers[installation_id] = RequestPacer(self._per_minute)
        return pacer

    def claim(self, repository: str) -> bool:
        """Take the repository's slot; False while a back-fill of it runs."""
        name = repository.lower()
        if name in self._running:
            return False
        self._running.add(name)
        return True

    def release(self, repository: str) -> None:
        self._running.discard(repository.lower())
