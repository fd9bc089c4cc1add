"""Past points of a default branch, counted in the background when its history is empty.

On installation (and on `/lockin recount` while a repository has no point) up to
``history_backfill_points`` earlier commits of the default branch are counted from their
tarballs and recorded at their commit dates. The commits are spread evenly over the newest
hundred the commits API lists (one request). Every request the back-fill makes waits its
turn in a per-installation pacer, so however many repositories an installation adds, the
back-fill uses at most ``backfill_requests_per_minute`` of its API budget; PR checks and
pushes never wait behind it.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.features.trend import commit_date_of, record_census
from bot.github.errors import GitHubError
from bot.sources.archive import ArchiveError

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef
    from bot.policy.config import Policy
    from bot.runtime.context import JobContext
from bot.store import Store

#: Commits listed to choose from: one page of the commits API.
LISTED = 100


class RequestPacer:
    """At most ``per_minute`` requests a minute: each caller waits for its own slot."""

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._interval = 60.0 / per_minute
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0

    async def turn(self) -> None:
        now = self._clock()
        slot = max(now, self._next)
        self._next = slot + self._interval  # taken before sleeping: callers queue in order
        if slot > now:
            await self._sleep(slot - now)


def spread(items: list[str], n: int) -> list[str]:
    """``n`` items spread evenly from first to last (all when there are fewer)."""
    if n <= 0:
        return []
    if len(items) <= n:
        return list(items)
    if n == 1:
        return [items[0]]
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


class Backfills:
    """The back-fills of one app: one pacer per installation, one run per repository."""

    def __init__(self, store: Store, per_minute: int) -> None:
        self._store = store
        self._per_minute = per_minute
        self._pacers: dict[int, RequestPacer] = {}
        self._running: set[str] = set()

    def pacer(self, installation_id: int) -> RequestPacer:
        pacer = self._pacers.get(installation_id)
        if pacer is None:
            pacer = self._pacers[installation_id] = RequestPacer(self._per_minute)
        return pacer

    def start(
        self,
        gh: GitHub,
        ctx: JobContext,
        *,
        installation_id: int,
        repo: RepoRef,
        ref: str,
        policy: Policy,
    ) -> bool:
        """Start the back-fill of a repository unless one is running; it outlives the job."""
        name = repo.full_name.lower()
        if name in self._running or ctx.settings.history_backfill_points == 0:
            return False
        self._running.add(name)
        pacer = self.pacer(installation_id)
        work = _logged(ctx, name, _count_past_points(gh, ctx, pacer, repo, ref, policy))
        task = self._store.run_in_background(work)
        task.add_done_callback(lambda _: self._running.discard(name))
        return True


async def _logged(ctx: JobContext, name: str, work: Awaitable[None]) -> None:
    """A back-fill outlives its job: its failures are logged here, not by the job."""
    try:
        await work
    except (ArchiveError, GitHubError) as exc:
        ctx.log.warning("back-fill of %s stopped: %s", name, exc)
    except Exception:
        ctx.log.exception("back-fill of %s failed", name)
        raise


async def _count_past_points(
    gh: GitHub,
    ctx: JobContext,
    pacer: RequestPacer,
    repo: RepoRef,
    ref: str,
    policy: Policy,
) -> None:
    assert ctx.store is not None
    await pacer.turn()
    listed = await gh.getitem(
        "/repos/{owner}/{repo}/commits{?sha,per_page}",
        {"owner": repo.owner, "repo": repo.name, "sha": ref, "per_page": LISTED},
    )
    known = {p.commit for p in await ctx.store.points(repo.full_name, include_left=True)}
    dates = {c["sha"]: commit_date_of(c) for c in listed}
    chosen = [
        sha
        for sha in spread([c["sha"] for c in listed], ctx.settings.history_backfill_points)
        if sha not in known
    ]
    counts = ctx.census
    recorded = 0
    for sha in chosen:
        await pacer.turn()
        try:
            result = await counts.census_at(gh, repo, sha, policy)
        except (ArchiveError, GitHubError) as exc:
            # A gap, never a wrong figure: the point is simply not there.
            ctx.log.warning("back-fill of %s@%s skipped: %s", repo.full_name, sha, exc)
            continue
        recorded += await record_census(ctx, repo, result, dates[sha])
    ctx.log.info("back-fill of %s: %d past points recorded", repo.full_name, recorded)


# One per running app, keyed by its store (every job of the app is handed the same one).
_BACKFILLS: weakref.WeakKeyDictionary[Store, Backfills] = weakref.WeakKeyDictionary()


def backfills(ctx: JobContext) -> Backfills | None:
    """The back-fills of the app whose store this job was given (None without a store)."""
    store = ctx.store
    if store is None:
        return None
    found = _BACKFILLS.get(store)
    if found is None:
        found = _BACKFILLS[store] = Backfills(store, ctx.settings.backfill_requests_per_minute)
    return found


async def start_if_empty(
    gh: GitHub,
    ctx: JobContext,
    payload: dict[str, Any],
    repo: RepoRef,
    ref: str,
    policy: Policy,
) -> bool:
    """Back-fill the repository's default branch (from ``ref``) unless it has past points
    already; the newest point alone (the census just taken) still counts as empty."""
    runs = backfills(ctx)
    installation_id = (payload.get("installation") or {}).get("id")
    if runs is None or installation_id is None:
        return False
    assert ctx.store is not None
    if len(await ctx.store.points(repo.full_name, include_left=True)) > 1:
        return False
    return runs.start(gh, ctx, installation_id=installation_id, repo=repo, ref=ref, policy=policy)
