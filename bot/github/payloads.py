"""The repository, the pull request, the push and the merge group as lockin reads them:
built once from a webhook payload or a REST answer (the same shapes), then passed down
typed instead of as GitHub's dicts.

Each constructor reads only what lockin uses and is tolerant where GitHub documents a
field as nullable or leaves it out of some shapes: a fork pull request whose head
repository was deleted (``head.repo: null``), a ghost author (``user: null``), an empty
description (``body: null``), a branch deletion (``deleted: true``, ``after`` all zeros,
``head_commit: null``), the short repository objects installation events list (no
``default_branch``, ``size`` or ``html_url``). A field lockin cannot do without (a name, a
number, a head SHA) missing raises ``KeyError``: that is not a payload GitHub sends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.github.refs import PullRef, RepoRef

#: What GitHub writes for "no commit": ``before`` of a created branch, ``after`` of a deleted one.
_NO_COMMIT = re.compile(r"0{40}(0{24})?")


def _commit(sha: object) -> str | None:
    """A commit SHA, or None for a missing one or GitHub's all-zeros "no commit"."""
    if not isinstance(sha, str) or not sha or _NO_COMMIT.fullmatch(sha):
        return None
    return sha


def _login(account: object) -> str:
    """An account's login; "" for a deleted one (GitHub sends ``null``)."""
    login = account.get("login") if isinstance(account, Mapping) else None
    return login if isinstance(login, str) else ""


@dataclass(frozen=True, slots=True)
class Repository:
    ref: RepoRef
    #: GitHub's id: it survives renames and transfers. None in a payload that omits it.
    id: int | None
    #: A repository whose visibility is not said counts as private: shown to no one.
    private: bool
    #: None in the short objects installation events list.
    default_branch: str | None
    html_url: str
    #: Kilobytes, as the REST API estimates them; 0 when not given.
    size_kb: int

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Repository:
        """A ``repository`` object: an event's, a pull request's ``base.repo``, one of an
        installation event's list, or ``GET /repos/{owner}/{repo}``."""
        ref = RepoRef.parse(str(data["full_name"]))
        repo_id = data.get("id")
        branch = data.get("default_branch")
        size = data.get("size")
        return cls(
            ref=ref,
            id=repo_id if isinstance(repo_id, int) else None,
            private=data.get("private") is not False,
            default_branch=branch if isinstance(branch, str) and branch else None,
            html_url=str(data.get("html_url") or f"https://github.com/{ref.full_name}"),
            size_kb=size if isinstance(size, int) else 0,
        )

    @property
    def public(self) -> bool:
        return not self.private

    def branch(self) -> str:
        """The default branch, for the callers that cannot go on without it."""
        if self.default_branch is None:
            raise KeyError(f"{self.ref.full_name}: the payload names no default branch")
        return self.default_branch


def moved_from(repository: Repository, changes: Mapping[str, Any] | None) -> RepoRef:
    """The name a ``repository`` event's repository had before it was renamed or
    transferred (``changes``); its own name when the event says nothing of a move."""
    changes = changes or {}
    old_name = ((changes.get("repository") or {}).get("name") or {}).get("from")
    previous = (changes.get("owner") or {}).get("from") or {}
    old_owner = _login(previous.get("user")) or _login(previous.get("organization"))
    return RepoRef(
        old_owner or repository.ref.owner,
        old_name if isinstance(old_name, str) and old_name else repository.ref.name,
    )


@dataclass(frozen=True, slots=True)
class PullRequest:
    pull: PullRef
    #: "open" or "closed" (a merged pull request is closed).
    state: str
    title: str
    #: The description; "" when there is none.
    body: str
    #: The author's login; "" for a deleted account.
    author: str
    head_sha: str
    head_ref: str
    #: Where the head branch lives; None for a fork GitHub no longer has.
    head_repo: RepoRef | None
    base_sha: str
    base_ref: str
    #: The repository the pull request merges into.
    base: Repository
    #: 0 when not given (the pull request lists GitHub attaches to other objects).
    changed_files: int
    commits: int

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> PullRequest:
        """A ``pull_request`` object: an event's, or ``GET /repos/{o}/{r}/pulls/{n}``."""
        head, base = data["head"], data["base"]
        head_repo = head.get("repo")
        base_repo = Repository.from_payload(base["repo"])
        return cls(
            pull=PullRef(base_repo.ref, int(data["number"])),
            state=str(data.get("state") or "open"),
            title=str(data.get("title") or ""),
            body=str(data.get("body") or ""),
            author=_login(data.get("user")),
            head_sha=str(head["sha"]),
            head_ref=str(head.get("ref") or ""),
            head_repo=RepoRef.parse(head_repo["full_name"]) if head_repo else None,
            base_sha=str(base["sha"]),
            base_ref=str(base.get("ref") or ""),
            base=base_repo,
            changed_files=_count(data.get("changed_files")),
            commits=_count(data.get("commits")),
        )

    @property
    def number(self) -> int:
        return self.pull.number

    @property
    def is_open(self) -> bool:
        return self.state == "open"

    @property
    def from_fork(self) -> bool:
        """Whether the head lives in another repository (or in one that is gone)."""
        return self.head_repo != self.base.ref


def _count(value: object) -> int:
    return value if isinstance(value, int) and value > 0 else 0


@dataclass(frozen=True, slots=True)
class Push:
    repository: Repository
    #: The full ref pushed: ``refs/heads/main``, ``refs/tags/v1``.
    ref: str
    #: The ref's commit before the push; None when the push created the ref.
    before: str | None
    #: Its commit after; None when the push deleted the ref.
    after: str | None
    forced: bool
    #: The pushed head commit and its timestamp as GitHub writes it; None without one.
    head_commit: str | None
    head_commit_time: str | None

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Push:
        """A ``push`` event."""
        head = data.get("head_commit") or {}
        timestamp = head.get("timestamp")
        return cls(
            repository=Repository.from_payload(data["repository"]),
            ref=str(data["ref"]),
            before=_commit(data.get("before")),
            after=None if data.get("deleted") else _commit(data.get("after")),
            forced=bool(data.get("forced")),
            head_commit=_commit(head.get("id")),
            head_commit_time=timestamp if isinstance(timestamp, str) and timestamp else None,
        )

    @property
    def deleted(self) -> bool:
        return self.after is None

    @property
    def default_branch_head(self) -> str | None:
        """The commit the push moved the repository's default branch to; None for a push
        to another ref, or one that deleted the branch."""
        branch = self.repository.default_branch
        return self.after if branch and self.ref == f"refs/heads/{branch}" else None


@dataclass(frozen=True, slots=True)
class MergeGroup:
    head_sha: str
    base_sha: str
    #: ``refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha>``: names the last pull request.
    head_ref: str

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> MergeGroup:
        """A ``merge_group`` event's ``merge_group``."""
        return cls(
            head_sha=str(data["head_sha"]),
            base_sha=str(data["base_sha"]),
            head_ref=str(data.get("head_ref") or ""),
        )
