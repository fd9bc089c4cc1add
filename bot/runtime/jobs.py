"""The job queue: accepted deliveries wait here for a worker.

`JobQueue` is the interface the webhook endpoint uses; `LocalJobQueue` is the embedded
default (a bounded asyncio queue and a pool of worker tasks). A Redis-backed queue can take
its place: jobs are plain data, and the worker function is given at construction.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

log = logging.getLogger("lockin.jobs")


class JobOutcome(StrEnum):
    """How a job ended, from best to worst: a job's outcome is the worst of its handlers'.

    The values are the `outcome` label of the job metrics and log lines."""

    OK = "ok"
    GONE = "gone"  # the repository or PR is no longer there: a redelivery would find the same
    ERROR = "error"
    #: An error where every failure was GitHub failing: lockin queues the job again.
    RETRY = "retry"
    TIMEOUT = "timeout"  # JOB_TIMEOUT ran out

    def worst(self, other: JobOutcome) -> JobOutcome:
        order = list(JobOutcome)
        return max(self, other, key=order.index)


@dataclass(frozen=True)
class Job:
    delivery_id: str
    event: str
    payload: dict[str, Any]
    received_at: float = field(default_factory=time.time)
    # 0 for the delivery itself, n for lockin's own n-th retry of it.
    attempt: int = 0

    def retried(self) -> Job:
        return replace(self, attempt=self.attempt + 1)


Worker = Callable[[Job], Awaitable[object]]


class JobQueue(Protocol):
    capacity: int

    async def start(self) -> None: ...

    async def submit(self, job: Job) -> bool:
        """Queue a job; False when the queue is full, unreachable or closing (answer 503)."""
        ...

    async def retry_later(self, job: Job, delay: float) -> bool:
        """Run `job` again in `delay` seconds; False when it could not be scheduled."""
        ...

    def depth(self) -> int: ...

    def ready(self) -> bool:
        """Workers running and room for another job."""
        ...

    async def close(self) -> None:
        """Stop accepting, finish queued and running jobs (bounded), stop the workers."""
        ...


class LocalJobQueue:
    def __init__(
        self, work: Worker, *, workers: int, capacity: int, shutdown_timeout: float
    ) -> None:
        self.capacity = capacity
        self._work = work
        self._worker_count = workers
        self._shutdown_timeout = shutdown_timeout
        self._queue: asyncio.Queue[Job] = asyncio.Queue(maxsize=capacity)
        self._workers: list[asyncio.Task[None]] = []
        self._running: dict[asyncio.Task[None], Job] = {}
        self._retries: dict[asyncio.TimerHandle, Job] = {}
        self._accepting = False

    async def start(self) -> None:
        self._accepting = True
        self._workers = [
            asyncio.create_task(self._worker(), name=f"lockin-worker-{n}")
            for n in range(self._worker_count)
        ]

    async def submit(self, job: Job) -> bool:
        return self._accepting and self._submit_now(job)

    def _submit_now(self, job: Job) -> bool:
        try:
            self._queue.put_nowait(job)
        except asyncio.QueueFull:
            return False
        return True

    async def retry_later(self, job: Job, delay: float) -> bool:
        if not self._accepting:
            return False
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle | None = None

        def due() -> None:
            assert handle is not None
            del self._retries[handle]
            if not (self._accepting and self._submit_now(job)):
                log.error(
                    "retry of a job lost: the queue is full or closing",
                    extra={"delivery_id": job.delivery_id, "attempt": job.attempt},
                )

        handle = loop.call_later(delay, due)
        self._retries[handle] = job
        return True

    def pending_retries(self) -> int:
        return len(self._retries)

    def depth(self) -> int:
        return self._queue.qsize()

    def ready(self) -> bool:
        alive = any(not task.done() for task in self._workers)
        return self._accepting and alive and not self._queue.full()

    async def join(self) -> None:
        """Wait until every job submitted so far is done."""
        await self._queue.join()

    async def close(self) -> None:
        self._accepting = False
        if self._retries:
            # In-process retries live in memory; the Redis mode keeps them across restarts.
            log.error(
                "shutdown: %d scheduled retr(ies) dropped; redeliver them from the App's "
                "advanced settings, or run lockin with REDIS_URL to keep them",
                len(self._retries),
                extra={"lost_deliveries": [job.delivery_id for job in self._retries.values()]},
            )
            for handle in self._retries:
                handle.cancel()
            self._retries.clear()
        try:
            await asyncio.wait_for(self.join(), self._shutdown_timeout)
        except TimeoutError:
            lost = [job.delivery_id for job in self._running.values()]
            while not self._queue.empty():
                lost.append(self._queue.get_nowait().delivery_id)
                self._queue.task_done()
            log.error(
                "shutdown timeout: %d job(s) not finished; redeliver them from the App's "
                "advanced settings",
                len(lost),
                extra={"lost_deliveries": lost},
            )
        for task in self._workers:
            task.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)

    async def _worker(self) -> None:
        me = asyncio.current_task()
        assert me is not None
        while True:
            job = await self._queue.get()
            self._running[me] = job
            try:
                await self._work(job)
            except Exception:
                # The worker function handles its own errors; this keeps the pool alive.
                log.exception("job crashed", extra={"delivery_id": job.delivery_id})
            finally:
                del self._running[me]
                self._queue.task_done()
