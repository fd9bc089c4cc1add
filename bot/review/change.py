"""A pull request's change in non-portable lines: its files, both versions, the engine.

Requests are kept few. The file list (100 a page); the merge base from one compare, since
files are diffed against the merge base as GitHub's own PR diff is (commits on the base
branch never count as the PR's); and a version of a file only where it matters: the old one
when the patch removes lines (or there is no patch, or it adds a line holding a version
number, which may be one more version of a dependency the file held), the new one when it
adds lines, and only
for files the engine can read and the path filters keep.

Small PRs read those versions blob by blob (base blob SHAs from ONE recursive tree of the
merge base; every blob cached by SHA, so a new push re-reads only what changed). Larger ones
read each side from one tarball instead, two requests however many files: above
``MAX_BLOB_READS`` reads always, above ``TARBALL_THRESHOLD`` when the repository is small
enough that the download costs less than the requests it saves (``ARCHIVE_BYTES_PER_READ``).
Should an archive be unusable (larger than the policy's ``census.max_archive_mb``,
unreadable), blob reads resume up to ``MAX_BLOB_READS`` and the files beyond are listed as
unread; the check never passes a PR it did not read entirely.

The engine runs in the app's worker processes (``bot.sources.pool``), within a CPU budget per
file and per check, so that webhooks keep being acknowledged meanwhile; a file over budget
is not counted, and the check does not pass without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.engine.delta import (
    ChangeDelta,
    FileDelta,
    adds_a_version,
    change_delta,
    changed_lines,
    changed_lines_from_patch,
    file_delta,
)
from bot.engine.languages import may_hold_code
from bot.engine.model import FileReport
from bot.github.contents import BlobReader, file_contents, read_tree
from bot.github.errors import NotFound
from bot.review.pr_files import PRFile, list_pr_files
from bot.review.tarball_files import read_from_archive
from bot.sources.archive import ArchiveError
from bot.sources.pool import NOT_COUNTED, Batcher, Engine, Item

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import PullRef, RepoRef
    from bot.policy.config import Policy
    from bot.runtime.caches import Cache

#: Version reads above which a PR's sides may come from two tarballs instead of blobs...
TARBALL_THRESHOLD = 100
#: ...when the repository's size is at most this many bytes per read saved: a request costs
#: rate-limit quota and a round trip, a quarter megabyte of download costs less.
ARCHIVE_BYTES_PER_READ = 256 * 1024
#: Blob reads one check makes at most (above it the tarballs are always tried).
MAX_BLOB_READS = 600

# PR file statuses as the engine's deltas name them (a copy's lines are all new).
_STATUS = {"copied": "added", "changed": "modified", "unchanged": "modified"}


@dataclass(slots=True)
class PRAnalysis:
    delta: ChangeDelta
    listed: int  # files GitHub listed
    unlisted: int  # files beyond GitHub's 3,000-file listing: never seen
    analysed: int  # files the engine read
    binary: int  # files skipped as binary
    excluded: int  # code files the path filters or the generated-file setting left out
    unread: list[str] = field(default_factory=list)  # candidates the check could not read
    # (path, why) of files read but not counted: the engine's CPU budget ran out on them.
    uncounted: list[tuple[str, str]] = field(default_factory=list)
    merge_base: str | None = None
    source: str = "blobs"  # "blobs" | "tarballs": how the versions were read
    archive_notes: list[str] = field(default_factory=list)  # tarballs refused, entries skipped


@dataclass(slots=True)
class _Plan:
    """One file: which lines changed, which versions to read, the engine's reports."""

    file: PRFile
    status: str
    old_path: str
    added: list[int] | None  # None: no usable patch, the two texts are diffed here
    removed: list[int] | None
    old: FileReport | None = None
    new: FileReport | None = None
    old_text: str = ""  # kept when there is no patch, or the file has non-portable lines
    new_text: str = ""
    #: The patch adds a line holding a version number: the old version tells whether it is
    #: one more version of a vendor dependency the file held (no growth) or a new one.
    versions: bool = False

    @property
    def needs_new(self) -> bool:
        return self.status != "removed" and (self.added is None or bool(self.added))

    @property
    def needs_old(self) -> bool:
        return self.status != "added" and (
            self.removed is None or bool(self.removed) or self.versions
        )

    @property
    def reads(self) -> int:
        """Versions still to read."""
        return int(self.needs_new and self.new is None) + int(self.needs_old and self.old is None)

    def path(self, side: str) -> str:
        return self.file.filename if side == "new" else self.old_path

    def take(self, side: str, report: FileReport, data: bytes) -> None:
        """One version's report (keeping its text only for a diff here)."""
        # Kept for a diff here, or to tell a reformat from new code (non-portable files only).
        text = _text(data) if self.added is None or report.non_portable_lines else ""
        if side == "new":
            self.new, self.new_text = report, text
        else:
            self.old, self.old_text = report, text


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _plan(file: PRFile) -> _Plan:
    added: list[int] | None = None
    removed: list[int] | None = None
    if file.status == "copied":
        # GitHub diffs a copy against its source, but every line of it is new code: None
        # diffs the new text against nothing. (A binary copy is found when it is read.)
        return _Plan(file, "added", file.filename, None, None)
    if file.patch is None and file.additions + file.deletions == 0:
        added, removed = [], []  # a pure rename or a mode change (binary files set apart)
    elif file.patch is not None:
        # An unparsable patch leaves None: the two versions are diffed instead.
        with suppress(ValueError):
            added, removed = changed_lines_from_patch(file.patch)
    status = _STATUS.get(file.status, file.status)
    versions = bool(added) and not removed and adds_a_version(file.patch or "")
    return _Plan(
        file, status, file.previous_filename or file.filename, added, removed, versions=versions
    )


@dataclass(slots=True)
class _Sides:
    """Reading both sides of one PR."""

    gh: GitHub
    reader: BlobReader
    repo: RepoRef
    base_sha: str
    head_sha: str
    max_archive: int
    repo_bytes: int  # GitHub's size of the repository: about what a tarball weighs
    engine: Engine
    merge_base: str | None = None
    tree_sha: str | None = None
    source: str = "blobs"
    archive_notes: list[str] = field(default_factory=list)

    async def find_merge_base(self) -> str:
        if self.merge_base is None:
            url = f"/repos/{self.repo.full_name}/compare/{self.base_sha}...{self.head_sha}"
            data = await self.gh.getitem(f"{url}?per_page=1")
            commit = data["merge_base_commit"]
            self.merge_base, self.tree_sha = commit["sha"], commit["commit"]["tree"]["sha"]
        return self.merge_base

    async def read(self, plans: list[_Plan]) -> list[str]:
        """Fill in every plan's reports; return the paths that could not be read."""
        if self._archives_pay(sum(p.reads for p in plans)):
            # An unusable archive leaves its side to the blob reads below, within budget.
            try:
                await self._from_archives(plans)
            except ArchiveError as error:
                self.archive_notes.append(f"The tarball was not used: {error}.")
            except NotFound:
                pass  # no archive for that commit: blobs it is
        kept, unread = _within_budget([p for p in plans if p.reads])
        if kept:
            await self._from_blobs(kept)
            self.source = "blobs" if self.source == "blobs" else "tarballs and blobs"
        return [p.file.filename for p in unread]

    def _archives_pay(self, reads: int) -> bool:
        if reads > MAX_BLOB_READS:
            return True
        return reads > TARBALL_THRESHOLD and self.repo_bytes <= reads * ARCHIVE_BYTES_PER_READ

    async def _from_archives(self, plans: list[_Plan]) -> None:
        """Each side that needs reading from its commit's tarball."""
        for side in ("new", "old"):
            wanted = {p.path(side): p for p in plans if _needs(p, side)}
            if not wanted:
                continue
            ref = self.head_sha if side == "new" else await self.find_merge_base()

            batcher = Batcher(self.engine, self._taker(side, wanted))
            walk = await read_from_archive(
                self.gh,
                self.repo,
                ref,
                set(wanted),
                batcher.add,
                max_bytes=self.max_archive,
            )
            await asyncio.to_thread(batcher.close)
            self.source = "tarballs"
            if walk.unsafe.counts:
                kinds = ", ".join(f"{n:,} {r}" for r, n in sorted(walk.unsafe.counts.items()))
                self.archive_notes.append(f"Tarball entries skipped as unsafe: {kinds}.")

    def _taker(self, side: str, wanted: dict[str, _Plan]) -> Callable[[list[Item]], None]:
        """Takes a batch of one side's versions from an archive walk's thread."""

        def take(items: list[Item]) -> None:
            reports = self.engine.reports_blocking(items)
            for (path, data), report in zip(items, reports, strict=True):
                wanted[path].take(side, report, data)

        return take

    async def _from_blobs(self, plans: list[_Plan]) -> None:
        new_shas = {p.file.filename: p.file.sha for p in plans if p.needs_new and p.new is None}
        old_plans = [p for p in plans if p.needs_old and p.old is None]
        old_shas, truncated = await self._old_shas(old_plans)
        blobs = await self.reader.blobs({s for s in (*new_shas.values(), *old_shas.values()) if s})
        old_by_path = {path: blobs[sha] for path, sha in old_shas.items()}
        if truncated:  # paths the truncated tree left out, one by one
            for plan in old_plans:
                if plan.old_path not in old_by_path:
                    data = await file_contents(self.gh, self.repo, plan.old_path, self.merge_base)
                    if data is not None:
                        old_by_path[plan.old_path] = data

        versions: list[tuple[_Plan, str, bytes]] = []
        for plan in plans:
            if (sha := new_shas.get(plan.file.filename)) and sha in blobs:
                versions.append((plan, "new", blobs[sha]))
            if plan.old_path in old_by_path:
                versions.append((plan, "old", old_by_path[plan.old_path]))
        reports = await self.engine.reports([(p.path(side), data) for p, side, data in versions])
        for (plan, side, data), report in zip(versions, reports, strict=True):
            plan.take(side, report, data)

    async def _old_shas(self, plans: list[_Plan]) -> tuple[dict[str, str], bool]:
        """Base-side blob SHAs by path from ONE recursive tree of the merge base, and whether
        GitHub truncated that tree."""
        if not plans:
            return {}, False
        await self.find_merge_base()
        assert self.tree_sha is not None
        tree = await read_tree(self.gh, self.repo, self.tree_sha)
        wanted = {p.old_path for p in plans}
        return {path: sha for path, sha in tree.blobs.items() if path in wanted}, tree.truncated


def _needs(plan: _Plan, side: str) -> bool:
    return plan.needs_new if side == "new" else plan.needs_old


def _within_budget(plans: list[_Plan]) -> tuple[list[_Plan], list[_Plan]]:
    reads = 0
    for index, plan in enumerate(plans):
        reads += plan.reads
        if reads > MAX_BLOB_READS:
            return plans[:index], plans[index:]
    return plans, []


async def analyse_pr(
    gh: GitHub,
    blob_cache: Cache,
    *,
    pull: PullRef,
    base_sha: str,
    head_sha: str,
    changed_files: int,
    repo_size_kb: int,
    policy: Policy,
    engine: Engine,
    files: list[PRFile] | None = None,
) -> PRAnalysis:
    """``files``: the change's files when they are not the PR's (a merge group's, listed by
    the compare API); the PR's own are listed otherwise."""
    if files is None:
        files = await list_pr_files(gh, pull)
    paths = policy.path_filter()
    deltas: list[FileDelta] = []
    plans: list[_Plan] = []
    binary = excluded = 0
    for file in files:
        if not may_hold_code(file.filename):
            continue
        if not paths.includes(file.filename):
            excluded += 1
        elif file.looks_binary:
            binary += 1
            deltas.append(_binary(file))
        elif (plan := _plan(file)).reads:
            plans.append(plan)
    sides = _Sides(
        gh,
        BlobReader(gh, pull.repo, blob_cache),
        pull.repo,
        base_sha,
        head_sha,
        policy.census.max_archive_bytes,
        repo_size_kb * 1024,
        engine,
    )
    unread = await sides.read(plans)
    skipped = set(unread)
    analysed = 0
    uncounted: list[tuple[str, str]] = []
    for plan in plans:
        if plan.file.filename in skipped:
            continue
        if why := _not_counted(plan):
            uncounted.append((plan.file.filename, why))
            continue
        delta = _file_delta(plan, policy)
        if delta is None:
            excluded += 1
            continue
        analysed += 1
        binary += int(delta.skipped == "binary")
        deltas.append(delta)
    return PRAnalysis(
        delta=change_delta(deltas),
        listed=len(files),
        unlisted=max(0, changed_files - len(files)),
        analysed=analysed,
        binary=binary,
        excluded=excluded,
        unread=unread,
        uncounted=uncounted,
        merge_base=sides.merge_base,
        source=sides.source,
        archive_notes=sides.archive_notes,
    )


def _not_counted(plan: _Plan) -> str | None:
    for report in (plan.new, plan.old):
        if report is not None and report.skipped and report.skipped.startswith(NOT_COUNTED):
            return report.skipped.removeprefix(NOT_COUNTED)
    return None


def _binary(file: PRFile) -> FileDelta:
    delta = FileDelta(file.filename, _STATUS.get(file.status, file.status), file.previous_filename)
    delta.skipped = "binary"
    return delta


def _file_delta(plan: _Plan, policy: Policy) -> FileDelta | None:
    """The engine's view of one file; None when it turns out generated and excluded."""
    report = plan.new or plan.old
    if report is not None and report.generated and not policy.paths.include_generated:
        return None
    added, removed = plan.added, plan.removed
    if added is None or removed is None:
        added, removed = changed_lines(plan.old_text, plan.new_text)
    return file_delta(
        plan.file.filename,
        plan.old,
        plan.new,
        added,
        removed,
        status=plan.status,
        old_path=plan.file.previous_filename,
        markers_allowed=policy.markers_allowed,
        texts=(plan.old_text, plan.new_text) if plan.old_text or plan.new_text else None,
    )
