"""Past points of a default branch, counted in the background when its history is empty.

On installation (and on `/lockin recount` while a repository has no point) up to
``history_backfill_points`` earlier commits of the default branch are counted from their
tarballs and recorded at their commit dates. The commits are spread evenly over the newest
hundred the commits API lists (one request). Every request the back-fill makes waits its
turn in the app's per-installation pacer (``bot.runtime.backfill_pacing``), so it uses at most
``backfill_requests_per_minute`` of an installation's API budget; PR checks and pushes
never wait behind it.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

from bot.features.trend import commit_date_of, record_census
from bot.github.errors import GitHubError
from bot.sources.archive import ArchiveError
from bot.store import StoreUnavailable

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef
    from bot.policy.config import Policy
    from bot.runtime.backfill_pacing import RequestPacer
    from bot.runtime.context import JobContext

#: Commits listed to choose from: one page of the commits API.
LISTED = 100


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


def _start(
    gh: GitHub,
    ctx: JobContext,
    *,
    installation_id: int,
    repo: RepoRef,
    ref: str,
    policy: Policy,
) -> bool:
    """Start the back-fill of a repository unless one is running; it outlives the job."""
    store, slots = ctx.store, ctx.backfills
    assert store is not None
    if ctx.settings.history_backfill_points == 0 or not slots.claim(repo.full_name):
        return False
    pacer = slots.pacer(installation_id)
    work = _logged(ctx, repo.full_name, _count_past_points(gh, ctx, pacer, repo, ref, policy))
    task = store.run_in_background(work)
    task.add_done_callback(lambda _: slots.release(repo.full_name))
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
    known = {p.commit for p in await ctx.store.points(repo, include_left=True)}
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


async def start_if_empty(
    gh: GitHub,
    ctx: JobContext,
    repo: RepoRef,
    ref: str,
    policy: Policy,
) -> bool:
    """Back-fill the repository's default branch (from ``ref``) unless it has past points
    already; the newest point alone (the census just taken) still counts as empty."""
    if ctx.store is None:
        return False
    try:
        if len(await ctx.store.points(repo, include_left=True)) > 1:
            return False
    except StoreUnavailable:
        return False  # the next recount or installation starts it once the store is back
    return _start(gh, ctx, installation_id=ctx.installation_id, repo=repo, ref=ref, policy=policy)
