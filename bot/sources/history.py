"""Census of git revisions without a checkout, and of a first-parent history.

``revision_census`` counts one commit's tree. ``walk_history`` counts the first point
of a window that way, then follows the first-parent chain one commit at a time: each
commit's changes against its first parent come from one ``git log --raw`` process, only
the blobs it changes are read (one long-lived ``git cat-file --batch``) and classified,
and a classified (path, blob) is kept in a bounded LRU cache so that a file reverted or
moved back and forth is classified once. The census is updated file by file
(``Census.replace``), so each point equals a census of its tree built from scratch,
including the repository-level shim pass, which ``Census`` recomputes when read.

Memory is bounded by the current tree (one ``FileSummary`` per file, at most
``max_files``), the summary cache (``CACHE_ENTRIES`` entries), one block of commits'
change lists (``BLOCK`` commits) and the blob contents of the pool chunks in flight
(``IN_FLIGHT`` per worker, ``CHUNK`` files each, no file above ``MAX_FILE_BYTES``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from cachetools import LRUCache

from bot.engine.census import Census, FileSummary
from bot.engine.paths import PathFilter
from bot.engine.trend import (
    History,
    census_figures,
    commit_entry,
    non_portable_change,
    top_movers,
)
from bot.sources import SourceError
from bot.sources.analysis import Progress, summarize_contents
from bot.sources.changes import Change
from bot.sources.files import MAX_FILE_BYTES
from bot.sources.git import BlobStream, Commit, GitRepo

#: Classified (path, blob) pairs kept; a FileSummary is a few hundred bytes, so the cache
#: stays within some tens of megabytes whatever the history's length.
CACHE_ENTRIES = 100_000
#: Commits whose changes are gathered before their new blobs are classified together
#: (one process pool per block): their change lists are what a block holds.
BLOCK = 1024
#: Files of one tree above which a point is not counted (reported as a gap).
MAX_TREE_FILES = 300_000
#: Commits named per point as what moved it, and over the whole window.
MOVERS_PER_POINT = 3
MOVERS = 10

Key = tuple[str, str]  # (path, blob): a file's classification depends on both


@dataclass(slots=True)
class HistoryWindow:
    """Which commits of the first-parent chain become points."""

    since: int | None = None  # seconds since the epoch, inclusive
    until: int | None = None
    every: str = "month"  # "day" | "week" | "month" | "N-commits"
    points: int | None = None  # keep only the last N points


class Summaries:
    """Classifies (path, blob) pairs in batches, remembering the results (bounded)."""

    def __init__(self, blobs: BlobStream, *, jobs: int, entries: int = CACHE_ENTRIES) -> None:
        self._blobs = blobs
        self._jobs = jobs
        self._cache: LRUCache[Key, FileSummary] = LRUCache(maxsize=entries)
        self.classified = 0

    def get(self, keys: Iterable[Key], progress: Progress | None = None) -> dict[Key, FileSummary]:
        """The summaries of ``keys``; the ones not seen before are classified now."""
        found: dict[Key, FileSummary] = {}
        missing: list[Key] = []
        for key in dict.fromkeys(keys):
            summary = self._cache.get(key)
            if summary is None:
                missing.append(key)
            else:
                found[key] = summary
        summaries = summarize_contents(self._contents(missing), jobs=self._jobs, progress=progress)
        for key, summary in zip(missing, summaries, strict=True):
            self._cache[key] = found[key] = summary
        self.classified += len(missing)
        return found

    def _contents(self, keys: Sequence[Key]) -> Iterator[tuple[str, bytes | None]]:
        for path, blob in keys:
            yield path, self._blobs.read(blob)


def _included(changes: Iterable[Change], path_filter: PathFilter) -> list[Change]:
    return [c for c in changes if path_filter.includes(c.path)]


@dataclass(frozen=True, slots=True)
class Counting:
    """What is counted in every tree, and how: the same for all points of a history."""

    path_filter: PathFilter
    include_generated: bool = True
    jobs: int = 1
    max_files: int = MAX_TREE_FILES


def _full_census(
    repo: GitRepo,
    commit: str,
    summaries: Summaries,
    counting: Counting,
    progress: Progress | None,
) -> Census:
    entries = [e for e in repo.list_files(commit) if counting.path_filter.includes(e.path)]
    if len(entries) > counting.max_files:
        raise SourceError(
            f"tree of {commit[:12]} has {len(entries):,} files, "
            f"above the limit of {counting.max_files:,}"
        )
    found = summaries.get(((e.path, e.blob) for e in entries), progress)
    return Census(
        (found[(e.path, e.blob)] for e in entries), include_generated=counting.include_generated
    )


def revision_census(
    repo: GitRepo, commit: str, counting: Counting, *, progress: Progress | None = None
) -> Census:
    """The census of a commit's tree, read from the object store."""
    with repo.blob_stream(MAX_FILE_BYTES) as blobs:
        return _full_census(repo, commit, Summaries(blobs, jobs=counting.jobs), counting, progress)


def _period(time: int, every: str) -> tuple[int, ...]:
    day = dt.datetime.fromtimestamp(time, dt.UTC).date()
    if every == "day":
        return (day.toordinal(),)
    if every == "week":
        return day.isocalendar()[:2]
    return (day.year, day.month)


def commits_per_point(every: str) -> int | None:
    """N for ``every="N-commits"``, ``None`` for a calendar period."""
    if every in ("day", "week", "month"):
        return None
    number = every.removesuffix("-commits").removesuffix("-commit")
    if not number.isdigit() or int(number) < 1:
        raise SourceError(f"--every must be day, week, month or N-commits, not {every!r}")
    return int(number)


def choose_points(chain: Sequence[Commit], window: HistoryWindow) -> list[int]:
    """Indexes into ``chain`` (oldest first) of the commits that become points: the first
    commit of the window, then the last one of each period (or every Nth one counted
    back from the tip), the tip always included."""
    inside = [
        i
        for i, c in enumerate(chain)
        if (window.since is None or c.time >= window.since)
        and (window.until is None or c.time <= window.until)
    ]
    if not inside:
        return []
    first, last = inside[0], inside[-1]
    step = commits_per_point(window.every)
    if step is not None:
        chosen = {first, *range(last, first, -step)}
    else:
        chosen = {first, last}
        for i in range(first, last):
            if _period(chain[i].time, window.every) != _period(chain[i + 1].time, window.every):
                chosen.add(i)
    points = sorted(chosen)
    return points[-window.points :] if window.points else points


@dataclass(slots=True)
class _Walk:
    """The running state of a walk between points."""

    census: Census
    max_files: int
    moves: list[dict[str, Any]] = field(default_factory=list)  # since the last point
    all_moves: list[dict[str, Any]] = field(default_factory=list)
    entered: list[dict[str, Any]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)  # ecosystems present so far

    def point(self, commit: Commit) -> dict[str, Any]:
        entry = commit_entry(commit.id, commit.time, commit.subject)
        del entry["subject"]
        if len(self.census) > self.max_files:
            figures: dict[str, Any] = {"gap": "tree-too-large"}
        else:
            figures = {"gap": None, **census_figures(self.census)}
        point = {**entry, **figures, "moved_by": top_movers(self.moves, MOVERS_PER_POINT)}
        self.all_moves += self.moves
        self.moves = []
        return point

    def note_ecosystems(self, commit: Commit, at_start: bool = False) -> None:
        """Record the ecosystems that have lines for the first time; ``at_start`` marks
        those found at the first point of a window that does not begin the history."""
        for ecosystem in self.census.totals.ecosystems:
            if ecosystem not in self.seen:
                self.seen.add(ecosystem)
                entry = commit_entry(commit.id, commit.time, commit.subject)
                self.entered.append({"ecosystem": ecosystem, **entry, "at_start": at_start})

    def apply(
        self, commit: Commit, changes: Sequence[Change], found: dict[Key, FileSummary]
    ) -> None:
        census = self.census
        added = removed = 0
        for change in changes:
            old = census.get(change.path)
            new = None
            if change.status != "removed" and change.new_blob:
                new = found[(change.path, change.new_blob)]
            counted = census.include_generated or not (
                (old is not None and old.generated) or (new is not None and new.generated)
            )
            moved = non_portable_change(old, new, counted)
            added, removed = added + max(moved, 0), removed + max(-moved, 0)
            census.replace(change.path, new)
        if added or removed:
            entry = commit_entry(commit.id, commit.time, commit.subject)
            self.moves.append({**entry, "added": added, "removed": removed})


def _blocks(
    changes: Iterator[tuple[str, list[Change]]], size: int
) -> Iterator[list[tuple[str, list[Change]]]]:
    while block := list(islice(changes, size)):
        yield block


def walk_history(
    repo: GitRepo,
    head: str,
    window: HistoryWindow,
    counting: Counting,
    *,
    progress: Progress | None = None,
) -> History:
    """The points of the first-parent history of ``head`` in ``window``, and what moved
    them. ``progress`` is called with (commits walked, commits in the window)."""
    chain = repo.first_parent_chain(head)
    chosen = choose_points(chain, window)
    if not chosen:
        return History([], [], [])
    start, end = chain[chosen[0]], chain[chosen[-1]]
    at_point = {chain[i].id for i in chosen}
    by_id = {c.id: c for c in chain[chosen[0] : chosen[-1] + 1]}
    total = len(by_id)
    grafted = repo.shallow_commits()
    boundary = next((c.id for c in chain if c.id in grafted), None)
    with repo.blob_stream(MAX_FILE_BYTES) as blobs:
        summaries = Summaries(blobs, jobs=counting.jobs)
        census = _full_census(repo, start.id, summaries, counting, None)
        walk = _Walk(census, counting.max_files)
        walk.note_ecosystems(start, at_start=bool(start.parents))
        points = [walk.point(start)]
        done = 1
        for block in _blocks(repo.first_parent_changes(start.id, end.id), BLOCK):
            kept = [(commit, _included(changes, counting.path_filter)) for commit, changes in block]
            found = summaries.get(
                (c.path, c.new_blob)
                for _, changes in kept
                for c in changes
                if c.status != "removed" and c.new_blob
            )
            for commit_id, changes in kept:
                commit = by_id[commit_id]
                walk.apply(commit, changes, found)
                walk.note_ecosystems(commit)
                if commit_id in at_point:
                    points.append(walk.point(commit))
                done += 1
                if progress:
                    progress(done, total)
    return History(
        points,
        top_movers(walk.all_moves, MOVERS),
        walk.entered,
        shallow_boundary=boundary,
        classified=summaries.classified,
        commits=done,
    )
