"""What GitHub shows about the decision records a pull request adds or changes: its reviews,
the owners' accounts and teams, and the records' code owners (bot.policy.approvals judges).

- A linked record whose file reads the same on the default branch was reviewed when it
  landed there and counts as before; any other linked file needs an approval.
- A reviewer's latest review that approves, requests changes or was dismissed is their
  state, as GitHub's merge box shows it (a later comment-only review changes nothing). An
  approval counts for a record when it was given on the current head, or on a commit where
  the record read as it does now: an approval of one text never approves another.
- Owners and team memberships are looked up once per job; CODEOWNERS is read from the
  default branch, never from the pull request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from bot.github.contents import file_contents
from bot.github.errors import GitHubError, NotFound
from bot.policy.approvals import MAX_OWNERS, Approver, RecordReview, parse_owners
from bot.policy.codeowners import LOCATIONS, CodeOwners
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.gate import LinkedDecision

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef

#: Review states that set where a reviewer stands; COMMENTED and PENDING leave it as it was.
_STANDING = frozenset({"APPROVED", "CHANGES_REQUESTED", "DISMISSED"})
#: Approvers whose membership of owner teams is asked: bounds the requests a PR costs.
MAX_APPROVERS = 20

#: A file's bytes at a commit or branch (None: no such file there, or no such commit).
Reader = Callable[[str, str], Awaitable[bytes | None]]


@dataclass
class _Lookups:
    """GitHub's answers within one job, each asked once."""

    gh: GitHub
    read: Reader
    accounts: dict[str, bool] = field(default_factory=dict)  # "@name" -> exists
    memberships: dict[tuple[str, str], bool] = field(default_factory=dict)
    texts: dict[tuple[str, str], bytes | None] = field(default_factory=dict)

    async def exists(self, name: str) -> bool:
        key = name.lower()
        if key not in self.accounts:
            account = name.removeprefix("@")
            org, _, team = account.partition("/")
            if team:
                url = f"/orgs/{quote(org)}/teams/{quote(team)}/members?per_page=1"
            else:
                url = f"/users/{quote(account)}"
            try:
                await self.gh.getitem(url)
                self.accounts[key] = True
            except NotFound:
                self.accounts[key] = False
            except GitHubError as exc:
                if exc.status != 403:
                    raise
                # A token that may not read the organisation's teams (an Actions job's
                # GITHUB_TOKEN) cannot tell; the team approves nobody it cannot see either.
                self.accounts[key] = True
        return self.accounts[key]

    async def member(self, login: str, team: str) -> bool:
        key = (login.lower(), team)
        if key not in self.memberships:
            org, _, slug = team.partition("/")
            url = f"/orgs/{quote(org)}/teams/{quote(slug)}/memberships/{quote(login)}"
            try:
                answer = await self.gh.getitem(url)
                self.memberships[key] = answer.get("state") == "active"
            except NotFound:
                self.memberships[key] = False  # not a member (or no such team)
            except GitHubError as exc:
                if exc.status != 403:
                    raise
                self.memberships[key] = False  # the token may not read the team
        return self.memberships[key]

    async def text(self, path: str, ref: str) -> bytes | None:
        if (path, ref) not in self.texts:
            self.texts[path, ref] = await self.read(path, ref)
        return self.texts[path, ref]


async def with_reviews(
    gh: GitHub,
    linked: list[LinkedDecision],
    *,
    repo: RepoRef,
    prs: list[dict[str, Any]],
    head_sha: str,
    default_branch: str,
    read_at_head: bool,
    read: Reader | None = None,
) -> list[LinkedDecision]:
    """``linked`` with a `RecordReview` on each record the change adds or changes, from the
    reviews of ``prs`` (the pull request; a merge group's pull requests). ``read_at_head``:
    linked files were read at ``head_sha`` (the policy does not require them on the default
    branch); otherwise every one is the default branch's and counts as is. ``read``: where
    file texts come from (the contents API; the Action reads its checkout)."""
    if not read_at_head:
        return linked

    async def contents(path: str, ref: str) -> bytes | None:
        return await file_contents(gh, repo, path, ref)

    lookups = _Lookups(gh, read or contents)
    changed: dict[int, tuple[str, str | None]] = {}  # index in linked -> path, owner
    for i, link in enumerate(linked):
        if link.record is None or link.record.path is None:
            continue  # unreadable, or an issue
        path = link.record.path
        now = await lookups.text(path, head_sha)
        if now is None or now != await lookups.text(path, default_branch):
            changed[i] = (path, link.record.owner)
    if not changed:
        return linked
    authors = [(pr.get("user") or {}).get("login") or "" for pr in prs]
    approvals = [
        (login, commit)
        for pr, author in zip(prs, authors, strict=True)
        for login, commit in await _approvals(gh, repo, pr["number"])
        if login.lower() != author.lower()  # never by the pull request's own author
    ]
    codeowners = await _codeowners(lookups, default_branch)
    out = list(linked)
    for i, (path, owner) in changed.items():
        owners = parse_owners(owner)
        unknown = tuple(
            [name for name in owners.names[:MAX_OWNERS] if not await lookups.exists(name)]
        )
        code_owners = codeowners.owners(path) if codeowners else ()
        teams = {t.lower() for t in (*owners.teams, *parse_owners(code_owners, emails=True).teams)}
        teams -= {name.removeprefix("@").lower() for name in unknown}
        current = await lookups.text(path, head_sha)
        approvers: list[Approver] = []
        for login, commit in approvals:
            if commit != head_sha and await lookups.text(path, commit) != current:
                continue  # approved another text of the record (or a change without it)
            member_of = frozenset(
                [t for t in sorted(teams)[:MAX_OWNERS] if await lookups.member(login, t)]
            )
            approvers.append(Approver(login, member_of))
        author = authors[0] if len(authors) == 1 else None
        review = RecordReview(author, tuple(approvers), code_owners, unknown)
        out[i] = replace(out[i], review=review)
    return out


async def _approvals(gh: GitHub, repo: RepoRef, number: int) -> list[tuple[str, str]]:
    """(login, commit) of every reviewer whose standing review approves, oldest first."""
    standing: dict[str, tuple[str, str, str]] = {}  # lower login -> (login, state, commit)
    url = f"/repos/{repo.full_name}/pulls/{number}/reviews"
    async for review in gh.getiter(url):  # chronological, as GitHub lists them
        user = review.get("user") or {}
        login, state = user.get("login"), review.get("state")
        if login and state in _STANDING:
            standing[login.lower()] = (login, state, review.get("commit_id") or "")
    approved = [
        (login, commit) for login, state, commit in standing.values() if state == "APPROVED"
    ]
    # An approval GitHub shows without a commit cannot say which text it approved.
    return [(login, commit) for login, commit in approved if commit][:MAX_APPROVERS]


async def _codeowners(lookups: _Lookups, default_branch: str) -> CodeOwners | None:
    """CODEOWNERS where GitHub looks for it, on the default branch (never the PR's)."""
    for location in LOCATIONS:
        data = await lookups.text(location, default_branch)
        if data is not None:
            return parse_codeowners(data, location)
    return None
