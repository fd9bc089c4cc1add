"""A CPU-time budget for one piece of work, enforced by a profiling timer.

``ITIMER_PROF`` counts the process's CPU time, not wall time, so a loaded machine does not
make work "over budget": only the work's own computation does. When the budget runs out,
the timer's signal raises :class:`OverBudget` in the main thread, wherever the work is,
and the caller goes on with its next item. Both the App's engine pool
(bot/sources/pool.py) and the command line's runs of the engine
(bot/sources/engine_runner.py) use it; the signal handler must be installed in the
process's main thread first (:func:`install`, or :func:`handling` for a while).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
#: CPU seconds a file may take, by default, in the App and on the command line: hundreds of
#: times what a real source file takes, a small share of what a hostile one can.
DEFAULT_FILE_SECONDS = 5.0


class OverBudget(BaseException):
    """Raised by the profiling timer; a BaseException so that no ``except Exception`` in the
    engine swallows it."""


_armed = False


def _on_timer(signum: int, frame: object) -> None:
    if _armed:
        raise OverBudget


def install() -> None:
    """Route the profiling timer's signal to the budget (a worker process's initializer)."""
    signal.signal(signal.SIGPROF, _on_timer)


def can_install() -> bool:
    """Whether this thread may install the handler: only the main thread may."""
    return threading.current_thread() is threading.main_thread()


@contextmanager
def handling() -> Iterator[None]:
    """The budget's handler installed for a while (in the main thread), the previous one
    restored after."""
    previous = signal.signal(signal.SIGPROF, _on_timer)
    try:
        yield
    finally:
        signal.signal(signal.SIGPROF, previous)


def bounded(seconds: float, work: Callable[[], T]) -> T | None:
    """``work()`` within ``seconds`` of CPU time: its result, None when it ran over.
    ``seconds`` 0 is no budget."""
    global _armed
    try:
        try:
            _armed = seconds > 0
            if _armed:
                signal.setitimer(signal.ITIMER_PROF, seconds)
            return work()
        finally:
            _armed = False
            signal.setitimer(signal.ITIMER_PROF, 0)
    except OverBudget:
        return None


def within(seconds: float, work: Callable[[], T]) -> tuple[T | None, float]:
    """:func:`bounded`, and the CPU seconds the work took (two reads of the process's CPU
    clock, a system call each: callers that need no figure call ``bounded``)."""
    start = time.process_time()
    result = bounded(seconds, work)
    return result, time.process_time() - start
