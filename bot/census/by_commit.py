"""Repository censuses by commit: cached, counted once per commit, refreshed on push.

A census of a commit never changes, so it is cached by commit SHA (and by the policy's
path settings, which decide what is counted) in the shared job cache
(``ctx.caches.census``, a get/put interface Redis can replace). Concurrent requests for
the same census share one count (single flight). The default branch's latest census is
kept under its own key: the badge shows it and PR comments show it as the base figure.

A push to the default branch updates that census incrementally when the census of the
commit before the push is cached: only the files the push changed are read (blobs, shared
with the PR check's blob cache) and replaced. Anything the compare API cannot describe
exactly (a force push, a truncated file list) falls back to a full tarball count, so the
incremental result always equals a full recount.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.engine.census import Census
from bot.engine.summary import SharedCounts
from bot.github.archives import tarball
from bot.github.contents import CONCURRENT_READS, BlobReader
from bot.github.errors import NotFound
from bot.github.refs import RepoRef
from bot.policy.config import Policy
from bot.sources.pool import IN_PROCESS, Engine, EnginePool
from bot.sources.tarball import ArchiveLimits, census_from_stream

if TYPE_CHECKING:
    from bot.github.client import GitHub

log = logging.getLogger("lockin.census")


# What the census needs of the app's shared parts, stated here so that the census sits below
# the runtime that composes it: runtime's Cache and KeyedLock (in memory or on Redis) are both.
class Cache(Protocol):
    async def get(self, key: str) -> Any | None: ...

    async def put(self, key: str, value: Any) -> None: ...


class KeyedLock(Protocol):
    def hold(self, key: str) -> AbstractAsyncContextManager[None]: ...


T = TypeVar("T")
ZERO_SHA = "0" * 40
# GitHub's compare lists at most 300 files; at that count the list may be cut short.
COMPARE_MAX_FILES = 300


@dataclass(frozen=True, slots=True)
class CensusAt:
    """A census and the commit it counts."""

    sha: str
    scope: str  # fingerprint of the path settings it was counted with
    census: Census


def scope_of(policy: Policy) -> str:
    """What the policy changes about a census: its path patterns and generated-file choice."""
    paths = policy.paths
    text = repr((paths.include, paths.exclude, paths.generated))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _repo_key(repo: RepoRef) -> str:
    return repo.full_name.lower()  # GitHub names are case-insensitive


class SingleFlight:
    """Concurrent calls with one key share one run of the work.

    Waiters are shielded from each other: one caller giving up does not cancel the count
    the others are waiting for.
    """

    def __init__(self) -> None:
        self._running: dict[str, asyncio.Future[Any]] = {}

    async def run(self, key: str, work: Callable[[], Awaitable[T]]) -> T:
        future = self._running.get(key)
        if future is None:
            future = asyncio.ensure_future(work())
            self._running[key] = future
            future.add_done_callback(lambda done: self._forget(key, done))
        result: T = await asyncio.shield(future)
        return result

    def _forget(self, key: str, done: asyncio.Future[Any]) -> None:
        if self._running.get(key) is done:
            del self._running[key]
        if not done.cancelled():
            done.exception()  # retrieved here, so nobody is warned when all waiters left


class CensusStore:
    """Census results in a get/put cache, with the single flight and per-repo refresh order.

    Counting one commit and refreshing one repository's default branch each happen once at
    a time under ``locks`` (Redis-backed in `lockin worker`, so that workers on several
    hosts count a commit once and apply pushes in order)."""

    def __init__(self, cache: Cache, locks: KeyedLock, engine: EnginePool | None = None) -> None:
        self._cache = cache
        self._locks = locks
        self._flights = SingleFlight()
        # Each count is a job of its own on the pool (its own CPU budget); without a pool
        # (a test, a script) the engine runs in a thread.
        self._engine = engine

    def _job(self) -> Engine:
        return self._engine.job() if self._engine is not None else IN_PROCESS

    @property
    def locks(self) -> KeyedLock:
        """The census's keyed locks (Redis-backed with several workers), for features that
        serialise per repository work of their own around it (the dashboard)."""
        return self._locks

    async def get(self, repo: RepoRef, sha: str, scope: str) -> CensusAt | None:
        return await self._cache.get(f"census:{_repo_key(repo)}@{sha}:{scope}")

    async def put(self, repo: RepoRef, result: CensusAt) -> None:
        await self._cache.put(f"census:{_repo_key(repo)}@{result.sha}:{result.scope}", result)

    async def default_branch(self, repo: RepoRef) -> CensusAt | None:
        """The latest census of the default branch, if one was counted."""
        return await self._cache.get(f"census-default:{_repo_key(repo)}")

    async def _set_default_branch(self, repo: RepoRef, result: CensusAt) -> None:
        await self._cache.put(f"census-default:{_repo_key(repo)}", result)

    async def forget_default_branch(self, repo: RepoRef) -> None:
        """The app was removed from the repository: its badge goes back to unknown."""
        await self._cache.put(f"census-default:{_repo_key(repo)}", None)
        await self.set_public(repo, public=False)

    async def set_public(self, repo: RepoRef, *, public: bool) -> None:
        """Whether the repository is public, as its last event said: only public
        repositories get a badge, since the badge endpoint answers anyone."""
        await self._cache.put(f"public:{_repo_key(repo)}", public)

    async def is_public(self, repo: RepoRef) -> bool:
        return await self._cache.get(f"public:{_repo_key(repo)}") is True

    async def is_hidden(self, repo: RepoRef) -> bool:
        """An event said the repository is not to be shown (private, removed, renamed away,
        transferred, deleted): every process sees it at once, before the trend store does."""
        return await self._cache.get(f"public:{_repo_key(repo)}") is False

    async def move_default_branch(self, old: RepoRef, new: RepoRef, *, public: bool) -> None:
        """The repository was renamed: its census answers to the new name only."""
        result = await self.default_branch(old)
        await self.forget_default_branch(old)
        if result is not None:
            await self._set_default_branch(new, result)
        await self.set_public(new, public=public)

    async def census_at(self, gh: GitHub, repo: RepoRef, sha: str, policy: Policy) -> CensusAt:
        """The census of a commit: cached, or counted once however many ask at the same time."""
        scope = scope_of(policy)
        cached = await self.get(repo, sha, scope)
        if cached is not None:
            return cached

        key = f"{_repo_key(repo)}@{sha}:{scope}"

        async def count() -> CensusAt:
            async with self._locks.hold(f"count:{key}"):
                # Another process may have counted it while this one waited.
                return await self.get(repo, sha, scope) or await count_tarball()

        async def count_tarball() -> CensusAt:
            async with tarball(gh, repo, sha) as download:
                archive = await census_from_stream(
                    download.chunks,
                    declared_size=download.declared_size,
                    limits=ArchiveLimits.for_archive(policy.census.max_archive_bytes),
                    path_filter=policy.path_filter(),
                    include_generated=policy.paths.include_generated,
                    engine=self._job(),
                )
            counted = archive.census if policy.markers_allowed else archive.census.without_markers()
            result = CensusAt(sha, scope, counted)
            await self.put(repo, result)
            return result

        return await self._flights.run(key, count)

    async def refresh_default_branch(
        self,
        gh: GitHub,
        repo: RepoRef,
        *,
        before: str,
        after: str,
        policy: Policy,
        blobs: Cache,
    ) -> CensusAt:
        """The default branch moved from ``before`` to ``after``: bring its census along."""
        # Pushes to one repository are applied in arrival order, one at a time.
        async with self._locks.hold(f"refresh:{_repo_key(repo)}"):
            scope = scope_of(policy)
            result = await self.get(repo, after, scope)
            if result is None:
                previous = await self._previous(repo, before, scope)
                if previous is not None:
                    reader = BlobReader(gh, repo, blobs)
                    result = await _incremental(
                        gh, reader, repo, previous, after, policy, self._job()
                    )
                if result is not None:
                    await self.put(repo, result)
                else:
                    result = await self.census_at(gh, repo, after, policy)
            await self._set_default_branch(repo, result)
            return result

    async def _previous(self, repo: RepoRef, before: str, scope: str) -> CensusAt | None:
        if before == ZERO_SHA:
            return None  # the branch was just created: nothing to start from
        latest = await self.default_branch(repo)
        if latest is not None and latest.sha == before and latest.scope == scope:
            return latest
        return await self.get(repo, before, scope)


async def _incremental(
    gh: GitHub,
    reader: BlobReader,
    repo: RepoRef,
    previous: CensusAt,
    after: str,
    policy: Policy,
    engine: Engine,
) -> CensusAt | None:
    """``previous`` moved to ``after`` by recounting only the changed files; None when the
    compare API cannot list the change exactly (then the caller counts the tarball)."""
    compare = await gh.getitem(
        "/repos/{owner}/{repo}/compare/{basehead}",
        {"owner": repo.owner, "repo": repo.name, "basehead": f"{previous.sha}...{after}"},
    )
    files = compare.get("files") or []
    # "ahead" means `before` is an ancestor, so the file list is exactly before..after;
    # after a force push it would be relative to a merge base instead.
    if compare.get("status") not in ("ahead", "identical") or len(files) >= COMPARE_MAX_FILES:
        log.info("census: full recount of %s@%s (%s)", repo.full_name, after, compare.get("status"))
        return None
    path_filter = policy.path_filter()
    # A copy: the previous census stays cached for PRs still based on it.
    census = copy.deepcopy(previous.census, {id(previous.census.rules): previous.census.rules})
    wanted = {
        f["sha"]
        for f in files
        if f["status"] != "removed" and f.get("sha") and path_filter.includes(f["filename"])
    }
    contents = await _read_blobs(reader, wanted)
    present = {
        f["filename"]: data
        for f in files
        if f["status"] != "removed" and (data := contents.get(f.get("sha") or "")) is not None
    }
    items = list(present.items())
    summaries = await asyncio.to_thread(engine.census_summaries, items, SharedCounts())
    counted = dict(zip(present, summaries, strict=True))
    for f in files:
        path = f["filename"]
        if f["status"] == "renamed" and f.get("previous_filename"):
            census.replace(f["previous_filename"], None)
        census.replace(path, counted.get(path))
    census.settle()  # a changed file may splice a header into device code, or stop to
    return CensusAt(after, previous.scope, census)


async def _read_blobs(reader: BlobReader, shas: set[str]) -> dict[str, bytes]:
    """Blob contents by SHA. A SHA GitHub has no blob for is a submodule commit: the tarball
    holds an empty folder there, so the path counts as no file at all."""
    gate = asyncio.Semaphore(CONCURRENT_READS)

    async def read(sha: str) -> tuple[str, bytes | None]:
        async with gate:
            try:
                return sha, await reader.blob(sha)
            except NotFound:
                return sha, None

    pairs = await asyncio.gather(*(read(sha) for sha in sorted(shas)))
    return {sha: data for sha, data in pairs if data is not None}
