"""The Lock-in dashboard: one issue per repository, kept current by the bot.

Created on the first default-branch census with non-portable code; edited in place when a
push changes what it shows (never when nothing changed); found again by its hidden marker
and the bot's own authorship, under a per-repository lock so racing pushes never make a
second one; re-created at the next push if deleted; left alone once a maintainer closed it.
Ticking its checkbox (someone allowed to recount, per ``recount.allow``) recounts the
default branch; a tick by anyone else is unticked again, so the next tick counts. A
marked section people write in is carried over on every edit.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.by_commit import CensusAt
from bot.engine.census import FileSummary
from bot.engine.frameworks import wanted
from bot.engine.kernels import kernel_rules
from bot.features.events import RepoRef, repo_of
from bot.github.contents import BlobReader, file_contents
from bot.github.errors import GitHubError, NotFound
from bot.github.payloads import Push
from bot.policy.codeowners import LOCATIONS
from bot.policy.config import Policy
from bot.policy.overview import overview
from bot.render.dashboard import (
    MARKER,
    bot_part,
    dashboard_body,
    notes_of,
    recount_ticked,
    untick,
)
from bot.render.org_summary import org_summary
from bot.render.plan_out import overview_document
from bot.review.config_io import load_repo_config
from bot.review.dashboard_issue import find_dashboard
from bot.review.decisions_io import recorded_decisions
from bot.review.sticky import bot_login
from bot.sources.archive import ArchiveError

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.runtime.context import JobContext

router = Router()

#: Files read through the API to name kernels and find frameworks: bounded per dashboard.
MAX_KERNEL_FILES = 100
MAX_DEPENDENCY_FILES = 20
_READS = 8  # concurrent reads


@router.register("push")
async def on_push(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    push = Push.from_payload(event.data)
    if push.default_branch_head is None:
        return
    await refresh(gh, ctx, push.repository.ref, push.repository.branch())


async def _branch_head(gh: GitHub, repo: RepoRef, branch: str) -> str:
    head = await gh.getitem(f"/repos/{repo.full_name}/commits?sha={quote(branch)}&per_page=1")
    return str(head[0]["sha"])


@router.register("issues", action="edited")
async def on_edited(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """The recount checkbox was ticked on our dashboard by someone allowed to recount."""
    data = event.data
    issue = data["issue"]
    before = ((data.get("changes") or {}).get("body") or {}).get("from")
    if MARKER not in (issue.get("body") or "") or not recount_ticked(issue.get("body")):
        return
    if recount_ticked(before):
        return  # already ticked: another edit of the same issue
    me = await bot_login(ctx.auth.app_client(), ctx.settings.app_id or "")
    if (issue.get("user") or {}).get("login", "").lower() != me.lower():
        return  # a copy of our marker in someone else's issue
    repository = data["repository"]
    repo = repo_of(event)
    branch = repository["default_branch"]
    config = await load_repo_config(gh, repo, branch)
    from bot.features.commands import may_run  # the same rule as /lockin recount

    if not await may_run(gh, repo, data["sender"]["login"], None, config.policy):
        ctx.log.info("dashboard recount by %s refused", data["sender"]["login"])
        # Left ticked, the box would make a maintainer's tick an untick: nothing would run.
        await _untick(gh, repo, issue["number"])
        return
    await refresh(gh, ctx, repo, branch, force=True)


async def _untick(gh: GitHub, repo: RepoRef, number: int) -> None:
    """Untick the recount box in the issue as it is now (people may have edited it since
    the event), changing nothing else."""
    url = f"/repos/{repo.full_name}/issues/{number}"
    body = (await gh.getitem(url)).get("body") or ""
    if recount_ticked(body):
        await gh.patch(url, data={"body": untick(body)})


async def refresh(
    gh: GitHub,
    ctx: JobContext,
    repo: RepoRef,
    branch: str,
    *,
    force: bool = False,
    points: list[tuple[str, int]] | None = None,
) -> str:
    """Bring the dashboard to the census of the branch's head; returns what was done (for logs and
    tests): created, updated, unchanged, closed, disabled, none or refused."""
    config = await load_repo_config(gh, repo, branch)
    policy = config.policy
    if not policy.dashboard.enabled:
        return "disabled"
    store = ctx.census
    try:
        # The branch's head now, not a push's: deliveries of racing pushes arrive and run
        # in any order, and the dashboard must never go back to an older head's figures.
        # Asked only once the dashboard is on, so a repository without one pays nothing.
        sha = await _branch_head(gh, repo, branch)
        counted = await store.census_at(gh, repo, sha, policy)
    except ArchiveError as exc:
        ctx.log.warning("dashboard census of %s@%s refused: %s", repo.full_name, sha, exc)
        return "refused"
    # One writer per repository at a time (a Redis lock under `lockin worker`), so two
    # pushes racing cannot both find no issue and both create one.
    async with ctx.census.locks.hold(f"dashboard:{repo.full_name}".lower()):
        me = await bot_login(ctx.auth.app_client(), ctx.settings.app_id or "")
        issue = await find_dashboard(gh, repo, me)
        if issue is not None and issue.get("state") == "closed":
            return "closed"  # a maintainer closed it: their call
        if issue is None and not counted.census.totals.non_portable_lines and not force:
            return "none"
        document = await _document(gh, ctx, repo, branch, counted, policy)
        if points is None:
            points = await _trend_points(ctx, repo, counted)
        body = dashboard_body(
            document,
            _figures(counted),
            points=points,
            notes=notes_of(issue.get("body") if issue else None),
        )
        issues = f"/repos/{repo.full_name}/issues"
        if issue is None:
            settings = policy.dashboard
            created = {"title": settings.title, "body": body, "labels": list(settings.labels)}
            issue = await gh.post(issues, data=created)
            result = "created"
        elif bot_part(issue.get("body")) == bot_part(body):
            result = "unchanged"
        else:
            await gh.patch(f"{issues}/{issue['number']}", data={"body": body})
            result = "updated"
        if ctx.store is not None:
            # What the organisation pages show of this repository's owners and costs.
            url = issue.get("html_url") if isinstance(issue, dict) else None
            summary = org_summary(document, url)
            await ctx.store.save_report(repo, sha, summary, dt.datetime.now(dt.UTC))
    ctx.log.info("dashboard of %s@%s: %s", repo.full_name, sha, result)
    return result


def _figures(counted: CensusAt) -> dict[str, Any]:
    census = counted.census
    return {
        "sha": counted.sha,
        "code_lines": census.totals.code_lines,
        "non_portable_lines": census.totals.non_portable_lines,
        "nvidia_share": census.nvidia_share(),
    }


async def _document(
    gh: GitHub,
    ctx: JobContext,
    repo: RepoRef,
    branch: str,
    counted: CensusAt,
    policy: Policy,
) -> dict[str, Any]:
    files = counted.census.files()
    kernel_ids = frozenset(kernel_rules())
    # The bot's census keeps counts, not findings: files with kernel lines are read and
    # classified again to find and name their kernels.
    kernel_paths = [s.path for s in files if kernel_ids.intersection(s.rule_lines)]
    dependency_paths = [s.path for s in files if wanted(s.path) and not s.path.endswith(".py")]
    wanted_paths = [
        *LOCATIONS,
        *kernel_paths[:MAX_KERNEL_FILES],
        *dependency_paths[:MAX_DEPENDENCY_FILES],
    ]
    limit = asyncio.Semaphore(_READS)

    async def read(path: str) -> tuple[str, bytes | None]:
        async with limit:
            try:
                return path, await file_contents(gh, repo, path, counted.sha)
            except (NotFound, GitHubError):
                return path, None

    contents = dict(await asyncio.gather(*(read(p) for p in wanted_paths)))
    reader = BlobReader(gh, repo, ctx.caches.blobs)
    records = await recorded_decisions(gh, reader, repo=repo, default_branch=branch, policy=policy)
    by_path = {s.path: s for s in files}
    kernels = [
        (path, data)
        for path in kernel_paths[:MAX_KERNEL_FILES]
        if (data := contents.get(path)) is not None
    ]
    for report in await ctx.engine.reports(kernels):
        by_path[report.path] = FileSummary.of(report)
    found = overview(
        list(by_path.values()),
        [p for p in wanted_paths if contents.get(p) is not None],
        contents.get,
        policy,
        records=records,
    )
    return overview_document(found, root=repo.full_name)


#: Points the dashboard's trend chart shows at most (the newest): a readable chart.
MAX_CHART_POINTS = 30


async def _trend_points(ctx: JobContext, repo: RepoRef, counted: CensusAt) -> list[tuple[str, int]]:
    """Non-portable lines of the default branch each time they changed, from the trend
    store, ending with the census this refresh shows (the push's own point may not be
    recorded yet: handlers of one event run in no set order); none without a store."""
    if ctx.store is None:
        return []
    points = [
        (point.date.strftime("%Y-%m-%d"), point.non_portable_lines)
        for point in await ctx.store.points(repo)
        if point.commit != counted.sha
    ]
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    points.append((today, counted.census.totals.non_portable_lines))
    # A point that repeats the figure before it is no change: kept out, so a push that moves
    # no figure leaves the body (and the issue) as it was.
    changes = [pt for i, pt in enumerate(points) if i == 0 or pt[1] != points[i - 1][1]]
    return changes[-MAX_CHART_POINTS:]
