"""Caches shared by jobs, behind small async interfaces so that Redis can replace them.

The in-memory versions are bounded (entries or bytes) and expire by TTL. Their methods are
coroutines although they never wait, because the Redis versions will.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cachetools import TTLCache

from bot.runtime.open_runs import MemoryOpenRuns, OpenRuns


class Cache(Protocol):
    async def get(self, key: str) -> Any | None: ...

    async def put(self, key: str, value: Any) -> None: ...


class MemoryCache:
    """LRU within a size bound and a TTL. With `sizeof`, `maxsize` is in those units (bytes)."""

    def __init__(
        self, *, maxsize: int, ttl: float, sizeof: Callable[[Any], int] | None = None
    ) -> None:
        self._data: TTLCache[str, Any] = TTLCache(maxsize=maxsize, ttl=ttl, getsizeof=sizeof)

    async def get(self, key: str) -> Any | None:
        return self._data.get(key)

    async def put(self, key: str, value: Any) -> None:
        try:
            self._data[key] = value
        except ValueError:
            # A single value larger than the whole bound is not cached.
            self._data.pop(key, None)

    def __len__(self) -> int:
        return len(self._data)


class DeliveryLog(Protocol):
    """Which deliveries were accepted: a redelivered `X-GitHub-Delivery` is processed once."""

    async def claim(self, delivery_id: str) -> bool:
        """True for the first claim of an id within the TTL, False for a duplicate."""
        ...

    async def release(self, delivery_id: str) -> None:
        """Forget a claim, so that a redelivery is processed (the job was not done)."""
        ...


class MemoryDeliveryLog:
    def __init__(self, *, maxsize: int, ttl: float) -> None:
        self._seen: TTLCache[str, bool] = TTLCache(maxsize=maxsize, ttl=ttl)

    async def claim(self, delivery_id: str) -> bool:
        if delivery_id in self._seen:
            return False
        self._seen[delivery_id] = True
        return True

    async def release(self, delivery_id: str) -> None:
        self._seen.pop(delivery_id, None)


def _blob_size(value: Any) -> int:
    return len(value) if isinstance(value, bytes | str) else 1024


#: How long a sign-in lasts (bot.server.access).
SESSION_SECONDS = 8 * 3600.0

# GitHub lets an App owner redeliver deliveries of the last three days.
REDELIVERY_WINDOW = 3 * 24 * 3600.0


@dataclass
class Caches:
    """What jobs share. `blobs`: file contents by git blob SHA (immutable, so a long TTL);
    `census`: repository census results by commit SHA; `ended_sessions`: signed-out
    browser sessions."""

    blobs: Cache = field(
        default_factory=lambda: MemoryCache(maxsize=64 * 2**20, ttl=6 * 3600, sizeof=_blob_size)
    )
    census: Cache = field(default_factory=lambda: MemoryCache(maxsize=256, ttl=24 * 3600))
    deliveries: DeliveryLog = field(
        default_factory=lambda: MemoryDeliveryLog(maxsize=200_000, ttl=REDELIVERY_WINDOW)
    )
    # Signed-in browser sessions ended by signing out (by session id), for as long as a
    # session cookie could still be presented: every replica refuses them.
    ended_sessions: Cache = field(
        default_factory=lambda: MemoryCache(maxsize=100_000, ttl=SESSION_SECONDS)
    )
    # Check runs of ours in progress (bot.runtime.open_runs): none is left open for good.
    open_runs: OpenRuns = field(default_factory=MemoryOpenRuns)
