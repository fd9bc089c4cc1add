"""Installation lifecycle, every `installation` and `installation_repositories` event here.

- The installation's cached token is dropped whenever its access changes: after a deletion
  or suspension it is useless; after new permissions or a change of repositories a new
  token is needed to see them.
- Newly added repositories get their default branch counted, so their badge works before
  the next push. A few per event: an org-wide install must not start hundreds of downloads
  (the others are counted at their first push).
- Removed repositories' badges go back to unknown.
- The organisation page queues a `FirstCount` for a repository it shows as not counted yet
  (installed while lockin was away, or never pushed to): what adding it here would do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.by_commit import ZERO_SHA
from bot.features import backfill, trend
from bot.github.client import GitHub
from bot.github.errors import GitHubError
from bot.github.payloads import Repository
from bot.github.refs import RepoRef
from bot.review.config_io import load_repo_config
from bot.runtime.context import JobContext
from bot.runtime.jobs import Job
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

#: The event name of a `FirstCount` job (no GitHub event has a dot in its name).
FIRST_COUNT_EVENT = "lockin.first_count"


@dataclass(frozen=True, slots=True)
class FirstCount:
    """The first census of a repository of an installation, asked for by lockin itself."""

    installation: int
    repo: RepoRef
    public: bool

    def job(self, delivery_id: str) -> Job:
        payload = {
            "installation": {"id": self.installation},
            "first_count": {"repository": self.repo.full_name, "public": self.public},
        }
        return Job(delivery_id, FIRST_COUNT_EVENT, payload)

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> FirstCount:
        count = data["first_count"]
        return cls(
            int(data["installation"]["id"]),
            RepoRef.parse(count["repository"]),
            count["public"] is True,
        )


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
        await _added(gh, ctx, [(r.ref, r.public) for r in map(Repository.from_payload, added)])
    elif what in _REMOVED:
        removed = data.get("repositories_removed") or data.get("repositories") or []
        for repository in map(Repository.from_payload, removed):
            await ctx.census.forget_default_branch(repository.ref)
            await trend.set_public(ctx, repository.ref, public=False)  # no longer served


@router.register(FIRST_COUNT_EVENT)
async def on_first_count(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    count = FirstCount.from_payload(event.data)
    await _added(gh, ctx, [(count.repo, count.public)])


def forget_token(event: sansio.Event, ctx: JobContext) -> None:
    installation_id = event.data["installation"]["id"]
    ctx.auth.forget(installation_id)
    ctx.log.info("forgot the installation token (%s %s)", event.event, event.data.get("action"))


async def _added(gh: GitHub, ctx: JobContext, visible: list[tuple[RepoRef, bool]]) -> None:
    """Repositories the installation now reaches, each with whether it is public."""
    for repo, public in visible:
        await ctx.census.set_public(repo, public=public)
        await trend.set_public(ctx, repo, public=public)
    for repo, _ in visible[:SEEDED_PER_EVENT]:
        try:
            await _seed_default_branch(gh, ctx, repo)
        except (ArchiveError, GitHubError) as exc:
            ctx.log.warning("first census of %s failed: %s", repo.full_name, exc)


async def _seed_default_branch(gh: GitHub, ctx: JobContext, repo: RepoRef) -> None:
    store = ctx.census
    if await store.default_branch(repo) is not None:
        return  # a push got there first, with a newer head
    where = {"owner": repo.owner, "repo": repo.name}
    branch = Repository.from_payload(await gh.getitem("/repos/{owner}/{repo}", where)).branch()
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
    await backfill.start_if_empty(gh, ctx, repo, result.sha, config.policy)
