"""`lockin worker`: run the jobs that `lockin serve` processes queue in Redis.

Each worker runs up to `WORKERS` jobs at a time through the same dispatch as the embedded
queue (bot.runtime.dispatch.run_job), with the per-PR lock, caches and installation tokens
shared through Redis, so any number of workers on any number of hosts cooperate.

- A job for a pull-request head that a newer queued head superseded is dropped
  (bot.scale.heads).
- A worker that dies mid-job leaves the job in the queue; arq runs it again on another
  worker once the dead worker's claim expires (`JOB_TIMEOUT` + 15 s). The handlers are
  idempotent when retried: a check run of ours on the head is reused or found completed,
  the sticky comment is found by its marker.
- A job still running after `JOB_TIMEOUT` seconds is stopped (by run_job, the deadline's one
  owner; arq's own limit, a few seconds later, only backs it up) and its delivery
  forgotten, so that redelivering it from GitHub runs it again.
- SIGTERM stops taking jobs and lets running ones finish for `SHUTDOWN_TIMEOUT` seconds;
  jobs still running then are cancelled and go back to the queue.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Mapping
from typing import Any

import aiohttp
from arq.worker import Worker, func
from redis.exceptions import RedisError

from bot.features import ROUTER
from bot.features.recovery import close_superseded
from bot.runtime.dispatch import next_retry, run_job
from bot.runtime.github_auth import auth_options
from bot.runtime.jobs import Job, JobOutcome
from bot.runtime.logs import REDACTOR, configure_logging
from bot.runtime.services import Services
from bot.runtime.settings import Settings, SettingsError
from bot.runtime.shutdown import within
from bot.runtime.sweep import sweep_open_runs
from bot.scale.backend import RedisBackend
from bot.scale.connection import DELIVERY_JOB, QUEUE_NAME, dump_job, load_job
from bot.scale.heads import pull_head
from bot.scale.queue import enqueue_retry

log = logging.getLogger("lockin.worker")

#: Runs of one job (the first and the retries after a worker died in it): a job that kills
#: its worker every time stops after this many.
MAX_TRIES = 3
#: Seconds a Redis command waits for a lost Redis (restarting, failing over) to come back.
REDIS_PATIENCE = 30.0
_CLEANUP = 5.0
_SERVICES = "lockin_services"
_BACKEND = "lockin_backend"
_SWEEP = "lockin_sweep"


def main(environ: Mapping[str, str] | None = None) -> int:
    environ = os.environ if environ is None else environ
    try:
        settings = Settings.from_env(environ)
    except SettingsError as exc:
        print(f"lockin: {exc}", file=sys.stderr)
        return 2
    if not settings.redis_url:
        print("lockin: REDIS_URL: required by `lockin worker` (the job queue)", file=sys.stderr)
        return 2
    if not settings.configured:
        print(
            "lockin: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET: required by `lockin worker`",
            file=sys.stderr,
        )
        return 2
    configure_logging(settings.log_level, settings.log_format)
    REDACTOR.add_static(settings.private_key)
    REDACTOR.add_static(settings.webhook_secret)
    try:
        backend = RedisBackend(settings, patience=REDIS_PATIENCE)
    except ValueError as exc:
        print(f"lockin: REDIS_URL: {exc}", file=sys.stderr)
        return 2
    asyncio.run(_work(settings, backend, settings.job_timeout))
    return 0


async def _work(settings: Settings, backend: RedisBackend, job_timeout: float) -> None:
    worker = Worker(
        functions=[func(run_delivery, name=DELIVERY_JOB, max_tries=MAX_TRIES)],
        queue_name=QUEUE_NAME,
        redis_pool=backend.redis,
        job_serializer=dump_job,
        job_deserializer=load_job,
        max_jobs=settings.workers,
        # arq's own limit only backs up run_job's, which cleans up after itself.
        job_timeout=job_timeout + _CLEANUP,
        # Results are not kept: a finished job leaves nothing behind but its effects.
        keep_result=0,
        poll_delay=0.1,
        job_completion_wait=int(settings.shutdown_timeout),
        health_check_interval=10,
        on_startup=_start,
        on_shutdown=_stop,
        ctx={_BACKEND: backend, "settings": settings},
    )
    try:
        while True:
            try:
                await worker.async_run()
                return
            except asyncio.CancelledError:
                return  # arq cancels its main task on SIGTERM/SIGINT
            except RedisError as exc:
                # Redis failed arq's polling (restarting, failing over). Jobs in flight go
                # on; polling resumes when it is back, so an outage never ends the worker.
                log.error("lost Redis: %s; polling again in %.0f s", exc, REDIS_PATIENCE / 10)
                await asyncio.sleep(REDIS_PATIENCE / 10)
    finally:
        await worker.close()


async def _start(ctx: dict[str, Any]) -> None:
    if _SERVICES in ctx:
        return  # polling resumed after a Redis outage: already started
    settings: Settings = ctx["settings"]
    backend: RedisBackend = ctx[_BACKEND]
    session = aiohttp.ClientSession()
    services = Services(settings=settings, router=ROUTER)
    # One check of a PR, one count of a commit at a time across every worker.
    services.share(
        backend.caches(), pr_locks=backend.locks("pr"), census_locks=backend.locks("census")
    )
    services.auth = backend.auth(settings, session, **auth_options(settings, services.metrics))
    await services.open_store()
    # Workers sweep too (one process a tick, by lease), so runs are finished with no web up.
    queue = backend.job_queue(capacity=settings.queue_size)
    await queue.start()
    sweep = sweep_open_runs(
        services.caches.open_runs,
        queue,
        interval=settings.stale_run_sweep_interval,
        job_timeout=settings.job_timeout,
    )
    ctx[_SWEEP] = (queue, asyncio.create_task(sweep))
    ctx[_SERVICES] = services
    ctx["session"] = session
    log.info("worker ready: up to %d jobs at a time", settings.workers)


async def _stop(ctx: dict[str, Any]) -> None:
    if _SWEEP in ctx:
        queue, sweep = ctx.pop(_SWEEP)
        sweep.cancel()
        await queue.close()
    if "session" in ctx:
        await ctx["session"].close()
    if _SERVICES in ctx:
        ctx[_SERVICES].engine.close()
    if _SERVICES in ctx and ctx[_SERVICES].store is not None:
        await within("closing the trend store", ctx[_SERVICES].store.close())


async def run_delivery(
    ctx: dict[str, Any],
    delivery_id: str,
    event: str,
    payload: dict[str, Any],
    received_at: float,
    seq: int,
    attempt: int = 0,
) -> str:
    """One queued delivery: dropped if its PR head was superseded, else dispatched."""
    services: Services = ctx[_SERVICES]
    backend: RedisBackend = ctx[_BACKEND]
    fields = {
        "delivery_id": delivery_id,
        "event": event,
        "try": ctx["job_try"],
        "attempt": attempt,
    }
    log.info("job started (try %d)", ctx["job_try"], extra=fields)
    head = pull_head(event, payload)
    if head is not None:
        try:
            newer = await backend.heads.superseded(head, seq)
        except RedisError:
            newer = None  # unknown: run it (the check looks at the PR's current head anyway)
        if newer is not None:
            services.metrics.jobs.labels(event, "superseded").observe(0)
            log.info(
                "job dropped: %s has a newer head queued",
                head.pr,
                extra={**fields, "head_sha": head.sha, "newer_sha": newer},
            )
            # An earlier try (its worker killed) may have started a run on this head.
            await close_superseded(services, payload, newer)
            return "superseded"
    job = Job(delivery_id, event, payload, received_at, attempt)
    outcome = await run_job(services, job)  # the job's deadline is run_job's
    if outcome is JobOutcome.TIMEOUT:
        return outcome
    delay = next_retry(services, job, outcome)
    if delay is not None:
        try:
            await enqueue_retry(ctx["redis"], job.retried(), seq, delay)
        except RedisError as exc:
            log.error("could not queue the retry: %s", exc, extra=fields)
        return "retry"
    return "done"
