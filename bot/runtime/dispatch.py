"""Running one job: the event goes to every handler the router has for it."""

from __future__ import annotations

import asyncio
import logging
import time

from gidgethub import sansio

from bot.github.errors import NotFound
from bot.runtime.context import JobContext, JobLog
from bot.runtime.jobs import Job
from bot.runtime.services import Services

log = logging.getLogger("lockin.job")


async def run_job(services: Services, job: Job) -> None:
    """Handlers run one after another; one failing does not stop the others. A job that
    failed releases its delivery id, so that redelivering it from GitHub runs it again."""
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
    )
    started = time.monotonic()
    outcome = "ok"
    for handler in services.router.fetch(event):
        deadline = asyncio.timeout(services.settings.job_timeout)
        try:
            async with deadline:
                await handler(event, gh, ctx)
        except NotFound as exc:
            # The repository, pull request or installation is gone or no longer shared
            # with the App (removed, deleted, made private since the delivery): nothing to
            # do, and a redelivery would find the same.
            outcome = "gone" if outcome == "ok" else outcome
            job_log.warning("handler %s: %s", handler.__qualname__, exc)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this job is being stopped (shutdown)
            # The handler awaited something another task cancelled: it failed; without
            # this the CancelledError would end the worker that ran it.
            outcome = "error"
            job_log.exception("handler %s failed: cancelled from inside", handler.__qualname__)
        except Exception as exc:
            outcome = "error"
            if isinstance(exc, TimeoutError) and deadline.expired():
                job_log.error(
                    "handler %s cancelled: it ran longer than JOB_TIMEOUT (%.0fs)",
                    handler.__qualname__,
                    services.settings.job_timeout,
                )
            else:
                job_log.exception("handler %s failed", handler.__qualname__)
    seconds = time.monotonic() - started
    services.metrics.jobs.labels(job.event, outcome).observe(seconds)
    if outcome == "error":
        await services.caches.deliveries.release(job.delivery_id)
    job_log.log(
        {"ok": logging.INFO, "gone": logging.WARNING}.get(outcome, logging.ERROR),
        "job %s",
        outcome,
        extra={
            "outcome": outcome,
            "ms": round(seconds * 1000, 1),
            "queued_ms": round((time.time() - job.received_at) * 1000 - seconds * 1000, 1),
            "github_requests": gh.requests_made,
        },
    )
