"""Running one job: the event goes to every handler the router has for it."""

from __future__ import annotations

import asyncio
import logging
import time

from gidgethub import sansio

from bot.github.errors import NotFound
from bot.runtime.context import JobContext, JobLog
from bot.runtime.jobs import Job, JobOutcome
from bot.runtime.retries import retry_delay, transient
from bot.runtime.services import Services

log = logging.getLogger("lockin.job")


async def run_job(services: Services, job: Job) -> JobOutcome:
    """Handlers run one after another; one failing does not stop the others; all of them
    together within `JOB_TIMEOUT`. A job that failed or ran out of time releases its
    delivery id, so that redelivering it from GitHub runs it again.

    The outcome is the worst of the handlers' (`JobOutcome`); an error is `RETRY` when every
    failure was GitHub failing (see `bot.runtime.retries`): the caller queues the job again
    (`schedule_retry`)."""
    assert services.auth is not None
    event = sansio.Event(job.payload, event=job.event, delivery_id=job.delivery_id)
    installation_id = (job.payload.get("installation") or {}).get("id")
    fields = {
        "delivery_id": job.delivery_id,
        "event": job.event,
        "action": job.payload.get("action"),
        "installation_id": installation_id,
    }
    job_log = JobLog(log, fields)
    # The endpoint queues only deliveries that name their installation.
    assert installation_id is not None
    gh = services.auth.installation_client(installation_id, delivery_id=job.delivery_id)
    ctx = JobContext(
        delivery_id=job.delivery_id,
        event=job.event,
        settings=services.settings,
        auth=services.auth,
        log=job_log,
        caches=services.caches,
        metrics=services.metrics,
        pr_locks=services.pr_locks,
        census=services.census,
        recounts=services.recounts,
        store=services.store,
        attempt=job.attempt,
        installation_id=installation_id,
        engine=services.engine.job(),
        backfills=services.backfills,
    )
    started = time.monotonic()
    outcome = JobOutcome.OK
    transient_only = True  # every failure so far was GitHub failing
    running = ""
    # The one deadline of a job, in both modes: a handler's own cleanup (completing its
    # check run as failed) runs shielded from it (bot.review.run).
    deadline = asyncio.timeout(services.settings.job_timeout)
    try:
        async with deadline:
            for handler in services.router.fetch(event):
                running = handler.__qualname__
                try:
                    await handler(event, gh, ctx)
                except NotFound as exc:
                    # The repository, pull request or installation is gone or no longer
                    # shared with the App (removed, deleted, made private since the
                    # delivery): nothing to do, and a redelivery would find the same.
                    outcome = outcome.worst(JobOutcome.GONE)
                    job_log.warning("handler %s: %s", running, exc)
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if task is not None and task.cancelling():
                        raise  # this job is being stopped (its deadline, or shutdown)
                    # The handler awaited something another task cancelled: it failed;
                    # without this the CancelledError would end the worker that ran it.
                    outcome = outcome.worst(JobOutcome.ERROR)
                    transient_only = False
                    job_log.exception("handler %s failed: cancelled from inside", running)
                except Exception as exc:
                    outcome = outcome.worst(JobOutcome.ERROR)
                    transient_only = transient_only and transient(exc)
                    job_log.exception("handler %s failed", running)
    except (TimeoutError, asyncio.CancelledError) as exc:
        if not deadline.expired():
            raise
        if isinstance(exc, asyncio.CancelledError):
            # Stopped again while a handler's shielded cleanup (completing its check run)
            # outlasted the deadline: arq's own limit, a few seconds later, or a shutdown.
            # The cleanup goes on in its own task; this job is still one that ran out of
            # time, so it is logged and its delivery forgotten like one, and it ends here.
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        outcome = JobOutcome.TIMEOUT
        transient_only = False
        job_log.error(
            "job stopped after JOB_TIMEOUT (%.0f s): handler %s was still running",
            services.settings.job_timeout,
            running,
        )
    seconds = time.monotonic() - started
    services.metrics.jobs.labels(job.event, outcome).observe(seconds)
    if outcome in (JobOutcome.ERROR, JobOutcome.TIMEOUT):
        # Forgotten, so that redelivering it from GitHub runs it again.
        await services.caches.deliveries.release(job.delivery_id)
    job_log.log(
        {JobOutcome.OK: logging.INFO, JobOutcome.GONE: logging.WARNING}.get(outcome, logging.ERROR),
        "job %s",
        outcome,
        extra={
            "outcome": outcome,
            "ms": round(seconds * 1000, 1),
            "queued_ms": round((time.time() - job.received_at) * 1000 - seconds * 1000, 1),
            "github_requests": gh.requests_made,
            "attempt": job.attempt,
        },
    )
    return JobOutcome.RETRY if outcome is JobOutcome.ERROR and transient_only else outcome


def next_retry(services: Services, job: Job, outcome: JobOutcome) -> float | None:
    """Seconds until `job` runs again, or None: logged and counted either way."""
    if outcome is not JobOutcome.RETRY:
        return None
    fields = {"delivery_id": job.delivery_id, "event": job.event, "attempt": job.attempt}
    delay = retry_delay(services.settings.job_retry_delays, job.attempt)
    if delay is None:
        services.metrics.job_retries.labels(job.event, "exhausted").inc()
        log.error("job failed because GitHub failed; no retries left", extra=fields)
        return None
    services.metrics.job_retries.labels(job.event, "scheduled").inc()
    log.warning(
        "job failed because GitHub failed; retry %d in %.0f s",
        job.attempt + 1,
        delay,
        extra={**fields, "retry_in_s": delay},
    )
    return delay


async def run_and_retry(services: Services, job: Job) -> None:
    """The embedded queue's worker function: a job GitHub made fail is queued again."""
    outcome = await run_job(services, job)
    delay = next_retry(services, job, outcome)
    queue = services.queue
    if (
        delay is not None
        and queue is not None
        and not await queue.retry_later(job.retried(), delay)
    ):
        log.error(
            "retry of a job not scheduled: the queue is closing",
            extra={"delivery_id": job.delivery_id},
        )
