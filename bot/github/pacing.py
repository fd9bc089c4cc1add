"""Per-installation pacing: writes spaced as GitHub asks, and rate-limit pauses shared.

GitHub's best practices: at least one second between POST/PATCH/PUT/DELETE requests of one
installation, and once a rate limit is hit, no request until the wait is over (requests made
while limited count towards a ban). One `Pacer` per installation is shared by every job.
"""

from __future__ import annotations

import asyncio
import time

from bot.github.errors import RateLimited

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


class Pacer:
    def __init__(self, *, write_interval: float, max_wait: float) -> None:
        self._write_interval = write_interval
        self._max_wait = max_wait
        self._write_lock = asyncio.Lock()
        self._next_write = 0.0
        self._paused_until = 0.0

    def pause(self, seconds: float) -> None:
        """Hold every request of this installation for `seconds` from now."""
        self._paused_until = max(self._paused_until, time.monotonic() + seconds)

    async def before(self, method: str) -> None:
        """Wait until this request may go out."""
        pause = self._paused_until - time.monotonic()
        if pause > self._max_wait:
            raise RateLimited(
                f"rate limited for {pause:.0f}s more, above MAX_RATE_LIMIT_WAIT", wait=pause
            )
        if pause > 0:
            await asyncio.sleep(pause)
        if method not in WRITE_METHODS or self._write_interval <= 0:
            return
        # Writes of one installation go out one at a time, spaced start to start.
        async with self._write_lock:
            delay = self._next_write - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self._next_write = time.monotonic() + self._write_interval
