"""The web side of the Redis job queue (bot.runtime.jobs.JobQueue on arq).

`submit` returns True, and the delivery is answered 202, only once arq has written the job
to Redis; any Redis error before that answers 503, which GitHub records as a failed
delivery that can be redelivered. The arq job id is derived from the delivery id, so
submitting a delivery again while its job waits queues nothing new. `lockin worker`
processes (bot.worker) run the jobs.

Like the embedded queue it has a capacity: past `capacity` waiting jobs it answers 503
rather than let Redis fill up. Depth and health are sampled in the background because the
probes and metrics that read them are synchronous.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from arq.connections import ArqRedis
from arq.jobs import Job as ArqJob
from redis.exceptions import RedisError

from bot.runtime.jobs import Job
from bot.scale.caches import RedisDeliveryLog
from bot.scale.connection import DELIVERY_JOB, QUEUE_NAME, job_id
from bot.scale.heads import NewestHeads, pull_head

log = logging.getLogger("lockin.scale")

_SAMPLE_EVERY = 1.0


class RedisJobQueue:
    def __init__(
        self,
        redis: ArqRedis,
        *,
        deliveries: RedisDeliveryLog,
        heads: NewestHeads,
        capacity: int,
    ) -> None:
        self.capacity = capacity
        self._redis = redis
        self._deliveries = deliveries
        self._heads = heads
        self._depth = 0
        self._healthy = False
        self._accepting = False
        self._sampler: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._accepting = True
        self._sampler = asyncio.create_task(self._sample(), name="lockin-queue-sampler")

    async def submit(self, job: Job) -> bool:
        if not self._accepting or self._depth >= self.capacity:
            return False
        head = pull_head(job.event, job.payload)
        try:
            seq = await self._heads.sequence()
            queued = await _enqueue(self._redis, job, seq, job_id(job.delivery_id))
            # arq answers None both when a job with this id is already waiting (queued: fine)
            # and when a lost connection cut its transaction (maybe not queued): ask the queue.
            if (
                queued is None
                and await self._redis.zscore(QUEUE_NAME, job_id(job.delivery_id)) is None
            ):
                raise RedisError("the enqueue transaction was interrupted")
        except RedisError as exc:
            self._healthy = False
            log.error(
                "could not queue the job (%s); answering 503",
                exc,
                extra={"delivery_id": job.delivery_id},
            )
            return False
        self._depth += 1
        try:
            await self._deliveries.confirm(job.delivery_id)
            if head is not None:
                await self._heads.record(head, seq)
        except RedisError as exc:
            # The job is queued, which is what the 202 promises; without these records a
            # redelivery may queue it again and an older head may still run (both harmless).
            log.warning(
                "job queued, but its records were not written: %s",
                exc,
                extra={"delivery_id": job.delivery_id},
            )
        return True

    async def retry_later(self, job: Job, delay: float) -> bool:
        try:
            seq = await self._heads.sequence()
            await enqueue_retry(self._redis, job, seq, delay)
        except RedisError as exc:
            log.error("could not queue a retry: %s", exc, extra={"delivery_id": job.delivery_id})
            return False
        return True

    def depth(self) -> int:
        return self._depth

    def ready(self) -> bool:
        return self._accepting and self._healthy and self._depth < self.capacity

    async def close(self) -> None:
        """Stop accepting. Queued jobs stay in Redis for the workers: nothing to drain here."""
        self._accepting = False
        if self._sampler is not None:
            self._sampler.cancel()
            with suppress(asyncio.CancelledError):
                await self._sampler

    async def _sample(self) -> None:
        while True:
            try:
                self._depth = int(await self._redis.zcard(QUEUE_NAME))
                self._healthy = True
            except RedisError as exc:
                if self._healthy:
                    log.error("Redis unreachable: %s", exc)
                self._healthy = False
            await asyncio.sleep(_SAMPLE_EVERY)


async def enqueue_retry(redis: ArqRedis, job: Job, seq: int, delay: float) -> None:
    """Queue retry `job.attempt` of a delivery, deferred by `delay` seconds. It lives in Redis
    like any queued job, so it survives the worker and web processes restarting; its id
    names the attempt, so a retry is queued once however often this is called for it."""
    await _enqueue(redis, job, seq, f"{job_id(job.delivery_id)}:retry:{job.attempt}", delay)


async def _enqueue(
    redis: ArqRedis, job: Job, seq: int, arq_id: str, defer_by: float | None = None
) -> ArqJob | None:
    # The arguments of bot.worker.run_delivery, in order.
    return await redis.enqueue_job(
        DELIVERY_JOB,
        job.delivery_id,
        job.event,
        job.payload,
        job.received_at,
        seq,
        job.attempt,
        _job_id=arq_id,
        _defer_by=defer_by,
    )
