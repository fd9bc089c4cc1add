"""A keyed lock shared by every process through Redis (bot.runtime.locks.KeyedLock).

The lock is a key holding its owner's token, set with NX and a lease (PX). The token is a
fencing number, increasing per key (later owners have larger ones; the logs say who held
it), and a random part. The owner renews the lease while it holds the lock (a long analysis
keeps it); renewal and release are compare-and-act scripts that touch the key only while it
still holds the owner's token, so an owner whose lease ran out never frees or extends the
lock of the one that took it next. A process killed while
holding the lock stops renewing, and the lease frees the lock for the others.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("lockin.scale")

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisKeyedLock:
    def __init__(
        self, redis: Redis, namespace: str, *, lease: float = 30.0, max_poll: float = 0.5
    ) -> None:
        self._redis = redis
        self._namespace = namespace
        self._lease_ms = int(lease * 1000)
        self._max_poll = max_poll
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        name = self._namespace + key
        token = await self._acquire(name)
        keeper = asyncio.create_task(self._keep(name, token))
        try:
            yield
        finally:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
            try:
                await self._release(keys=[name], args=[token])
            except RedisError as exc:
                log.warning("lock %s not released (%s); its lease frees it", key, exc)

    async def _acquire(self, name: str) -> str:
        """Wait for the lock; a Redis error (Redis restarting) is waited out like a holder."""
        token, delay = None, 0.02
        while True:
            try:
                if token is None:
                    token = f"{await self._fence(name)}:{uuid.uuid4().hex}"
                if await self._redis.set(name, token, nx=True, px=self._lease_ms):
                    return token
            except RedisError as exc:
                log.warning("lock %s: Redis error while acquiring (%s); retrying", name, exc)
            # Jitter keeps waiting processes from polling in step.
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, self._max_poll)

    async def _fence(self, name: str) -> int:
        """The next fencing number of a lock; the counter lapses a day after its last use,
        so a PR that is never checked again leaves nothing behind."""
        async with self._redis.pipeline(transaction=True) as pipe:
            # Queued one by one: redis types a queued command's result as possibly awaitable.
            pipe.incr(name + ":fence")
            pipe.expire(name + ":fence", 86400)
            number, _ = await pipe.execute()
        return int(number)

    async def _keep(self, name: str, token: str) -> None:
        while True:
            await asyncio.sleep(self._lease_ms / 3000)
            try:
                kept = await self._renew(keys=[name], args=[token, self._lease_ms])
            except RedisError as exc:
                log.warning("lock %s: lease not renewed (%s)", name, exc)
                continue
            if not kept:
                log.error("lock %s was lost (its lease expired); another owner may hold it", name)
                return
