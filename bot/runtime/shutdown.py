"""Bounded shutdown steps, shared by the server and `lockin worker`: a store or a Redis that
stopped answering must not keep the process (or a deploy's rollout) from ending."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger("lockin.shutdown")

#: Seconds one step of the shutdown after the jobs may take before the process goes on.
SHUTDOWN_STEP = 10.0


async def within(what: str, step: Awaitable[object]) -> None:
    """One step of the shutdown, waited for at most SHUTDOWN_STEP (logged when it runs out
    or fails; the shutdown goes on either way)."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=SHUTDOWN_STEP)
    if not done:
        log.error("shutdown: %s did not finish in %gs; going on without it", what, SHUTDOWN_STEP)
        task.cancel()
    elif not task.cancelled() and task.exception() is not None:
        log.error("shutdown: %s failed: %s", what, task.exception())
