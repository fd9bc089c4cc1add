"""The default branch's trend: a point per census the bot takes of it, kept in the store.

Each push the census follows records the pushed commit's figures at the commit's date;
recording is idempotent (a redelivered push finds its point there). After a force push the
points of the commits that left the branch are marked, so a trend never mixes two
histories. The trend shown on pull requests is read back from here.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from bot.engine.trend import census_figures
from bot.store import Point

if TYPE_CHECKING:
    from bot.census.by_commit import CensusAt
    from bot.github.client import GitHub
    from bot.github.payloads import Push
    from bot.github.refs import RepoRef
    from bot.runtime.context import JobContext


def parse_date(text: str) -> dt.datetime:
    """A GitHub timestamp (``2026-01-02T03:04:05Z`` or with an offset) in UTC."""
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC)


async def record_census(
    ctx: JobContext, repo: RepoRef, result: CensusAt, date: dt.datetime
) -> bool:
    """Keep ``result`` as the point of its commit; False when it was kept before or no
    store is open."""
    if ctx.store is None:
        return False
    point = Point.from_figures(result.sha, date, census_figures(result.census))
    return await ctx.store.record_point(repo, point)


async def record_push(gh: GitHub, ctx: JobContext, push: Push, result: CensusAt) -> None:
    """A push to the default branch was counted: mark what a force push removed, then keep
    the new head's point at its commit date."""
    if ctx.store is None:
        return
    repo = push.repository.ref
    await set_public(ctx, repo, public=push.repository.public)
    if push.forced and push.before:
        await _mark_left_branch(gh, ctx, repo, before=push.before, after=result.sha)
    if push.head_commit == result.sha and push.head_commit_time:
        date = parse_date(push.head_commit_time)
    else:
        date = await commit_date(gh, repo, result.sha)
    await record_census(ctx, repo, result, date)


async def commit_date(gh: GitHub, repo: RepoRef, sha: str) -> dt.datetime:
    """A commit's committer date, by comparing the commit with itself (a documented read
    that names the commit in full)."""
    compare = await gh.getitem(
        "/repos/{owner}/{repo}/compare/{basehead}",
        {"owner": repo.owner, "repo": repo.name, "basehead": f"{sha}...{sha}"},
    )
    return commit_date_of(compare["base_commit"])


def commit_date_of(commit: dict[str, Any]) -> dt.datetime:
    """The committer date of a commit as the REST API shows one."""
    return parse_date(commit["commit"]["committer"]["date"])


async def _mark_left_branch(
    gh: GitHub, ctx: JobContext, repo: RepoRef, *, before: str, after: str
) -> None:
    # The commits reachable from the old head but not the new one left the branch; the
    # compare API lists up to 250 of them, the newest pushes' points are among those.
    compare = await gh.getitem(
        "/repos/{owner}/{repo}/compare/{basehead}",
        {"owner": repo.owner, "repo": repo.name, "basehead": f"{after}...{before}"},
    )
    left = [c["sha"] for c in compare.get("commits") or []]
    assert ctx.store is not None
    marked = await ctx.store.mark_left_branch(repo, left)
    if marked:
        ctx.log.info("force push on %s: %d points left the branch", repo.full_name, marked)


async def set_public(ctx: JobContext, repo: RepoRef, *, public: bool) -> None:
    """Record a repository's visibility in the trend store (when one is open)."""
    if ctx.store is not None:
        await ctx.store.set_public(repo, public=public)
