"""The job caches and the delivery log in Redis (bot.runtime.caches' protocols).

Caches are an optimisation: when Redis fails a read is a miss and a write is skipped, so a
job goes on (fetching from GitHub) instead of failing. The delivery log is not: its errors
decide the HTTP answer (see `claim`).
"""

from __future__ import annotations

import inspect
import json
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.runtime.open_runs import OpenRun
from bot.scale.codec import SignedPickle
from bot.scale.connection import QUEUE_NAME, job_id

log = logging.getLogger("lockin.scale")
T = TypeVar("T")


class RedisCache:
    """`get`/`put` by key with a TTL; values above `max_value_bytes` are not stored."""

    def __init__(
        self, redis: Redis, namespace: str, *, codec: SignedPickle, ttl: float, max_value_bytes: int
    ) -> None:
        self._redis = redis
        self._namespace = namespace
        self._codec = codec
        self._ttl_ms = int(ttl * 1000)
        self._max = max_value_bytes

    async def get(self, key: str) -> Any | None:
        name = self._namespace + key
        try:
            raw = await self._redis.get(name)
        except RedisError as exc:
            log.warning("cache %s: read failed (%s); counted as a miss", self._namespace, exc)
            return None
        return None if raw is None else self._codec.loads(raw, name=name)

    async def put(self, key: str, value: Any) -> None:
        name = self._namespace + key
        try:
            if value is None:
                await self._redis.delete(name)
                return
            data = self._codec.dumps(value, name=name)
            if len(data) <= self._max:
                await self._redis.set(name, data, px=self._ttl_ms)
        except RedisError as exc:
            log.warning("cache %s: write failed (%s); not cached", self._namespace, exc)


class RedisDeliveryLog:
    """Which deliveries were accepted, shared by every web replica (SET NX with a TTL).

    A claim is `pending` for a short while (longer than GitHub waits for an answer) and
    becomes `queued` for GitHub's whole redelivery window once the job is in the queue
    (`confirm`). A pending mark whose job is not in the queue does not make a delivery a
    duplicate: its claimer may have lost Redis between the claim and the enqueue (it then
    answered 503) without being able to release it, and a redelivery must be queued. Two
    replicas that both get past the claim queue one job: the job id is the delivery's.
    """

    def __init__(
        self, redis: Redis, namespace: str, *, ttl: float, pending_ttl: float = 15.0
    ) -> None:
        self._redis = redis
        self._namespace = namespace
        self._ttl_ms = int(ttl * 1000)
        self._pending_ms = int(pending_ttl * 1000)

    async def claim(self, delivery_id: str) -> bool:
        name = self._namespace + delivery_id
        try:
            if await self._redis.set(name, b"pending", nx=True, px=self._pending_ms):
                return True
            if await self._redis.get(name) == b"queued":
                return False
            return await self._redis.zscore(QUEUE_NAME, job_id(delivery_id)) is None
        except RedisError as exc:
            # Unknown, not a duplicate: the enqueue that follows fails the same way and the
            # delivery is answered 503, which GitHub records for redelivery.
            log.warning("delivery log unreachable (%s)", exc, extra={"delivery_id": delivery_id})
            return True

    async def confirm(self, delivery_id: str) -> None:
        """The job is queued: remember the delivery for the whole redelivery window."""
        await self._redis.set(self._namespace + delivery_id, b"queued", px=self._ttl_ms)

    async def release(self, delivery_id: str) -> None:
        try:
            await self._redis.delete(self._namespace + delivery_id)
        except RedisError as exc:
            # The pending mark expires by itself, and does not block a redelivery meanwhile.
            log.warning("could not release delivery %s: %s", delivery_id, exc)


class RedisOpenRuns:
    """Our runs in progress, in one Redis hash every process shares (field: repo/run id),
    and the lease that lets one process sweep per interval. Redis failing loses a record at
    worst: the next delivery for the head runs the check, which completes the run."""

    def __init__(self, redis: Redis, namespace: str) -> None:
        self._redis = redis
        self._hash = namespace + "runs"
        self._lease = namespace + "sweep"

    async def add(self, run: OpenRun) -> None:
        try:
            await _awaited(self._redis.hset(self._hash, run.key, json.dumps(run.to_dict())))
        except RedisError as exc:
            log.warning("open runs: could not record run %s (%s)", run.run_id, exc)

    async def remove(self, repo: str, run_id: int) -> None:
        try:
            await _awaited(self._redis.hdel(self._hash, f"{repo}/{run_id}"))
        except RedisError as exc:
            log.warning("open runs: could not forget run %s (%s)", run_id, exc)

    async def older_than(self, seconds: float) -> list[OpenRun]:
        try:
            raw: dict[bytes, bytes] = await _awaited(self._redis.hgetall(self._hash))
        except RedisError as exc:
            log.warning("open runs: could not read the runs in progress (%s)", exc)
            return []
        before = time.time() - seconds
        runs = []
        for field, value in raw.items():
            try:
                run = OpenRun.from_dict(json.loads(value))
            except (ValueError, KeyError, TypeError):
                await _awaited(self._redis.hdel(self._hash, field.decode(errors="replace")))
                continue
            if run.opened_at < before:
                runs.append(run)
        return runs

    async def claim_sweep(self, interval: float) -> bool:
        try:
            lease_ms = max(1, int(interval * 1000 * 0.9))  # free again by the next tick
            return bool(await self._redis.set(self._lease, b"1", nx=True, px=lease_ms))
        except RedisError as exc:
            log.warning("open runs: could not take the sweep lease (%s)", exc)
            return False


def _awaited(result: Awaitable[T] | T) -> Awaitable[T]:
    """redis-py types its hash commands for both its clients; ours is the asyncio one."""
    assert inspect.isawaitable(result)
    return result
