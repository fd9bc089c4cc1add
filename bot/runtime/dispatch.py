"""Running one job: the event goes to every handler the router has for it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from gidgethub import sansio

from bot.github.client import GitHub
from bot.github.errors import NotFound
from bot.runtime.context import JobContext, JobLog
from bot.runtime.jobs import Job
from bot.runtime.services import Services

log = logging.getLogger("lockin.job")


async def run_job(services: Services, job: Job) -> str:
    """Handlers run one after another; one failing does not stop the others. The whole job
    runs under `JOB_TIMEOUT`. A job that failed or ran out of time releases its delivery id,
    so that redelivering it from GitHub runs it again. Returns the outcome: ok, gone, error
    or timeout."""
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
    # The one deadline of a job, in both modes: every handler of the delivery runs under it.
    try:
        async with asyncio.timeout(services.settings.job_timeout):
            for handler in services.router.fetch(event):
                outcome = _worse(outcome, await _run_handler(handler, event, gh, ctx))
    except TimeoutError:  # only the deadline's: _run_handler ends the handlers' own
        outcome = "timeout"
        job_log.error(
            "job stopped after JOB_TIMEOUT (%.0f s)",
            services.settings.job_timeout,
            extra={"outcome": outcome},
        )
    seconds = time.monotonic() - started
    services.metrics.jobs.labels(job.event, outcome).observe(seconds)
    if outcome in ("error", "timeout"):
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
    return outcome


_SEVERITY = ("ok", "gone", "error")


def _worse(outcome: str, other: str) -> str:
    return max(outcome, other, key=_SEVERITY.index)


async def _run_handler(
    handler: Callable[..., Awaitable[None]],
    event: sansio.Event,
    gh: GitHub,
    ctx: JobContext,
) -> str:
    """One handler's outcome: ok, gone or error."""
    try:
        await handler(event, gh, ctx)
    except NotFound as exc:
        # The repository, pull request or installation is gone or no longer shared
        # with the App (removed, deleted, made private since the delivery): nothing to
        # do, and a redelivery would find the same.
        ctx.log.warning("handler %s: %s", handler.__qualname__, exc)
        return "gone"
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # this job is being stopped (its deadline, a shutdown)
        # The handler awaited something another task cancelled: it failed; without
        # this the CancelledError would end the worker that ran it.
        ctx.log.exception("handler %s failed: cancelled from inside", handler.__qualname__)
        return "error"
    except Exception:
        ctx.log.exception("handler %s failed", handler.__qualname__)
        return "error"
    return "ok"
