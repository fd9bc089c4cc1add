"""The engine in other processes, with a CPU-time budget per file and per job.

Classifying a file is pure CPU under the interpreter lock: run in a thread of the web
process, a slow file holds back every other request, health checks included, for as long
as it takes. The pool runs the engine in separate processes instead (``forkserver``: the
parent has threads and an event loop, which ``fork`` would copy half-held), and bounds what
one hostile file can cost:

- each file gets ``file_seconds`` of CPU time, enforced inside the worker by a profiling
  timer (``ITIMER_PROF`` counts CPU time, so a loaded machine does not shorten it); past it
  the file is abandoned, reported as not counted, and the worker goes on with the next one;
- a job (one PR check, one census) gets ``job_seconds`` of CPU time in all; once spent, the
  files it still has are not counted either;
- a worker stuck in C code the timer cannot interrupt is killed by the kernel once the
  file has taken ``grace_seconds`` of CPU time past its budget (``RLIMIT_CPU``: CPU time
  again, so a loaded machine, which slows the work down, never makes it look stuck);
- a worker that dies, or that has not answered ``hang_seconds`` of wall time after it was
  handed the batch (hung without using CPU: only a generous bound against a hang, since
  every slow file ends by the CPU budgets), is replaced with the whole pool and the batch
  is tried once more; a batch that fails twice is not counted.

Files travel in batches so that inter-process traffic stays a small share of the work.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures import wait as wait_for
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Generic, TypeVar

from bot.engine.census import FileSummary
from bot.engine.model import NOT_COUNTED, FileReport
from bot.engine.summary import SharedCounts, summarize_report
from bot.sources import cpu_budget
from bot.sources.files import classify_entry, skipped

log = logging.getLogger("lockin.pool")

T = TypeVar("T")
#: Files per batch, and the bytes above which a batch is sent before it is full.
BATCH_FILES = 32
BATCH_BYTES = 4 * 1024 * 1024

Item = tuple[str, bytes]  # (path, contents)
#: Seconds between looks at whether the executor has handed a waiting batch to its workers.
HANDED_POLL = 0.1


@dataclass(frozen=True, slots=True)
class Budget:
    """CPU seconds one file and one job may take, the CPU seconds past a file's budget
    after which its worker is presumed stuck in C code and killed, and the wall-clock
    seconds a worker may hold a batch before it is presumed hung."""

    file_seconds: float = cpu_budget.DEFAULT_FILE_SECONDS
    job_seconds: float = 600.0
    grace_seconds: float = 10.0
    hang_seconds: float = 600.0

    def over_file(self) -> str:
        return f"{NOT_COUNTED}took longer than {self.file_seconds:g} s"

    def over_job(self) -> str:
        return f"{NOT_COUNTED}the check took longer than {self.job_seconds:g} s in all"


# --- in the worker -----------------------------------------------------------------------


def _start_worker() -> None:
    cpu_budget.install()
    # Past RLIMIT_CPU the kernel's SIGXCPU ends the worker (no core file): see _timed.
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # A stray SIGINT meant for the parent's terminal must not kill the pool's workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _timed(
    work: Callable[[str, bytes], T], items: Sequence[Item], seconds: float, grace: float
) -> list:
    """``work`` on each item, each within ``seconds`` of CPU time: ``(result, cpu)`` pairs,
    ``result`` None for an item over its budget. An item still running ``grace`` CPU
    seconds past it (in C code, where the timer's exception cannot be raised) gets the
    worker killed by the kernel."""
    out: list[tuple[T | None, float]] = []
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    for path, data in items:
        # RLIMIT_CPU counts the process's whole CPU time, in whole seconds.
        limit = math.ceil(time.process_time() + seconds + grace)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))
        out.append(cpu_budget.within(seconds, partial(work, path, data)))
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    return out


def report_of(path: str, data: bytes) -> FileReport:
    return classify_entry(path, data)


def census_summary_of(path: str, data: bytes) -> FileSummary:
    return summarize_report(classify_entry(path, data))


# --- in the parent -----------------------------------------------------------------------


class EnginePool:
    """Worker processes shared by every job of one app (created lazily, on first use)."""

    def __init__(self, processes: int, budget: Budget) -> None:
        self.processes = max(1, processes)
        self.budget = budget
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        self.replaced = 0  # pools replaced after a worker died or hung

    def job(self) -> EngineJob:
        """A job's account: its files share ``budget.job_seconds``."""
        return EngineJob(self)

    def pids(self) -> list[int]:
        """The worker processes running now (tests kill one to show it is replaced)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            _stop(executor)

    def submit(self, work: Callable[[str, bytes], T], items: Sequence[Item]) -> _Pending:
        with self._lock:
            if self._closed:
                raise RuntimeError("the engine pool is closed")
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                # Loaded once in the fork server, so each worker starts with the rules parsed.
                context.set_forkserver_preload(["bot.sources.pool"])
                self._executor = ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_start_worker
                )
            executor = self._executor
            budget = self.budget
            future = executor.submit(_timed, work, items, budget.file_seconds, budget.grace_seconds)
        return _Pending(work, items, executor, future)

    def collect(self, pending: _Pending) -> list:
        """``(result | None, cpu)`` per item of a submitted batch, blocking; a batch whose
        worker died or hung is tried once more, then given up (every result None)."""
        for attempt in (1, 2):
            try:
                return self._answer(pending.future)
            # Cancelled: another job's batch replaced the pool while this one waited in it.
            except (BrokenProcessPool, FutureTimeout, CancelledError):
                self._replace(pending.executor)
                log.warning(
                    "engine pool: a batch of %d files failed (attempt %d)",
                    len(pending.items),
                    attempt,
                )
            if attempt == 1:
                pending = self.submit(pending.work, pending.items)
        return [(None, 0.0)] * len(pending.items)

    def _answer(self, future: Future) -> list:
        """The batch's results; the hang bound counts from when the executor hands the batch
        to its workers, not while it waits behind other jobs' batches in the shared pool."""
        while not future.running() and not wait_for([future], timeout=HANDED_POLL).done:
            pass
        return future.result(timeout=self.budget.hang_seconds)

    def _replace(self, executor: ProcessPoolExecutor) -> None:
        """Start afresh after a worker died or hung (unless another job already did)."""
        with self._lock:
            if self._executor is not executor:
                return
            self._executor = None
            self.replaced += 1
        log.warning("engine pool: a worker died or stopped answering; starting new workers")
        _stop(executor)


@dataclass(frozen=True, slots=True)
class _Pending(Generic[T]):
    work: Callable[[str, bytes], T]
    items: Sequence[Item]
    executor: ProcessPoolExecutor
    future: Future


def _stop(executor: ProcessPoolExecutor) -> None:
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:  # a hung worker never reads the shutdown sentinel
        if process.is_alive():
            process.kill()


class Engine:
    """Runs the engine over files for one job; the results in input order, a file that was
    not counted as the reason why (a string)."""

    def map_blocking(self, work: Callable[[str, bytes], T], items: Sequence[Item]) -> list[T | str]:
        raise NotImplementedError

    async def map(self, work: Callable[[str, bytes], T], items: Sequence[Item]) -> list[T | str]:
        """The same from the event loop, which stays free meanwhile."""
        return await asyncio.to_thread(self.map_blocking, work, items)

    async def reports(self, items: Sequence[Item]) -> list[FileReport]:
        return await asyncio.to_thread(self.reports_blocking, items)

    def reports_blocking(self, items: Sequence[Item]) -> list[FileReport]:
        """The engine's report on each file (blocking: for archive walks' threads)."""
        results = self.map_blocking(report_of, items)
        return [_report(path, r) for (path, _), r in zip(items, results, strict=True)]

    def census_summaries(self, items: Sequence[Item], shared: SharedCounts) -> list[FileSummary]:
        """What a census keeps of each file (blocking: for archive walks' threads)."""
        results = self.map_blocking(census_summary_of, items)
        return [
            shared.summary(summarize_report(skipped(path, r)) if isinstance(r, str) else r)
            for (path, _), r in zip(items, results, strict=True)
        ]

    @property
    def batch(self) -> tuple[int, int]:
        """Files and bytes worth gathering before calling ``map_blocking``."""
        return BATCH_FILES, BATCH_BYTES


class InProcess(Engine):
    """The engine in the calling thread, without budgets: the CLI, which owns its machine."""

    def map_blocking(self, work: Callable[[str, bytes], T], items: Sequence[Item]) -> list[T | str]:
        return [work(path, data) for path, data in items]


class EngineJob(Engine):
    """One job's use of the pool, its CPU time accounted against ``job_seconds``."""

    def __init__(self, pool: EnginePool) -> None:
        self.pool = pool
        self.spent = 0.0  # CPU seconds its files took in the workers

    @property
    def budget(self) -> Budget:
        return self.pool.budget

    @property
    def batch(self) -> tuple[int, int]:
        # Enough for every worker to take a batch.
        return BATCH_FILES * self.pool.processes, BATCH_BYTES * self.pool.processes

    def map_blocking(self, work: Callable[[str, bytes], T], items: Sequence[Item]) -> list[T | str]:
        """As many batches are in flight as the pool has workers."""
        out: list[T | str] = []
        pending: deque[_Pending[T]] = deque()

        def collect_oldest() -> None:
            for result, cpu in self.pool.collect(pending.popleft()):
                self.spent += cpu
                out.append(self.budget.over_file() if result is None else result)

        for batch in _batches(items):
            while pending and (len(pending) >= self.pool.processes or pending[0].future.done()):
                collect_oldest()
            if self.spent >= self.budget.job_seconds:
                while pending:
                    collect_oldest()
                out.extend(self.budget.over_job() for _ in batch)
            else:
                pending.append(self.pool.submit(work, batch))
        while pending:
            collect_oldest()
        return out


class Batcher:
    """Files arriving one at a time (an archive walk) handed on ``engine.batch`` at a time;
    ``close`` hands on the rest."""

    def __init__(self, engine: Engine, take: Callable[[list[Item]], None]) -> None:
        self._files, self._bytes = engine.batch
        self._take = take
        self._items: list[Item] = []
        self._size = 0

    def add(self, path: str, data: bytes) -> None:
        self._items.append((path, data))
        self._size += len(data)
        if len(self._items) >= self._files or self._size >= self._bytes:
            self.close()

    def close(self) -> None:
        items, self._items, self._size = self._items, [], 0
        if items:
            self._take(items)


IN_PROCESS = InProcess()


def _report(path: str, result: FileReport | str) -> FileReport:
    return skipped(path, result) if isinstance(result, str) else result


def _batches(items: Sequence[Item]) -> list[Sequence[Item]]:
    batches: list[Sequence[Item]] = []
    start = size = 0
    for index, (_, data) in enumerate(items):
        size += len(data)
        if index + 1 - start >= BATCH_FILES or size >= BATCH_BYTES:
            batches.append(items[start : index + 1])
            start, size = index + 1, 0
    if start < len(items):
        batches.append(items[start:])
    return batches


def default_processes() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
