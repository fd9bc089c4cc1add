"""The fake's in-memory GitHub: repositories, their history, issues, PRs, comments, check runs.

Tests arrange state with the methods here (commit, open_pr, add_comment, ...) and assert on the
same objects after the bot has talked to the fake over HTTP.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from .diffs import FileChange, diff_snapshots
from .gitdata import Commit, ObjectStore

Files = dict[str, bytes | str | None]


def iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class Ids:
    """Global id sequences: GitHub ids are unique across repositories."""

    def __init__(self) -> None:
        self._counters: dict[str, itertools.count[int]] = {}

    def next(self, kind: str) -> int:
        start = {"repo": 100_000, "comment": 1_000_000, "check_run": 5_000_000}.get(kind, 1)
        return next(self._counters.setdefault(kind, itertools.count(start)))


@dataclass
class Issue:
    number: int
    title: str
    body: str
    labels: list[str]
    assignees: list[str]
    user: str
    is_pr: bool = False
    state: str = "open"
    id: int = 0
    created_at: str = ""
    updated_at: str = ""  # set by a test that edits the issue; else its creation


@dataclass
class Review:
    id: int
    user: str
    state: str  # APPROVED | CHANGES_REQUESTED | COMMENTED | DISMISSED | PENDING
    commit_id: str
    submitted_at: str
    body: str = ""


@dataclass
class Team:
    """An organisation's team: its members' logins and their membership state."""

    org: str
    slug: str
    members: dict[str, str] = field(default_factory=dict)  # login -> "active" | "pending"


@dataclass
class PullRequest:
    number: int
    head_sha: str
    base_ref: str
    head_ref: str
    body: str
    title: str
    user: str
    head_repo: Repo
    base_repo: Repo
    draft: bool = False
    state: str = "open"
    patch_omitted: set[str] = field(default_factory=set)
    binary: set[str] = field(default_factory=set)
    # Fields of a listed file to show differently (e.g. {"status": "copied"}): listings
    # the fake's own diff does not produce, such as copies and submodule bumps.
    listed_as: dict[str, dict[str, Any]] = field(default_factory=dict)
    id: int = 0
    created_at: str = ""
    reviews: list[Review] = field(default_factory=list)  # in the order they were submitted

    @property
    def base_sha(self) -> str:
        return self.base_repo.head(self.base_ref)

    @property
    def merge_base(self) -> str:
        store = self.base_repo.store
        return store.merge_base(self.base_sha, self.head_sha) or self.base_sha

    @property
    def is_fork(self) -> bool:
        return self.head_repo is not self.base_repo

    def files(self) -> list[FileChange]:
        return self.base_repo.diff(self.merge_base, self.head_sha)

    def commits(self) -> list[Commit]:
        return self.base_repo.store.commits_between(self.base_sha, self.head_sha)


@dataclass
class Comment:
    id: int
    issue_number: int
    body: str
    user: str
    user_type: str
    created_at: str
    updated_at: str
    performed_via_github_app: bool = False


@dataclass
class Reaction:
    comment_id: int
    content: str
    user: str
    id: int = 0
    created_at: str = ""


@dataclass
class CheckRun:
    id: int
    name: str
    head_sha: str
    status: str
    conclusion: str | None
    started_at: str | None
    completed_at: str | None
    external_id: str
    details_url: str | None
    output: dict[str, Any]
    annotations: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    suite_id: int
    history: list[dict[str, Any]] = field(default_factory=list)

    def snapshot(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "conclusion": self.conclusion,
            "output": dict(self.output),
            "annotations_count": len(self.annotations),
            "actions": list(self.actions),
        }


def to_bytes(data: bytes | str) -> bytes:
    return data.encode() if isinstance(data, str) else data


class Repo:
    def __init__(
        self,
        ids: Ids,
        full_name: str,
        *,
        installation_id: int,
        default_branch: str,
        private: bool,
        fork_of: Repo | None,
    ) -> None:
        self.full_name = full_name
        self.owner, self.name = full_name.split("/")
        self.id = ids.next("repo")
        self.default_branch = default_branch
        self.installation_id = installation_id
        self.private = private
        self.fork_of = fork_of
        self.store = fork_of.store if fork_of else ObjectStore()
        self.branches: dict[str, str] = {}
        self.collaborators: dict[str, str] = {}
        self.issues: dict[int, Issue] = {}
        self.pulls: dict[int, PullRequest] = {}
        self.comments: dict[int, Comment] = {}
        self.check_runs: dict[int, CheckRun] = {}
        self.reactions: list[Reaction] = []
        self.tarballs: dict[str, bytes] = {}
        self.suites: dict[str, int] = {}
        self.created_at = iso(time.time())
        self._ids = ids
        self._diffs: dict[tuple[str, str], list[FileChange]] = {}

    # -- history -----------------------------------------------------------------------------
    def commit(self, files: Files, *, branch: str | None = None, message: str = "update") -> str:
        branch = branch or self.default_branch
        parent = self.branches.get(branch) or self.branches.get(self.default_branch)
        snapshot = dict(self.store.commits[parent].files) if parent else {}
        for path, data in files.items():
            if data is None:
                snapshot.pop(path, None)
            else:
                snapshot[path] = to_bytes(data)
        # Strictly increasing timestamps keep two commits of the same content distinct.
        last = max((c.timestamp for c in self.store.commits.values()), default=0)
        commit = self.store.write_commit(
            snapshot, [parent] if parent else [], message, max(int(time.time()), last + 1)
        )
        self.branches[branch] = commit.sha
        return commit.sha

    def head(self, branch: str | None = None) -> str:
        return self.branches[branch or self.default_branch]

    def resolve(self, ref: str) -> str | None:
        """A branch name, refs/heads/<b>, refs/pull/<n>/head or a (possibly short) commit SHA."""
        name = ref.removeprefix("refs/heads/")
        if name in self.branches:
            return self.branches[name]
        if ref in self.store.commits:
            return ref
        if ref.startswith("refs/pull/") and ref.endswith("/head"):
            pr = self.pulls.get(int(ref.split("/")[2]))
            return pr.head_sha if pr else None
        if len(ref) >= 7 and all(c in "0123456789abcdef" for c in ref):
            return next((s for s in self.store.commits if s.startswith(ref)), None)
        return None

    def tree(self, ref: str) -> dict[str, bytes]:
        sha = self.resolve(ref)
        if sha is None:
            raise KeyError(ref)
        return dict(self.store.commits[sha].files)

    def diff(self, base_sha: str, head_sha: str) -> list[FileChange]:
        key = (base_sha, head_sha)
        if key not in self._diffs:
            commits = self.store.commits
            self._diffs[key] = diff_snapshots(commits[base_sha].files, commits[head_sha].files)
        return self._diffs[key]

    def set_tarball(self, ref: str, payload: bytes) -> None:
        """Serve these bytes instead of the real archive when `ref` is downloaded."""
        self.tarballs[self.resolve(ref) or ref] = payload

    def suite_id(self, head_sha: str) -> int:
        return self.suites.setdefault(head_sha, self._ids.next("check_suite"))

    # -- issues and pull requests ------------------------------------------------------------
    def _next_number(self) -> int:
        return max([*self.issues, 0]) + 1

    def add_issue(
        self,
        title: str,
        body: str,
        *,
        labels: tuple[str, ...] | list[str] = (),
        assignees: tuple[str, ...] | list[str] = (),
        user: str = "octocat",
    ) -> Issue:
        issue = Issue(
            self._next_number(),
            title,
            body,
            list(labels),
            list(assignees),
            user,
            id=self._ids.next("issue"),
            created_at=iso(time.time()),
        )
        self.issues[issue.number] = issue
        return issue

    @property
    def labels_by_issue(self) -> dict[int, list[str]]:
        return {n: issue.labels for n, issue in self.issues.items()}

    def open_pr(
        self,
        *,
        head_branch: str,
        base_branch: str | None = None,
        title: str = "PR",
        body: str = "",
        user: str = "octocat",
        head_repo: Repo | None = None,
        patch_omitted: set[str] | None = None,
        binary: set[str] | None = None,
        draft: bool = False,
    ) -> PullRequest:
        head_repo = head_repo or self
        issue = self.add_issue(title, body, user=user)
        issue.is_pr = True
        pr = PullRequest(
            number=issue.number,
            head_sha=head_repo.head(head_branch),
            base_ref=base_branch or self.default_branch,
            head_ref=head_branch,
            body=body,
            title=title,
            user=user,
            head_repo=head_repo,
            base_repo=self,
            draft=draft,
            patch_omitted=set(patch_omitted or ()),
            binary=set(binary or ()),
            id=self._ids.next("pull"),
            created_at=issue.created_at,
        )
        self.pulls[pr.number] = pr
        return pr

    def review_pr(
        self, number: int, user: str, state: str = "APPROVED", *, commit_id: str | None = None
    ) -> Review:
        """``user`` submits a review of the PR (at its head unless ``commit_id`` says)."""
        pr = self.pulls[number]
        review = Review(
            self._ids.next("review"), user, state, commit_id or pr.head_sha, iso(time.time())
        )
        pr.reviews.append(review)
        return review

    def dismiss_review(self, number: int, review_id: int) -> Review:
        """A maintainer dismisses a review: GitHub keeps it, its state becomes DISMISSED."""
        review = next(r for r in self.pulls[number].reviews if r.id == review_id)
        review.state = "DISMISSED"
        return review

    def push_to_pr(self, number: int, files: Files, message: str = "update") -> str:
        pr = self.pulls[number]
        pr.head_sha = pr.head_repo.commit(files, branch=pr.head_ref, message=message)
        return pr.head_sha

    # -- comments and reactions ----------------------------------------------------------------
    def add_comment(
        self,
        issue_number: int,
        body: str,
        *,
        user: str = "octocat",
        user_type: str = "User",
        via_app: bool = False,
    ) -> Comment:
        now = iso(time.time())
        comment = Comment(
            self._ids.next("comment"), issue_number, body, user, user_type, now, now, via_app
        )
        self.comments[comment.id] = comment
        return comment

    def add_reaction(self, comment_id: int, content: str, user: str) -> tuple[Reaction, bool]:
        """Return the reaction and whether it is new (GitHub answers 201 new, 200 existing)."""
        for reaction in self.reactions:
            if (reaction.comment_id, reaction.content, reaction.user) == (
                comment_id,
                content,
                user,
            ):
                return reaction, False
        reaction = Reaction(comment_id, content, user, self._ids.next("reaction"), iso(time.time()))
        self.reactions.append(reaction)
        return reaction, True

    def next_check_run_id(self) -> int:
        return self._ids.next("check_run")
