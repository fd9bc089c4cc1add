"""Cleanup that a cancellation cannot cut short."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


async def finish_shielded(cleanup: Coroutine[Any, Any, None]) -> None:
    """Run ``cleanup`` to its end even when the calling task is cancelled meanwhile (the
    job's deadline, a shutdown, both): the cleanup goes on in a task of its own, and the
    cancellation is raised here once it finished."""
    task = asyncio.ensure_future(cleanup)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done() and task.cancelled():
                raise  # the cleanup itself was cancelled from inside: nothing to wait for
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()
