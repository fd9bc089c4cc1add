"""Census of git revisions without a checkout, and of a first-parent history.

``revision_census`` counts one commit's tree. ``walk_history`` counts the first point
of a window that way, then follows the first-parent chain: each commit's changes against
its first parent come from one ``git log --raw`` process, and from one point to the next
only the blobs that differ between the two trees are read (one long-lived
``git cat-file --batch``) and classified. The census is updated file by file
(``Census.replace``), so each point equals a census of its tree built from scratch,
including the repository-level shim pass, which ``Census`` recomputes when read. The
commits between two points are then credited with what they moved by replaying only the
files whose figures differ between the points. A classified (path, blob) is kept in a
bounded LRU cache, so a file version seen once is not classified again.

Memory is bounded by the current tree (one ``FileSummary`` per file, at most
``max_files``), the summary cache (``CACHE_ENTRIES`` entries), the change lists of the
commits between two points, and the blob contents of the pool chunks in flight
(``IN_FLIGHT`` per worker, ``CHUNK`` files each, no file above ``MAX_FILE_BYTES``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from bot.engine.census import Census, FileSummary
from bot.engine.paths import PathFilter
from bot.engine.trend import History, census_figures, commit_entry, file_figures, top_movers
from bot.sources import SourceError
from bot.sources.changes import Change
from bot.sources.engine_runner import Progress, summarize_contents
from bot.sources.files import MAX_FILE_BYTES
from bot.sources.git import BlobStream, Commit, GitRepo

#: Classified (path, blob) pairs kept; a FileSummary is a few hundred bytes, so the cache
#: stays within some tens of megabytes whatever the history's length.
CACHE_ENTRIES = 100_000
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

    def __init__(
        self,
        blobs: BlobStream,
        *,
        jobs: int,
        entries: int = CACHE_ENTRIES,
        file_seconds: float = 0,
    ) -> None:
        self._blobs = blobs
        self._jobs = jobs
        self._file_seconds = file_seconds
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
        summaries = summarize_contents(
            self._contents(missing),
            jobs=self._jobs,
            progress=progress,
            file_seconds=self._file_seconds,
        )
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
    file_seconds: float = 0  # CPU seconds each file may take (0: no budget)


def _full_census(
    repo: GitRepo,
    commit: str,
    summaries: Summaries,
    counting: Counting,
    progress: Progress | None,
) -> tuple[Census, dict[str, str]]:
    """The census of a commit's tree, and the blob id of each file it counts."""
    entries = [e for e in repo.list_files(commit) if counting.path_filter.includes(e.path)]
    if len(entries) > counting.max_files:
        raise SourceError(
            f"tree of {commit[:12]} has {len(entries):,} files, "
            f"above the limit of {counting.max_files:,}"
        )
    found = summaries.get(((e.path, e.blob) for e in entries), progress)
    census = Census(
        (found[(e.path, e.blob)] for e in entries), include_generated=counting.include_generated
    )
    return census, {e.path: e.blob for e in entries}


def revision_census(
    repo: GitRepo, commit: str, counting: Counting, *, progress: Progress | None = None
) -> Census:
    """The census of a commit's tree, read from the object store."""
    with repo.blob_stream(MAX_FILE_BYTES) as blobs:
        summaries = Summaries(blobs, jobs=counting.jobs, file_seconds=counting.file_seconds)
        return _full_census(repo, commit, summaries, counting, progress)[0]


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
    """The running state of a walk: the census at the last point, the blob of each of
    its files, and what moved the figures so far."""

    census: Census
    blobs: dict[str, str]  # path -> blob id of the files of the last point
    summaries: Summaries
    max_files: int
    all_moves: list[dict[str, Any]] = field(default_factory=list)
    entered: list[dict[str, Any]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)  # ecosystems present so far

    def point(self, commit: Commit, moves: list[dict[str, Any]]) -> dict[str, Any]:
        entry = commit_entry(commit.id, commit.time, commit.subject)
        del entry["subject"]
        if len(self.census) > self.max_files:
            figures: dict[str, Any] = {"gap": "tree-too-large"}
        else:
            figures = {"gap": None, **census_figures(self.census)}
        self.all_moves += moves
        return {**entry, **figures, "moved_by": top_movers(moves, MOVERS_PER_POINT)}

    def note_ecosystems(
        self, commit: Commit, present: Iterable[str], at_start: bool = False
    ) -> None:
        """Record the ecosystems present for the first time; ``at_start`` marks those
        found at the first point of a window that does not begin the history."""
        for ecosystem in present:
            if ecosystem not in self.seen:
                self.seen.add(ecosystem)
                entry = commit_entry(commit.id, commit.time, commit.subject)
                self.entered.append({"ecosystem": ecosystem, **entry, "at_start": at_start})

    def advance(self, commits: Sequence[tuple[Commit, list[Change]]]) -> list[dict[str, Any]]:
        """Bring the census from the last point to the last of ``commits`` and return
        what each commit moved.

        The point needs only the blobs that differ between the two trees. Commits are
        then attributed by replaying only the files whose figures differ between the two
        points: churn that a later commit of the interval undoes, and every version of
        a file that ends as it began, costs nothing.
        """
        final: dict[str, str | None] = {}
        for _, changes in commits:
            for change in changes:
                final[change.path] = change.new_blob if change.status != "removed" else None
        net = {path: blob for path, blob in final.items() if self.blobs.get(path) != blob}
        found = self.summaries.get((path, blob) for path, blob in net.items() if blob)
        census, include_generated = self.census, self.census.include_generated
        ecosystems = Counter(census.totals.ecosystems)
        before = {path: census.get(path) for path in net}
        for path, blob in net.items():
            census.replace(path, found[(path, blob)] if blob else None)
            if blob:
                self.blobs[path] = blob
            else:
                self.blobs.pop(path, None)
        moving = {
            path
            for path in net
            if file_figures(before[path], include_generated)
            != file_figures(census.get(path), include_generated)
        }
        return self._attribute(commits, moving, before, ecosystems)

    def _attribute(
        self,
        commits: Sequence[tuple[Commit, list[Change]]],
        moving: set[str],
        current: dict[str, FileSummary | None],
        ecosystems: Counter[str],
    ) -> list[dict[str, Any]]:
        include_generated = self.census.include_generated
        touched = [
            (commit, [c for c in changes if c.path in moving]) for commit, changes in commits
        ]
        found = self.summaries.get(
            (c.path, c.new_blob)
            for _, changes in touched
            for c in changes
            if c.status != "removed" and c.new_blob
        )
        moves = []
        for commit, changes in touched:
            added = removed = 0
            for change in changes:
                new = None
                if change.status != "removed" and change.new_blob:
                    new = found[(change.path, change.new_blob)]
                old_lines, old_ecosystems = file_figures(current[change.path], include_generated)
                new_lines, new_ecosystems = file_figures(new, include_generated)
                added += max(new_lines - old_lines, 0)
                removed += max(old_lines - new_lines, 0)
                ecosystems.subtract(old_ecosystems)
                ecosystems.update(new_ecosystems)
                current[change.path] = new
            if added or removed:
                entry = commit_entry(commit.id, commit.time, commit.subject)
                moves.append({**entry, "added": added, "removed": removed})
            self.note_ecosystems(commit, (e for e, n in ecosystems.items() if n > 0))
        return moves


def _intervals(
    walked: Iterator[tuple[str, list[Change]]],
    by_id: Mapping[str, Commit],
    at_point: set[str],
    path_filter: PathFilter,
) -> Iterator[list[tuple[Commit, list[Change]]]]:
    """The commits from one point to the next (that one included), with their changes
    to the files the analysis includes."""
    interval: list[tuple[Commit, list[Change]]] = []
    for commit_id, changes in walked:
        interval.append((by_id[commit_id], _included(changes, path_filter)))
        if commit_id in at_point:
            yield interval
            interval = []


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
        summaries = Summaries(blobs, jobs=counting.jobs, file_seconds=counting.file_seconds)
        census, tree = _full_census(repo, start.id, summaries, counting, None)
        walk = _Walk(census, tree, summaries, counting.max_files)
        walk.note_ecosystems(start, census.totals.ecosystems, at_start=bool(start.parents))
        points = [walk.point(start, [])]
        done = 1
        commits = repo.first_parent_changes(start.id, end.id)
        for interval in _intervals(commits, by_id, at_point, counting.path_filter):
            moves = walk.advance(interval)
            points.append(walk.point(interval[-1][0], moves))
            done += len(interval)
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
