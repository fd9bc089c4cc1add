"""Installation lifecycle, every `installation` and `installation_repositories` event here.

- The installation's cached token is dropped whenever its access changes: after a deletion
  or suspension it is useless; after new permissions or a change of repositories a new
  token is needed to see them.
- Newly added repositories get their default branch counted, so their badge works before
  the next push. A few per event: an org-wide install must not start hundreds of downloads
  (the others are counted at their first push).
- Removed repositories' badges go back to unknown.
"""

from __future__ import annotations

from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.by_commit import ZERO_SHA
from bot.features import backfill, trend
from bot.features.events import RepoRef, repos_listed
from bot.github.client import GitHub
from bot.github.errors import GitHubError
from bot.review.config_io import load_repo_config
from bot.runtime.context import JobContext
from bot.sources.archive import ArchiveError

router = Router()

#: Repositories whose default branch is counted when the app is installed on them.
SEEDED_PER_EVENT = 20
#: Actions after which the installation's token no longer grants what it did.
_ACCESS_CHANGED = {
    ("installation", "deleted"),
    ("installation", "suspend"),
    ("installation", "new_permissions_accepted"),
    ("installation_repositories", "added"),
    ("installation_repositories", "removed"),
}
_ADDED = {("installation", "created"), ("installation_repositories", "added")}
_REMOVED = {("installation", "deleted"), ("installation_repositories", "removed")}


@router.register("installation")
@router.register("installation_repositories")
async def on_installation(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    data = event.data
    what = (event.event, data.get("action"))
    # First: a repository just added is seen only with a new token.
    if what in _ACCESS_CHANGED:
        forget_token(event, ctx)
    if what in _ADDED:
        added = data.get("repositories_added") or data.get("repositories") or []
        await _added(gh, ctx, data, added)
    elif what in _REMOVED:
        repositories = data.get("repositories_removed") or data.get("repositories") or []
        for repository, repo in zip(repositories, repos_listed(repositories), strict=True):
            await ctx.census.forget_default_branch(repo)
            await trend.set_public(ctx, {**repository, "private": True})  # no longer served


def forget_token(event: sansio.Event, ctx: JobContext) -> None:
    installation_id = event.data["installation"]["id"]
    ctx.auth.forget(installation_id)
    ctx.log.info("forgot the installation token (%s %s)", event.event, event.data.get("action"))


async def _added(
    gh: GitHub, ctx: JobContext, payload: dict[str, Any], repositories: list[dict[str, Any]]
) -> None:
    for repository, repo in zip(repositories, repos_listed(repositories), strict=True):
        await ctx.census.set_public(repo, public=not repository.get("private", True))
        await trend.set_public(ctx, repository)
    for repo in repos_listed(repositories[:SEEDED_PER_EVENT]):
        try:
            await _seed_default_branch(gh, ctx, payload, repo)
        except (ArchiveError, GitHubError) as exc:
            ctx.log.warning("first census of %s failed: %s", repo.full_name, exc)


async def _seed_default_branch(
    gh: GitHub, ctx: JobContext, payload: dict[str, Any], repo: RepoRef
) -> None:
    store = ctx.census
    if await store.default_branch(repo) is not None:
        return  # a push got there first, with a newer head
    where = {"owner": repo.owner, "repo": repo.name}
    branch = (await gh.getitem("/repos/{owner}/{repo}", where))["default_branch"]
    # Comparing the branch with itself names its head commit in one documented request.
    compare = await gh.getitem(
        "/repos/{owner}/{repo}/compare/{basehead}", {**where, "basehead": f"{branch}...{branch}"}
    )
    config = await load_repo_config(gh, repo, branch)
    result = await store.refresh_default_branch(
        gh,
        repo,
        before=ZERO_SHA,
        after=compare["base_commit"]["sha"],
        policy=config.policy,
        blobs=ctx.caches.blobs,
    )
    date = trend.commit_date_of(compare["base_commit"])
    await trend.record_census(ctx, repo, result, date)
    await backfill.start_if_empty(gh, ctx, payload, repo, result.sha, config.policy)
