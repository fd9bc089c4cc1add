"""What GitHub shows about the decision records a pull request adds or changes: its reviews,
the owners' accounts and teams, and the records' code owners (bot.policy.approvals judges).

- A linked record whose file reads the same on the default branch was reviewed when it
  landed there and counts as before; any other linked file needs an approval, and so does
  an issue record, given after the issue's last edit.
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
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.github.contents import file_contents
from bot.github.errors import GitHubError, NotFound
from bot.policy.approvals import MAX_OWNERS, Approver, RecordReview, parse_owners
from bot.policy.codeowners import LOCATIONS, CodeOwners
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.decisions import parse_ref
from bot.policy.gate import LinkedDecision

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.payloads import PullRequest
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


@dataclass(frozen=True)
class _Approval:
    login: str
    commit: str  # the commit it approved
    at: str  # when it was submitted (ISO 8601, as GitHub writes it)


@dataclass(frozen=True)
class _Unreviewed:
    """A linked record that is not on the default branch as it reads."""

    owner: str | None
    path: str | None  # of a file; None for an issue
    issue_edited: str = ""  # the issue's updated_at: an approval must be later


async def with_reviews(
    gh: GitHub,
    linked: list[LinkedDecision],
    *,
    repo: RepoRef,
    prs: list[PullRequest],
    head_sha: str,
    default_branch: str,
    read_at_head: bool,
    read: Reader | None = None,
) -> list[LinkedDecision]:
    """``linked`` with a `RecordReview` on each record the change adds or changes, from the
    reviews of ``prs`` (the pull request; a merge group's pull requests), and on each issue
    record (anyone, the PR's author too, may open and edit one). ``read_at_head``: linked
    files were read at ``head_sha`` (the policy does not require them on the default
    branch); otherwise each is the default branch's and counts as is. ``read``: where file
    texts come from (the contents API; the Action reads its checkout)."""

    async def contents(path: str, ref: str) -> bytes | None:
        return await file_contents(gh, repo, path, ref)

    lookups = _Lookups(gh, read or contents)
    changed = await _unreviewed(gh, lookups, linked, repo, head_sha, default_branch, read_at_head)
    if not changed:
        return linked
    authors = [pr.author for pr in prs]
    approvals = [
        approval
        for pr in prs
        for approval in await _approvals(gh, repo, pr.number)
        if approval.login.lower() != pr.author.lower()  # never by the pull request's own author
    ]
    codeowners = await _codeowners(lookups, default_branch)
    out = list(linked)
    for i, record in changed.items():
        owners = parse_owners(record.owner)
        unknown = tuple(
            [name for name in owners.names[:MAX_OWNERS] if not await lookups.exists(name)]
        )
        code_owners = codeowners.owners(record.path) if codeowners and record.path else ()
        teams = {t.lower() for t in (*owners.teams, *parse_owners(code_owners, emails=True).teams)}
        teams -= {name.removeprefix("@").lower() for name in unknown}
        approvers: list[Approver] = []
        for approval in approvals:
            if not await _approves(lookups, approval, record, head_sha):
                continue
            member_of = frozenset(
                [t for t in sorted(teams)[:MAX_OWNERS] if await lookups.member(approval.login, t)]
            )
            approvers.append(Approver(approval.login, member_of))
        author = authors[0] if len(authors) == 1 else None
        review = RecordReview(author, tuple(approvers), code_owners, unknown)
        out[i] = replace(out[i], review=review)
    return out


async def _unreviewed(
    gh: GitHub,
    lookups: _Lookups,
    linked: list[LinkedDecision],
    repo: RepoRef,
    head_sha: str,
    default_branch: str,
    read_at_head: bool,
) -> dict[int, _Unreviewed]:
    """The linked records that need an approval, by their index in ``linked``."""
    changed: dict[int, _Unreviewed] = {}
    for i, link in enumerate(linked):
        record = link.record
        if record is None:
            continue  # unreadable: the gate says why
        if record.path is None:
            ref = parse_ref(link.ref, owner=repo.owner, repo=repo.name)
            if ref.kind == "issue":
                issue = await gh.getitem(f"/repos/{repo.full_name}/issues/{ref.value}")
                changed[i] = _Unreviewed(record.owner, None, str(issue.get("updated_at") or ""))
        elif read_at_head:
            now = await lookups.text(record.path, head_sha)
            if now is None or now != await lookups.text(record.path, default_branch):
                changed[i] = _Unreviewed(record.owner, record.path)
    return changed


async def _approves(
    lookups: _Lookups, approval: _Approval, record: _Unreviewed, head_sha: str
) -> bool:
    """Whether the approval saw the record as it reads now: a file as at the head, an issue
    not edited since (an approval of one text never approves another)."""
    if record.path is None:
        return bool(record.issue_edited) and approval.at >= record.issue_edited
    if approval.commit == head_sha:
        return True
    then = await lookups.text(record.path, approval.commit)
    return then is not None and then == await lookups.text(record.path, head_sha)


async def _approvals(gh: GitHub, repo: RepoRef, number: int) -> list[_Approval]:
    """Every reviewer whose standing review approves, oldest first."""
    standing: dict[str, tuple[str, _Approval]] = {}  # lower login -> (state, review)
    url = f"/repos/{repo.full_name}/pulls/{number}/reviews"
    async for review in gh.getiter(url):  # chronological, as GitHub lists them
        login, state = (review.get("user") or {}).get("login"), review.get("state")
        if login and state in _STANDING:
            commit, at = review.get("commit_id") or "", review.get("submitted_at") or ""
            standing[login.lower()] = (state, _Approval(login, commit, at))
    # An approval GitHub shows without a commit cannot say which text it approved.
    approved = [a for state, a in standing.values() if state == "APPROVED" and a.commit]
    return approved[:MAX_APPROVERS]


async def _codeowners(lookups: _Lookups, default_branch: str) -> CodeOwners | None:
    """CODEOWNERS where GitHub looks for it, on the default branch (never the PR's)."""
    for location in LOCATIONS:
        data = await lookups.text(location, default_branch)
        if data is not None:
            return parse_codeowners(data, location)
    return None
