"""JSON bodies shaped like GitHub's REST responses (the OpenAPI response schemas).

API URLs point at the fake itself so that a client following `url` fields stays on loopback;
HTML URLs point at github.com as they do on GitHub.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any
from urllib.parse import quote

from .diffs import FileChange
from .gitdata import Commit
from .state import CheckRun, Comment, Issue, PullRequest, Reaction, Repo, Review, Team, iso

WEB = "https://github.com"
EPOCH = "2024-01-01T00:00:00Z"
APP_PERMISSIONS = {
    "checks": "write",
    "contents": "read",
    "issues": "write",
    "metadata": "read",
    "pull_requests": "write",
}
APP_EVENTS = ["check_run", "check_suite", "issue_comment", "pull_request", "push"]
# Suffixes of the hypermedia fields every repository object carries.
REPO_LINKS = {
    "archive_url": "{archive_format}{/ref}",
    "assignees_url": "assignees{/user}",
    "blobs_url": "git/blobs{/sha}",
    "branches_url": "branches{/branch}",
    "collaborators_url": "collaborators{/collaborator}",
    "comments_url": "comments{/number}",
    "commits_url": "commits{/sha}",
    "compare_url": "compare/{base}...{head}",
    "contents_url": "contents/{+path}",
    "contributors_url": "contributors",
    "deployments_url": "deployments",
    "downloads_url": "downloads",
    "events_url": "events",
    "forks_url": "forks",
    "git_commits_url": "git/commits{/sha}",
    "git_refs_url": "git/refs{/sha}",
    "git_tags_url": "git/tags{/sha}",
    "hooks_url": "hooks",
    "issue_comment_url": "issues/comments{/number}",
    "issue_events_url": "issues/events{/number}",
    "issues_url": "issues{/number}",
    "keys_url": "keys{/key_id}",
    "labels_url": "labels{/name}",
    "languages_url": "languages",
    "merges_url": "merges",
    "milestones_url": "milestones{/number}",
    "notifications_url": "notifications{?since,all,participating}",
    "pulls_url": "pulls{/number}",
    "releases_url": "releases{/id}",
    "stargazers_url": "stargazers",
    "statuses_url": "statuses/{sha}",
    "subscribers_url": "subscribers",
    "subscription_url": "subscription",
    "tags_url": "tags",
    "teams_url": "teams",
    "trees_url": "git/trees{/sha}",
}


def node_id(kind: str, number: int) -> str:
    return base64.b64encode(f"0:{kind}{number}".encode()).decode()


def user_id(login: str) -> int:
    """A stable id per login, so the same user looks the same in every response."""
    return int(hashlib.sha256(login.encode()).hexdigest()[:7], 16)


def user_type(login: str) -> str:
    return "Bot" if login.endswith("[bot]") else "User"


class Shapes:
    def __init__(self, api: str, app_id: int, app_slug: str) -> None:
        self.api = api
        self.app_id = app_id
        self.app_slug = app_slug

    # -- people and the app --------------------------------------------------------------------
    def user(self, login: str, kind: str | None = None) -> dict[str, Any]:
        url = f"{self.api}/users/{quote(login)}"
        uid = user_id(login)
        return {
            "login": login,
            "id": uid,
            "node_id": node_id("User", uid),
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
            "gravatar_id": "",
            "url": url,
            "html_url": f"{WEB}/{quote(login)}",
            "followers_url": f"{url}/followers",
            "following_url": f"{url}/following{{/other_user}}",
            "gists_url": f"{url}/gists{{/gist_id}}",
            "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{url}/subscriptions",
            "organizations_url": f"{url}/orgs",
            "repos_url": f"{url}/repos",
            "events_url": f"{url}/events{{/privacy}}",
            "received_events_url": f"{url}/received_events",
            "type": kind or user_type(login),
            "user_view_type": "public",
            "site_admin": False,
        }

    def public_user(self, login: str) -> dict[str, Any]:
        """GET /users/{username}: a user as anyone sees them."""
        return self.user(login) | {
            "name": login,
            "company": None,
            "blog": "",
            "location": None,
            "email": None,
            "hireable": None,
            "bio": None,
            "public_repos": 0,
            "public_gists": 0,
            "followers": 0,
            "following": 0,
            "created_at": "2020-01-01T00:00:00Z",
            "updated_at": "2020-01-01T00:00:00Z",
        }

    def app(self, owner: str = "lockin-dev") -> dict[str, Any]:
        return {
            "id": self.app_id,
            "slug": self.app_slug,
            "node_id": node_id("Integration", self.app_id),
            "client_id": f"Iv1.{self.app_id:016x}",
            "owner": self.user(owner, "Organization"),
            "name": self.app_slug,
            "description": "Counts the GPU code that could not move off its vendor tomorrow",
            "external_url": f"https://{self.app_slug}.example",
            "html_url": f"{WEB}/apps/{self.app_slug}",
            "created_at": EPOCH,
            "updated_at": EPOCH,
            "permissions": dict(APP_PERMISSIONS),
            "events": list(APP_EVENTS),
            "installations_count": 1,
        }

    # -- repositories ----------------------------------------------------------------------------
    def private_user(self, login: str) -> dict[str, Any]:
        """GET /user as a user-to-server token sees it."""
        return self.public_user(login) | {
            "private_gists": 0,
            "total_private_repos": 0,
            "owned_private_repos": 0,
            "disk_usage": 0,
            "collaborators": 0,
            # two_factor_authentication left out: the description's oneOf of private-user
            # and public-user cannot tell them apart otherwise (a GitHub answer that
            # validates is what the fake must give).
            "plan": {
                "name": "free",
                "space": 976562499,
                "private_repos": 10000,
                "collaborators": 0,
            },
        }

    def installation(self, installation_id: int, account: str) -> dict[str, Any]:
        return {
            "id": installation_id,
            "account": self.user(account),
            "repository_selection": "selected",
            "access_tokens_url": f"{self.api}/app/installations/{installation_id}/access_tokens",
            "repositories_url": f"{self.api}/installation/repositories",
            "html_url": f"{WEB}/settings/installations/{installation_id}",
            "app_id": self.app_id,
            "app_slug": self.app_slug,
            "target_id": user_id(account),
            "target_type": user_type(account),
            "permissions": {"checks": "write", "contents": "read", "pull_requests": "write"},
            "events": ["pull_request", "push"],
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": "2024-01-01T00:00:00Z",
            "single_file_name": None,
            "suspended_by": None,
            "suspended_at": None,
        }

    def repo(self, repo: Repo, full: bool = False) -> dict[str, Any]:
        url = f"{self.api}/repos/{repo.full_name}"
        html = f"{WEB}/{repo.full_name}"
        body: dict[str, Any] = {
            "id": repo.id,
            "node_id": node_id("Repository", repo.id),
            "name": repo.name,
            "full_name": repo.full_name,
            "private": repo.private,
            "visibility": "private" if repo.private else "public",
            "owner": self.user(repo.owner),
            "html_url": html,
            "description": None,
            "fork": repo.fork_of is not None,
            "url": url,
            **{key: f"{url}/{suffix}" for key, suffix in REPO_LINKS.items()},
            "git_url": f"git://github.com/{repo.full_name}.git",
            "ssh_url": f"git@github.com:{repo.full_name}.git",
            "clone_url": f"{html}.git",
            "svn_url": html,
            "mirror_url": None,
            "homepage": None,
            "language": "Python",
            "size": 1,
            "default_branch": repo.default_branch,
            "forks": 0,
            "forks_count": 0,
            "stargazers_count": 0,
            "watchers": 0,
            "watchers_count": 0,
            "open_issues": sum(i.state == "open" for i in repo.issues.values()),
            "open_issues_count": sum(i.state == "open" for i in repo.issues.values()),
            "has_issues": True,
            "has_projects": True,
            "has_downloads": True,
            "has_wiki": True,
            "has_pages": False,
            "has_discussions": False,
            "archived": False,
            "disabled": False,
            "license": None,
            "topics": [],
            "created_at": repo.created_at,
            "updated_at": repo.created_at,
            "pushed_at": repo.created_at,
        }
        if full:
            body |= {"network_count": 0, "subscribers_count": 0}
            if repo.fork_of:
                body["parent"] = body["source"] = self.repo(repo.fork_of)
        return body

    # -- issues, pull requests and comments --------------------------------------------------------
    def label(self, repo: Repo, name: str) -> dict[str, Any]:
        lid = user_id(f"{repo.full_name}:{name}")
        return {
            "id": lid,
            "node_id": node_id("Label", lid),
            "url": f"{self.api}/repos/{repo.full_name}/labels/{quote(name)}",
            "name": name,
            "description": None,
            "color": "ededed",
            "default": False,
        }

    def issue(self, repo: Repo, issue: Issue) -> dict[str, Any]:
        url = f"{self.api}/repos/{repo.full_name}/issues/{issue.number}"
        kind = "pull" if issue.is_pr else "issues"
        pr = repo.pulls.get(issue.number) if issue.is_pr else None
        body: dict[str, Any] = {
            "id": issue.id,
            "node_id": node_id("Issue", issue.id),
            "url": url,
            "repository_url": f"{self.api}/repos/{repo.full_name}",
            "labels_url": f"{url}/labels{{/name}}",
            "comments_url": f"{url}/comments",
            "events_url": f"{url}/events",
            "html_url": f"{WEB}/{repo.full_name}/{kind}/{issue.number}",
            "number": issue.number,
            "state": issue.state,
            # A PR's title and body live on the PR (tests edit them there).
            "title": pr.title if pr else issue.title,
            "body": (pr.body if pr else issue.body) or None,  # GitHub sends null, not ""
            "user": self.user(issue.user),
            "labels": [self.label(repo, name) for name in issue.labels],
            "assignee": self.user(issue.assignees[0]) if issue.assignees else None,
            "assignees": [self.user(login) for login in issue.assignees],
            "milestone": None,
            "locked": False,
            "comments": sum(c.issue_number == issue.number for c in repo.comments.values()),
            "closed_at": issue.created_at if issue.state == "closed" else None,
            "created_at": issue.created_at,
            "updated_at": issue.updated_at or issue.created_at,
            "author_association": "CONTRIBUTOR",
        }
        if issue.is_pr:
            pulls = f"{self.api}/repos/{repo.full_name}/pulls/{issue.number}"
            html = body["html_url"]
            body["pull_request"] = {
                "url": pulls,
                "html_url": html,
                "diff_url": f"{html}.diff",
                "patch_url": f"{html}.patch",
                "merged_at": None,
            }
        return body

    def comment(self, repo: Repo, comment: Comment) -> dict[str, Any]:
        kind = "pull" if repo.issues[comment.issue_number].is_pr else "issues"
        return {
            "id": comment.id,
            "node_id": node_id("IssueComment", comment.id),
            "url": f"{self.api}/repos/{repo.full_name}/issues/comments/{comment.id}",
            "html_url": f"{WEB}/{repo.full_name}/{kind}/{comment.issue_number}"
            f"#issuecomment-{comment.id}",
            "issue_url": f"{self.api}/repos/{repo.full_name}/issues/{comment.issue_number}",
            "body": comment.body,
            "user": self.user(comment.user, comment.user_type),
            "created_at": comment.created_at,
            "updated_at": comment.updated_at,
            "author_association": "NONE" if comment.user_type == "Bot" else "CONTRIBUTOR",
            "performed_via_github_app": self.app() if comment.performed_via_github_app else None,
            "reactions": self._reaction_rollup(repo, comment),
        }

    def _reaction_rollup(self, repo: Repo, comment: Comment) -> dict[str, Any]:
        names = {"+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"}
        counts = {name: 0 for name in sorted(names)}
        for reaction in repo.reactions:
            if reaction.comment_id == comment.id:
                counts[reaction.content] += 1
        url = f"{self.api}/repos/{repo.full_name}/issues/comments/{comment.id}/reactions"
        return {"url": url, "total_count": sum(counts.values()), **counts}

    def reaction(self, reaction: Reaction) -> dict[str, Any]:
        return {
            "id": reaction.id,
            "node_id": node_id("Reaction", reaction.id),
            "user": self.user(reaction.user),
            "content": reaction.content,
            "created_at": reaction.created_at,
        }

    def _branch(self, repo: Repo, ref: str, sha: str) -> dict[str, Any]:
        return {
            "label": f"{repo.owner}:{ref}",
            "ref": ref,
            "sha": sha,
            "user": self.user(repo.owner),
            "repo": self.repo(repo),
        }

    def pull(self, pr: PullRequest) -> dict[str, Any]:
        repo = pr.base_repo
        url = f"{self.api}/repos/{repo.full_name}/pulls/{pr.number}"
        issue_url = f"{self.api}/repos/{repo.full_name}/issues/{pr.number}"
        html = f"{WEB}/{repo.full_name}/pull/{pr.number}"
        statuses = f"{self.api}/repos/{repo.full_name}/statuses/{pr.head_sha}"
        links = {
            "self": url,
            "html": html,
            "issue": issue_url,
            "comments": f"{issue_url}/comments",
            "review_comments": f"{url}/comments",
            "review_comment": f"{self.api}/repos/{repo.full_name}/pulls/comments{{/number}}",
            "commits": f"{url}/commits",
            "statuses": statuses,
        }
        files = pr.files()
        issue = self.issue(repo, repo.issues[pr.number])
        return {
            "url": url,
            "id": pr.id,
            "node_id": node_id("PullRequest", pr.id),
            "html_url": html,
            "diff_url": f"{html}.diff",
            "patch_url": f"{html}.patch",
            "issue_url": issue_url,
            "commits_url": links["commits"],
            "review_comments_url": links["review_comments"],
            "review_comment_url": links["review_comment"],
            "comments_url": links["comments"],
            "statuses_url": statuses,
            "number": pr.number,
            "state": pr.state,
            "locked": False,
            "title": pr.title,
            "user": self.user(pr.user),
            "body": pr.body or None,  # an empty description is null on GitHub
            "labels": issue["labels"],
            "milestone": None,
            "active_lock_reason": None,
            "created_at": pr.created_at,
            "updated_at": pr.created_at,
            "closed_at": pr.created_at if pr.state == "closed" else None,
            "merged_at": None,
            "merge_commit_sha": None,
            "assignee": issue["assignee"],
            "assignees": issue["assignees"],
            "requested_reviewers": [],
            "requested_teams": [],
            "head": self._branch(pr.head_repo, pr.head_ref, pr.head_sha),
            "base": self._branch(repo, pr.base_ref, pr.base_sha),
            "_links": {key: {"href": href} for key, href in links.items()},
            "author_association": "CONTRIBUTOR",
            "auto_merge": None,
            "draft": pr.draft,
            "merged": False,
            "mergeable": None,
            "rebaseable": None,
            "mergeable_state": "unknown",
            "merged_by": None,
            "comments": issue["comments"],
            "review_comments": 0,
            "maintainer_can_modify": pr.is_fork,
            "commits": len(pr.commits()),
            "additions": sum(f.additions for f in files),
            "deletions": sum(f.deletions for f in files),
            "changed_files": len(files),
        }

    def review(self, repo: Repo, pr: PullRequest, review: Review) -> dict[str, Any]:
        html = f"{WEB}/{repo.full_name}/pull/{pr.number}"
        pull_url = f"{self.api}/repos/{repo.full_name}/pulls/{pr.number}"
        shaped: dict[str, Any] = {
            "id": review.id,
            "node_id": node_id("PullRequestReview", review.id),
            "user": self.user(review.user),
            "body": review.body,
            "state": review.state,
            "commit_id": review.commit_id,
            "html_url": f"{html}#pullrequestreview-{review.id}",
            "pull_request_url": pull_url,
            "_links": {"html": {"href": html}, "pull_request": {"href": pull_url}},
            "author_association": "MEMBER",
        }
        if review.state != "PENDING":
            shaped["submitted_at"] = review.submitted_at
        return shaped

    def team_membership(self, team: Team, login: str) -> dict[str, Any]:
        url = f"{self.api}/orgs/{team.org}/teams/{team.slug}/memberships/{quote(login)}"
        return {"url": url, "role": "member", "state": team.members[login]}

    def pull_minimal(self, pr: PullRequest) -> dict[str, Any]:
        def side(repo: Repo, ref: str, sha: str) -> dict[str, Any]:
            api = f"{self.api}/repos/{repo.full_name}"
            return {"ref": ref, "sha": sha, "repo": {"id": repo.id, "url": api, "name": repo.name}}

        repo = pr.base_repo
        return {
            "id": pr.id,
            "number": pr.number,
            "url": f"{self.api}/repos/{repo.full_name}/pulls/{pr.number}",
            "head": side(pr.head_repo, pr.head_ref, pr.head_sha),
            "base": side(repo, pr.base_ref, pr.base_sha),
        }

    # -- git data --------------------------------------------------------------------------------
    def diff_entry(self, repo: Repo, change: FileChange, ref: str) -> dict[str, Any]:
        path = quote(change.filename)
        body: dict[str, Any] = {
            "sha": change.sha,
            "filename": change.filename,
            "status": change.status,
            "additions": change.additions,
            "deletions": change.deletions,
            "changes": change.changes,
            "blob_url": f"{WEB}/{repo.full_name}/blob/{ref}/{path}",
            "raw_url": f"{WEB}/{repo.full_name}/raw/{ref}/{path}",
            "contents_url": f"{self.api}/repos/{repo.full_name}/contents/{path}?ref={ref}",
        }
        if change.patch is not None:
            body["patch"] = change.patch
        if change.previous_filename is not None:
            body["previous_filename"] = change.previous_filename
        return body

    def commit(self, repo: Repo, commit: Commit) -> dict[str, Any]:
        api = f"{self.api}/repos/{repo.full_name}"
        person = {
            "name": commit.author,
            "email": f"{commit.author}@users.noreply.github.com",
            "date": iso(commit.timestamp),
        }
        return {
            "sha": commit.sha,
            "node_id": node_id("Commit", int(commit.sha[:8], 16)),
            "url": f"{api}/commits/{commit.sha}",
            "html_url": f"{WEB}/{repo.full_name}/commit/{commit.sha}",
            "comments_url": f"{api}/commits/{commit.sha}/comments",
            "commit": {
                "url": f"{api}/git/commits/{commit.sha}",
                "author": person,
                "committer": person,
                "message": commit.message,
                "tree": {"sha": commit.tree_sha, "url": f"{api}/git/trees/{commit.tree_sha}"},
                "comment_count": 0,
                "verification": {
                    "verified": False,
                    "reason": "unsigned",
                    "signature": None,
                    "payload": None,
                    "verified_at": None,
                },
            },
            "author": self.user(commit.author),
            "committer": self.user(commit.author),
            "parents": [
                {
                    "sha": p,
                    "url": f"{api}/commits/{p}",
                    "html_url": f"{WEB}/{repo.full_name}/commit/{p}",
                }
                for p in commit.parents
            ],
        }

    def content_links(self, repo: Repo, path: str, sha: str, ref: str, kind: str) -> dict[str, Any]:
        api = f"{self.api}/repos/{repo.full_name}"
        url = f"{api}/contents/{quote(path)}?ref={quote(ref, safe='')}"
        git = f"{api}/git/{'trees' if kind == 'dir' else 'blobs'}/{sha}"
        html = f"{WEB}/{repo.full_name}/{'tree' if kind == 'dir' else 'blob'}/{ref}/{quote(path)}"
        raw = f"https://raw.githubusercontent.com/{repo.full_name}/{ref}/{quote(path)}"
        return {
            "url": url,
            "git_url": git,
            "html_url": html,
            "download_url": raw if kind == "file" else None,
            "_links": {"self": url, "git": git, "html": html},
        }

    def check_run(self, repo: Repo, run: CheckRun) -> dict[str, Any]:
        api = f"{self.api}/repos/{repo.full_name}"
        same_repo_prs = [
            self.pull_minimal(pr)
            for pr in repo.pulls.values()
            if pr.head_sha == run.head_sha and not pr.is_fork and pr.state == "open"
        ]
        return {
            "id": run.id,
            "node_id": node_id("CheckRun", run.id),
            "head_sha": run.head_sha,
            "external_id": run.external_id,
            "url": f"{api}/check-runs/{run.id}",
            "html_url": f"{WEB}/{repo.full_name}/runs/{run.id}",
            "details_url": run.details_url or f"{WEB}/{repo.full_name}/runs/{run.id}",
            "status": run.status,
            "conclusion": run.conclusion,
            "started_at": run.started_at,
            "completed_at": run.completed_at,
            "output": {
                "title": run.output.get("title"),
                "summary": run.output.get("summary"),
                "text": run.output.get("text"),
                "annotations_count": len(run.annotations),
                "annotations_url": f"{api}/check-runs/{run.id}/annotations",
            },
            "name": run.name,
            "check_suite": {"id": run.suite_id},
            "app": self.app(),
            # GitHub lists only PRs whose head is in this repository: fork PRs are absent.
            "pull_requests": same_repo_prs,
        }
