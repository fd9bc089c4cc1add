"""Per-PR serialisation: one check of a pull request runs at a time.

Two deliveries for the same PR (two quick pushes, a redelivery, a recount) would otherwise
race on the check run and the sticky comment. The interface is a keyed async context
manager so a Redis lock can replace the in-process one when workers run on several hosts.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.github.refs import PullRef


class KeyedLock(Protocol):
    def hold(self, key: str) -> AbstractAsyncContextManager[None]: ...


class LocalKeyedLock:
    """asyncio locks by key, dropped when nobody holds or waits for them."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._locks[key]


def pr_key(pull: PullRef) -> str:
    return str(pull).lower()  # GitHub names are case-insensitive
