"""A pull request's change in non-portable lines: its files, both versions, the engine.

Requests are kept few: the file list (100 a page), one compare for the merge base and one
recursive tree for the base side's blob SHAs (both only when an old version is needed),
and one blob read per version that matters, only for files the engine can read and the
path filters keep. The old version is read only when the patch removes lines (or there is
no patch), the new one only when it adds lines. Files are diffed against the merge base,
as GitHub's own PR diff is, so commits on the base branch never count as the PR's.

Above ``MAX_BLOB_READS`` reads the PR is too large to read blob by blob within a sane
request budget: the analysis reads the first ``MAX_BLOB_READS`` and reports how many files
were left unread (``unread``); the verdict must not pass a PR whose reading was cut short.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.engine import classify
from bot.engine.delta import change_delta, changed_lines, changed_lines_from_patch, file_delta
from bot.engine.languages import by_path
from bot.engine.model import ChangeDelta, FileDelta, FileReport
from bot.engine.paths import PathFilter
from bot.review.contents import BlobReader, Tree, read_tree
from bot.review.pr_files import PRFile, list_pr_files

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.policy import Policy
    from bot.server.caches import Cache

#: Blob reads one PR check may make (two per file at most).
MAX_BLOB_READS = 600

# PR file statuses as the engine's deltas name them.
_STATUS = {"copied": "added", "changed": "modified", "unchanged": "modified"}


@dataclass(slots=True)
class PRAnalysis:
    delta: ChangeDelta
    listed: int  # files GitHub listed
    unlisted: int  # files beyond GitHub's MAX_PR_FILES listing cap: never seen
    analysed: int  # files the engine read
    binary: int  # files skipped as binary (GitHub gives them no patch and no lines)
    excluded: int  # files the path filters or the generated-file setting left out
    unread: list[str] = field(default_factory=list)  # candidates beyond MAX_BLOB_READS
    merge_base: str | None = None


@dataclass(slots=True)
class _Plan:
    """What one file needs: which versions to read and which lines changed."""

    file: PRFile
    status: str
    old_path: str
    added: list[int] | None  # None: no usable patch, diff the two texts
    removed: list[int] | None
    old_sha: str | None = None
    old: bytes | None = None
    new: bytes | None = None

    @property
    def needs_new(self) -> bool:
        return self.status != "removed" and (self.added is None or bool(self.added))

    @property
    def needs_old(self) -> bool:
        return self.status != "added" and (self.removed is None or bool(self.removed))


def _known_language(path: str) -> bool:
    return by_path(path)[0] is not None


def _is_candidate(path: str, paths: PathFilter) -> bool:
    return paths.includes(path) and _known_language(path)


def _plan(file: PRFile) -> _Plan:
    status = _STATUS.get(file.status, file.status)
    old_path = file.previous_filename or file.filename
    added: list[int] | None = None
    removed: list[int] | None = None
    if file.patch is not None:
        # An unparsable patch leaves None: the two versions are diffed instead.
        with suppress(ValueError):
            added, removed = changed_lines_from_patch(file.patch)
    return _Plan(file, status, old_path, added, removed)


async def analyse_pr(
    gh: GitHub,
    blob_cache: Cache,
    *,
    owner: str,
    repo: str,
    number: int,
    base_sha: str,
    head_sha: str,
    changed_files: int,
    policy: Policy,
) -> PRAnalysis:
    files = await list_pr_files(gh, owner, repo, number)
    reader = BlobReader(gh, owner, repo, blob_cache)
    deltas: list[FileDelta] = []
    plans: list[_Plan] = []
    binary = excluded = 0
    paths = policy.path_filter()
    for file in files:
        if not _is_candidate(file.filename, paths):
            excluded += int(_known_language(file.filename))
            continue
        if file.looks_binary:
            binary += 1
            deltas.append(FileDelta(file.filename, _STATUS.get(file.status, file.status)))
            deltas[-1].skipped = "binary"
            continue
        plan = _plan(file)
        if plan.needs_new or plan.needs_old:
            plans.append(plan)
    plans, unread = _within_budget(plans)
    merge_base = None
    if any(p.needs_old for p in plans):
        merge_base, tree_sha = await _merge_base(gh, owner, repo, base_sha, head_sha)
        tree = await read_tree(gh, owner, repo, tree_sha)
        await _read_old(reader, plans, tree, merge_base)
    new_shas = {p.file.sha for p in plans if p.needs_new and p.file.sha}
    new_blobs = await reader.blobs(new_shas)
    for plan in plans:
        if plan.needs_new and plan.file.sha:
            plan.new = new_blobs[plan.file.sha]
    analysed = 0
    for plan in plans:
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
        merge_base=merge_base,
    )


def _within_budget(plans: list[_Plan]) -> tuple[list[_Plan], list[str]]:
    kept: list[_Plan] = []
    reads = 0
    for plan in plans:
        cost = int(plan.needs_new) + int(plan.needs_old)
        if reads + cost > MAX_BLOB_READS:
            return kept, [p.file.filename for p in plans[len(kept) :]]
        reads += cost
        kept.append(plan)
    return kept, []


async def _merge_base(
    gh: GitHub, owner: str, repo: str, base_sha: str, head_sha: str
) -> tuple[str, str]:
    """The merge base commit and its tree (``per_page=1`` keeps the commit list short)."""
    data = await gh.getitem(f"/repos/{owner}/{repo}/compare/{base_sha}...{head_sha}?per_page=1")
    commit = data["merge_base_commit"]
    return commit["sha"], commit["commit"]["tree"]["sha"]


async def _read_old(reader: BlobReader, plans: list[_Plan], tree: Tree, merge_base: str) -> None:
    for plan in plans:
        if plan.needs_old:
            entry = tree.entries.get(plan.old_path)
            plan.old_sha = entry.sha if entry else None
    blobs = await reader.blobs({p.old_sha for p in plans if p.old_sha})
    for plan in plans:
        if plan.old_sha:
            plan.old = blobs[plan.old_sha]
        elif plan.needs_old and tree.truncated:
            plan.old = await reader.file_at(plan.old_path, merge_base)


def _file_delta(plan: _Plan, policy: Policy) -> FileDelta | None:
    """The engine's view of one file; None when it turns out to be generated and excluded."""
    old = classify(plan.old_path, plan.old) if plan.old is not None else None
    new = classify(plan.file.filename, plan.new) if plan.new is not None else None
    if _excluded_generated(new or old, policy):
        return None
    added, removed = plan.added, plan.removed
    if added is None or removed is None:
        added, removed = changed_lines(_text(plan.old), _text(plan.new))
    return file_delta(
        plan.file.filename,
        old,
        new,
        added,
        removed,
        status=plan.status,
        old_path=plan.file.previous_filename,
    )


def _excluded_generated(report: FileReport | None, policy: Policy) -> bool:
    return report is not None and report.generated and not policy.paths.include_generated


def _text(data: bytes | None) -> str:
    return data.decode("utf-8", errors="replace") if data is not None else ""
