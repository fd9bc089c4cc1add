"""Per-installation pacing: writes spaced as GitHub asks, and rate-limit pauses shared.

GitHub's best practices: about one second between POST/PATCH/PUT/DELETE requests of one
installation (its secondary limit allows 80 content-creating requests a minute), and once a
rate limit is hit, no request until the wait is over (requests made while limited count
towards a ban). Writes go through a token bucket: a sustained rate of one per
`write_interval`, with a small burst so that a PR check's two or three writes (create the run,
complete it, the comment) do not each wait a second. One `Pacer` per installation is shared by
every job.
"""

from __future__ import annotations

import asyncio
import time

from bot.github.errors import RateLimited

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
#: Writes an idle installation may send at once: a PR check's run, its completion, a comment.
WRITE_BURST = 3


class Pacer:
    def __init__(
        self, *, write_interval: float, max_wait: float, write_burst: int = WRITE_BURST
    ) -> None:
        self._write_interval = write_interval
        self._max_wait = max_wait
        self._write_lock = asyncio.Lock()
        self._burst = max(1, write_burst)
        self._tokens = float(self._burst)
        self._refilled_at = time.monotonic()
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
        # Writes of one installation take a token each, one at a time.
        async with self._write_lock:
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) * self._write_interval)
                self._refill()
            self._tokens -= 1

    def _refill(self) -> None:
        now = time.monotonic()
        earned = (now - self._refilled_at) / self._write_interval
        self._tokens = min(float(self._burst), self._tokens + earned)
        self._refilled_at = now
