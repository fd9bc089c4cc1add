"""Run the engine over many files: a census of a directory, the delta of a change.

Large jobs go in chunks to a process pool and to the parent, which takes a chunk itself
whenever the workers have enough queued: workers receive paths (or the two contents of a
changed file) and send back per-file summaries or deltas, never per-line data, so
inter-process traffic stays small. Small jobs run in-process: a pool costs more to start
than a few files cost to classify.

Each file may get a budget of CPU seconds (``file_seconds``; 0 is none), as the App's
engine pool gives it (bot/sources/pool.py): past it the file is abandoned and reported as
not counted (``over_budget``), and the next one goes on. The budget counts CPU time, so a
busy machine does not put a file over it.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, TypeVar

from bot.engine.census import Census, FileSummary
from bot.engine.model import NOT_COUNTED, FileReport
from bot.sources import cpu_budget
from bot.sources.files import UNREADABLE, classify_entry, classify_file, skipped

if TYPE_CHECKING:  # a scan needs neither a change nor git's patches (unidiff)
    from concurrent.futures import Future

    from bot.engine.delta import FileDelta
    from bot.sources.changes import Change

#: Files per task sent to a worker: large enough to amortise IPC, small enough to balance.
CHUNK = 48
#: Paths per task of a directory census while more are to come: a path weighs nothing to
#: send, and each task costs the parent's pool threads about 0.7 ms (48 -> 96 saved 0.03 s
#: of the parent's CPU over the bench corpus, on the cores the workers use). The last paths
#: go in ever smaller tasks, so no worker waits long on another's last one.
PATHS_CHUNK = 96
#: The smallest task the last paths are split into.
LAST_CHUNK = 8
#: Chunks queued per worker before the next is read: keeps the workers busy and bounds
#: what is held in memory while they catch up.
IN_FLIGHT = 4
#: Chunks queued per worker while the parent classifies too: two keep a worker busy through
#: a chunk of the parent's, and leave little to wait for once the last paths are out (at
#: four the parent waited up to 0.09 s on the worker's queue at the end of a census; the
#: parent cannot take back a chunk it handed out).
BESIDE_PARENT = 2
#: Below this many files the pool is not worth starting.
POOL_THRESHOLD = 64

Progress = Callable[[int, int], None]  # (files done, files in total)
T = TypeVar("T")
R = TypeVar("R")


def over_budget(seconds: float) -> str:
    """The skip reason of a file whose CPU-time budget ran out."""
    return f"{NOT_COUNTED}over budget (more than {seconds:g} s of CPU)"


def _budgeted(seconds: float, path: str, work: Callable[[], FileReport]) -> FileReport:
    report = cpu_budget.bounded(seconds, work)
    return skipped(path, over_budget(seconds)) if report is None else report


def _read_and_classify(root: str, path: str) -> FileReport:
    try:
        fd = os.open(os.path.join(root, path), os.O_RDONLY)
    except OSError:
        return skipped(path, UNREADABLE)
    try:
        return classify_file(path, fd)
    except OSError:
        return skipped(path, UNREADABLE)
    finally:
        os.close(fd)


def _summarize(root: str, seconds: float, paths: Sequence[str]) -> list[FileSummary]:
    return [
        FileSummary.of(_budgeted(seconds, path, partial(_read_and_classify, root, path)))
        for path in paths
    ]


def _summarize_contents(
    seconds: float, items: Sequence[tuple[str, bytes | None]]
) -> list[FileSummary]:
    return [
        FileSummary.of(
            _budgeted(seconds, path, partial(classify_entry, path, data))
            if data is not None
            else skipped(path, UNREADABLE)
        )
        for path, data in items
    ]


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """A change with both contents (``None`` where that side does not exist, or where its
    object is absent from the repository: then the change names its blob)."""

    change: Change
    old: bytes | None
    new: bytes | None


def _all_lines(report: FileReport | None) -> list[int]:
    return list(range(1, len(report.line_rules) + 1)) if report else []


def delta_of(
    item: ChangedFile, include_generated: bool = True, markers_allowed: bool = True
) -> FileDelta:
    """The FileDelta of one changed file: both sides classified, git's lines placed."""
    # Late: the delta's module loads unidiff, which a scan (this module's other use) skips.
    from bot.engine.delta import FileDelta, file_delta

    change = item.change
    if (change.old_blob and item.old is None) or (change.new_blob and item.new is None):
        # A version git lists but could not read: the other alone would count a modified
        # file as added or removed, so neither is counted.
        return FileDelta(change.path, change.status, change.old_path, skipped=UNREADABLE)
    old_path = change.old_path or change.path
    old = classify_entry(old_path, item.old) if item.old is not None else None
    new = classify_entry(change.path, item.new) if item.new is not None else None
    # A file that appears or disappears changes every line; git's diff of it says the
    # same, but a side narrowed away by a path filter has no patch lines of its own.
    added = _all_lines(new) if change.status == "added" else list(change.added)
    removed = _all_lines(old) if change.status == "removed" else list(change.removed)
    return file_delta(
        change.path,
        old,
        new,
        added,
        removed,
        status=change.status,
        old_path=change.old_path,
        include_generated=include_generated,
        markers_allowed=markers_allowed,
        texts=_texts(item, old, new),
    )


def _texts(
    item: ChangedFile, old: FileReport | None, new: FileReport | None
) -> tuple[str, str] | None:
    """The versions' texts ("" for one without non-portable lines, or absent), for a file
    with non-portable lines on either side."""
    sides = [
        data.decode("utf-8", "replace") if data is not None and r and r.non_portable_lines else ""
        for data, r in ((item.old, old), (item.new, new))
    ]
    return (sides[0], sides[1]) if any(sides) else None


def _deltas(
    include_generated: bool, markers_allowed: bool, seconds: float, items: Sequence[ChangedFile]
) -> list[FileDelta]:
    from bot.engine.delta import FileDelta  # late, as in delta_of

    out = []
    for item in items:
        delta = cpu_budget.bounded(
            seconds, partial(delta_of, item, include_generated, markers_allowed)
        )
        if delta is None:
            change, why = item.change, over_budget(seconds)
            delta = FileDelta(change.path, change.status, change.old_path, skipped=why)
        out.append(delta)
    return out


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """The objects alive now (modules, the rule registry: what the run needs throughout)
    left out of the cycle collector's passes for a while.

    Summaries pile up as a run goes, and each pass over the oldest generation would
    traverse the registry again; in a forked worker it would also write to every page of
    the parent's heap it traverses, copying them all (about 0.15 s of CPU over the bench
    corpus, two workers). Workers inherit the frozen state with the heap.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def _tapering(items: Iterable[T], size: int, jobs: int) -> Iterator[list[T]]:
    """Chunks of ``size`` items while more come, then of what is left shared out: each chunk
    a ``2 * jobs``-th of the rest, down to LAST_CHUNK. ``2 * jobs`` chunks are read ahead,
    so only for items that are cheap to hold (paths, not contents)."""
    it = iter(items)
    ahead: deque[T] = deque()
    more = True
    while True:
        while more and len(ahead) < 2 * jobs * size:
            batch = list(islice(it, size))
            ahead.extend(batch)
            more = len(batch) == size
        if not ahead:
            return
        n = size if more else min(size, max(LAST_CHUNK, -(-len(ahead) // (2 * jobs))))
        yield [ahead.popleft() for _ in range(min(n, len(ahead)))]


def _run(
    work: Callable[..., list[R]],
    items: Iterable[T],
    size: int,
    prefix: tuple,
    jobs: int,
    progress: Progress | None,
    budgeted: bool = False,
    light: bool = False,
) -> Iterator[R]:
    """Apply ``work(*prefix, chunk)`` to chunks of ``items``, in a pool when it pays off.

    Items are consumed as they come (a directory walk keeps going while the first
    chunks are classified); results come back in input order. ``budgeted``: ``work``
    keeps a CPU-time budget, whose timer's handler only a main thread can install (the
    pool's workers are main threads). ``light``: items cost nothing to hold (paths), so a
    pool's chunks may be read ahead and taper at the end (``_tapering``).
    """
    it = iter(items)
    head = list(islice(it, POOL_THRESHOLD))
    small = jobs <= 1 or len(head) < POOL_THRESHOLD
    chunks = (
        _tapering(chain(head, it), size, jobs)
        if light and not small
        else _chunks(chain(head, it), size)
    )
    seen = done = 0

    def report(part: list[R]) -> list[R]:
        nonlocal done
        done += len(part)
        if progress:
            progress(done, max(seen, done))
        return part

    if small and (not budgeted or cpu_budget.can_install()):
        with cpu_budget.handling() if budgeted else nullcontext(), _frozen_heap():
            for chunk in chunks:
                seen += len(chunk)
                yield from report(work(*prefix, chunk))
        return
    # Late: a job small enough to run here needs no pool, and multiprocessing with
    # concurrent.futures (sockets, pickle, logging, threads) was 8 ms of every start-up.
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    # Forked workers inherit the loaded rule registry; spawned ones would load it again each
    # (a quarter of a second). The CLI forks before starting any thread.
    context = (
        multiprocessing.get_context("fork")
        if "fork" in multiprocessing.get_all_start_methods()
        else None
    )
    initializer = cpu_budget.install if budgeted else None
    # The parent is one of the ``jobs``: between handing chunks out it classifies one itself,
    # rather than wait on the workers. A chunk classified here is neither pickled nor passed
    # through the pool's threads, and one process fewer copies the parent's heap page by
    # page. A budget's timer needs the main thread's signal handler: elsewhere every job is
    # a worker's.
    here = not budgeted or cpu_budget.can_install()
    workers = jobs - 1 if here else jobs
    # Chunks queued for the workers at most: items that carry contents (git blobs) are read
    # no further ahead than the workers can take them.
    depth = (BESIDE_PARENT if here else IN_FLIGHT) * workers
    chunk_iter = iter(chunks)
    with (
        _frozen_heap(),
        cpu_budget.handling() if budgeted and here else nullcontext(),
        ProcessPoolExecutor(workers, mp_context=context, initializer=initializer) as pool,
    ):
        pending: deque[Future[list[R]]] = deque()
        queued: list[Future[list[R]]] = []

        def hand_out() -> bool:
            """Chunks handed to the workers until ``depth`` are queued; False once none is
            left to hand out."""
            nonlocal seen, queued
            queued = [future for future in queued if not future.done()]
            while len(queued) < depth:
                chunk = next(chunk_iter, None)
                if chunk is None:
                    return False
                seen += len(chunk)
                queued.append(pool.submit(work, *prefix, chunk))
                pending.append(queued[-1])
            return True

        while hand_out():
            if not here:
                yield from report(pending.popleft().result())
            elif (own := next(chunk_iter, None)) is not None:
                # The parent's chunk, in pieces: between them the workers' queue is topped
                # up, so that a slow file here leaves no worker idle.
                seen += len(own)
                mine: Future[list[R]] = Future()
                pending.append(mine)
                results: list[R] = []
                for piece in _chunks(own, LAST_CHUNK):
                    results += work(*prefix, piece)
                    hand_out()
                mine.set_result(results)
            while pending and pending[0].done():
                yield from report(pending.popleft().result())
        while pending:
            yield from report(pending.popleft().result())


def scan_paths(
    root: str,
    paths: Iterable[str],
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    include_generated: bool = True,
    markers_allowed: bool = True,
    file_seconds: float = 0,
) -> Census:
    """Classify ``paths`` (relative to ``root``) and aggregate them into a Census; each
    file within ``file_seconds`` of CPU time (0: no budget)."""
    jobs = jobs or os.cpu_count() or 1
    prefix = (root, file_seconds)
    summaries = _run(
        _summarize, paths, PATHS_CHUNK, prefix, jobs, progress, file_seconds > 0, light=True
    )
    return Census(summaries, include_generated=include_generated, markers_allowed=markers_allowed)


def summarize_contents(
    items: Iterable[tuple[str, bytes | None]],
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    file_seconds: float = 0,
) -> Iterator[FileSummary]:
    """The summary of each (path, content) in order; ``None`` content is "unreadable"."""
    jobs = jobs or os.cpu_count() or 1
    prefix = (file_seconds,)
    return _run(_summarize_contents, items, CHUNK, prefix, jobs, progress, file_seconds > 0)


def change_deltas(
    items: Iterable[ChangedFile],
    *,
    jobs: int | None = None,
    include_generated: bool = True,
    markers_allowed: bool = True,
    file_seconds: float = 0,
) -> list[FileDelta]:
    """The FileDelta of every changed file, in a pool for large changes; each file within
    ``file_seconds`` of CPU time (0: no budget)."""
    jobs = jobs or os.cpu_count() or 1
    prefix = (include_generated, markers_allowed, file_seconds)
    return list(_run(_deltas, items, CHUNK // 4, prefix, jobs, None, file_seconds > 0))
