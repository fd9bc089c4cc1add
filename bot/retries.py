"""Running a job again, on its own, when it failed because GitHub failed.

GitHub does not redeliver a webhook by itself, so a check that an outage stopped would
otherwise wait for the next push. A job whose handler failed with an error a later attempt
can fix (5xx or timeouts past the client's retries, connection errors, a rate limit longer
than the client waits) is queued again after the next delay of ``JOB_RETRY_DELAYS``; a 404
or an invalid configuration is the same on every attempt and is not retried.

When a retry comes due its pull request is looked at first: a retry for a head the PR has
moved on from, or for a closed PR, is dropped (the newer head has its own job).

- ``LocalRetries`` (the embedded queue): a timer per retry, lost with the process.
- ``RedisRetries`` (`lockin worker`): an arq job deferred in Redis (a sorted set scored by
  its due time), so a retry survives the worker that scheduled it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from bot.github.errors import GitHubError, GitHubUnavailable, NotFound, RateLimited

if TYPE_CHECKING:
    from arq.connections import ArqRedis

    from bot.github.client import GitHub
    from bot.server.jobs import Job

log = logging.getLogger("lockin.retries")

DEFAULT_DELAYS = (60.0, 300.0, 1800.0)


def parse_delays(raw: str) -> tuple[float, ...]:
    """``"60,300,1800"`` -> seconds before the first, second... retry (empty: none)."""
    delays = []
    for part in raw.split(","):
        if not part.strip():
            continue
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"expected comma-separated seconds, got {part.strip()!r}") from None
        if not value >= 0 or value == float("inf"):
            raise ValueError(f"expected non-negative seconds, got {part.strip()!r}")
        delays.append(value)
    return tuple(delays)


def retryable(exc: BaseException) -> bool:
    """GitHub failed in a way that may pass: a later attempt can succeed."""
    if isinstance(exc, NotFound):
        return False
    if isinstance(exc, GitHubUnavailable | RateLimited):
        return True
    return isinstance(exc, GitHubError) and (exc.status is None or exc.status >= 500)


class Retries(Protocol):
    async def schedule(self, job: Job, delay: float) -> None:
        """Run ``job`` (its ``attempt`` already counted up) in ``delay`` seconds."""
        ...

    async def close(self) -> None: ...


class LocalRetries:
    def __init__(self, submit: Callable[[Job], Awaitable[bool]]) -> None:
        self._submit = submit
        self._timers: set[asyncio.Task[None]] = set()

    async def schedule(self, job: Job, delay: float) -> None:
        timer = asyncio.create_task(self._later(job, delay), name=f"lockin-retry-{job.attempt}")
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)

    async def _later(self, job: Job, delay: float) -> None:
        await asyncio.sleep(delay)
        if not await self._submit(job):
            log.error(
                "retry %d could not be queued (queue full or closing)",
                job.attempt,
                extra={"delivery_id": job.delivery_id},
            )

    def pending(self) -> int:
        return len(self._timers)

    async def close(self) -> None:
        for timer in list(self._timers):
            timer.cancel()
        await asyncio.gather(*self._timers, return_exceptions=True)


class RedisRetries:
    def __init__(self, redis: ArqRedis) -> None:
        self._redis = redis

    async def schedule(self, job: Job, delay: float) -> None:
        # Imported here: arq and redis are the `redis` extra.
        from bot.scale.connection import DELIVERY_JOB, job_id

        await self._redis.enqueue_job(
            DELIVERY_JOB,
            job.delivery_id,
            job.event,
            job.payload,
            job.received_at,
            # Sequence 0: a head queued since, even within the same second, wins over it.
            0,
            job.attempt,
            _job_id=f"{job_id(job.delivery_id)}:retry:{job.attempt}",
            _defer_by=delay,
        )

    async def close(self) -> None:
        return None


async def retry_later(
    retries: Retries | None,
    delays: tuple[float, ...],
    job: Job,
    count: Callable[[str], None],
    job_log: logging.LoggerAdapter[Any],
) -> None:
    """Schedule the next attempt of a job that GitHub failed, or give up after the last."""
    if retries is None:
        return
    if job.attempt >= len(delays):
        count("exhausted")
        job_log.error("job failed because GitHub failed; no retry left (%d made)", job.attempt)
        return
    delay = delays[job.attempt]
    try:
        await retries.schedule(replace(job, attempt=job.attempt + 1), delay)
    except Exception:
        job_log.exception("could not schedule retry %d", job.attempt + 1)
        return
    count("scheduled")
    job_log.warning(
        "job failed because GitHub failed; retry %d in %.0f s",
        job.attempt + 1,
        delay,
        extra={"retry": job.attempt + 1, "retry_in_s": delay},
    )


def _pull_request(job: Job) -> tuple[str, int, str] | None:
    """(repository, number, head) a job checks, when it names one pull request."""
    data = job.payload
    repo = (data.get("repository") or {}).get("full_name")
    if job.event == "pull_request":
        pr = data.get("pull_request") or {}
        number, sha = pr.get("number"), (pr.get("head") or {}).get("sha")
    else:
        run = data.get(job.event) if job.event in ("check_suite", "check_run") else None
        prs = (run or {}).get("pull_requests") or []
        if len(prs) != 1:
            return None
        number, sha = prs[0].get("number"), (run or {}).get("head_sha")
    if isinstance(repo, str) and isinstance(number, int) and isinstance(sha, str):
        return repo, number, sha
    return None


async def outdated(gh: GitHub, job: Job) -> str | None:
    """Why a retry is no longer wanted (its PR closed or moved on), else None."""
    target = _pull_request(job)
    if target is None:
        return None
    repo, number, sha = target
    try:
        pr = await gh.getitem(f"/repos/{repo}/pulls/{number}")
    except NotFound:
        return "the pull request is gone"
    except GitHubError:
        return None  # unknown: run it; the check itself fails and retries again
    if pr.get("state") != "open":
        return "the pull request is closed"
    if (pr.get("head") or {}).get("sha") != sha:
        return "the pull request's head moved on"
    return None
