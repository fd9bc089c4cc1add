"""The timed sweep of check runs left in progress (bot.runtime.open_runs), in every mode
and every process: each tick, the one process holding the sweep lease queues a job for
every run recorded longer ago than any job can take, and the job finishes it
(bot.features.recovery): checked again on the pull request's current head (the merge
group's commit while the queue holds it), or completed as `cancelled` when a newer head
replaced its own (the queue removed or rebuilt the group)."""

from __future__ import annotations

import asyncio
import logging

from bot.runtime.jobs import Job, JobQueue
from bot.runtime.open_runs import OPEN_RUN_EVENT, OpenRuns

#: Beyond JOB_TIMEOUT, at most: a job stopped at its deadline completes its run in a
#: cleanup of a few requests, and a killed worker's job is handed to another once its claim
#: expires (JOB_TIMEOUT + 15 s with arq), which may finish the run itself.
ABANDONED_MARGIN = 30.0


def abandoned_after(job_timeout: float) -> float:
    """Seconds after which a run still recorded open has no job working on it."""
    return job_timeout + min(ABANDONED_MARGIN, job_timeout)


log = logging.getLogger("lockin.sweep")


async def sweep_open_runs(
    runs: OpenRuns, queue: JobQueue, *, interval: float, job_timeout: float
) -> None:
    """Every `interval` seconds, until cancelled."""
    while True:
        await asyncio.sleep(interval)
        try:
            await _sweep(runs, queue, interval, job_timeout)
        except Exception:  # a failed tick (Redis away) must not end the sweeps to come
            log.exception("sweep: could not look for runs left in progress")


async def _sweep(runs: OpenRuns, queue: JobQueue, interval: float, job_timeout: float) -> None:
    if await runs.claim_sweep(interval):
        for run in await runs.older_than(abandoned_after(job_timeout)):
            job = Job(
                f"open-run:{run.key}:{run.opened_at:.0f}",
                OPEN_RUN_EVENT,
                {"installation": {"id": run.installation}, "open_run": run.to_dict()},
            )
            if not await queue.submit(job):
                log.warning("sweep: the queue refused the job for run %s", run.run_id)
                break
            log.info(
                "sweep: check run %s on %s left in progress; finishing it",
                run.run_id,
                run.where,
                extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
            )
