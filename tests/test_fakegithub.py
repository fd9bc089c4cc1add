"""The fake GitHub behaves as GitHub documents: auth, limits, pagination, shapes, faults.

The fake validates its own 2xx responses against the REST description, so each test also
checks that the fake has not drifted from GitHub's contract (`contract_errors` stays empty).
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import io
import tarfile
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakegithub import FakeGitHub, Repo
from tests.fakegithub.auth import generate_private_key
from tests.fakegithub.faults import SecondaryLimits
from tests.support.appauth import app_jwt

KERNEL = "__global__ void add(float* x) {\n  x[threadIdx.x] += 1;\n}\n"


class Client:
    """A minimal installation client: the fake is exercised over real HTTP."""

    def __init__(self, fake_github: FakeGitHub, session: aiohttp.ClientSession) -> None:
        self.fake_github = fake_github
        self.session = session
        self.token = ""

    async def login(self, installation_id: int = 1) -> None:
        response = await self.post(
            f"/app/installations/{installation_id}/access_tokens",
            auth=f"Bearer {app_jwt(self.fake_github)}",
        )
        assert response.status == 201, await response.text()
        self.token = (await response.json())["token"]

    async def request(
        self, method: str, path: str, *, auth: str | None = None, **kwargs: Any
    ) -> aiohttp.ClientResponse:
        headers = {"Accept": "application/vnd.github+json", **kwargs.pop("headers", {})}
        headers["Authorization"] = auth or f"token {self.token}"
        return await self.session.request(
            method, self.fake_github.url + path, headers=headers, allow_redirects=False, **kwargs
        )

    async def get(self, path: str, **kwargs: Any) -> aiohttp.ClientResponse:
        return await self.request("GET", path, **kwargs)

    async def post(self, path: str, **kwargs: Any) -> aiohttp.ClientResponse:
        return await self.request("POST", path, **kwargs)

    async def patch(self, path: str, **kwargs: Any) -> aiohttp.ClientResponse:
        return await self.request("PATCH", path, **kwargs)


@pytest.fixture
def repo(fake_github: FakeGitHub) -> Repo:
    return fake_github.add_repo("acme/ml", files={"README.md": "# ml\n", "kernels/add.cu": KERNEL})


@pytest.fixture
async def client(fake_github: FakeGitHub, repo: Repo) -> AsyncIterator[Client]:
    async with aiohttp.ClientSession() as session:
        client = Client(fake_github, session)
        await client.login()
        yield client


# -- App authentication and installation tokens ---------------------------------------------------
async def test_installation_token_is_issued_for_a_valid_app_jwt(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    response = await client.post(
        "/app/installations/1/access_tokens", auth=f"Bearer {app_jwt(fake_github)}"
    )
    body = await response.json()
    assert response.status == 201
    assert body["token"].startswith("ghs_")
    assert body["expires_at"].endswith("Z")
    assert body["repository_selection"] == "all"
    assert fake_github.tokens_issued == 2  # the fixture's login and this one
    assert (await client.get("/repos/acme/ml")).status == 200
    assert fake_github.contract_errors == []


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"iss": 424242}, "'Issuer' claim ('iss')"),  # an int: GitHub wants a JSON string
        ({"iss": "999"}, "'Issuer' claim ('iss')"),
        ({"exp": 1}, "'Expiration time' claim ('exp') must be"),
        ({"iat": 0, "exp": 10**10}, "too far in the future"),
        ({"iat": 10**10}, "'Issued at' claim ('iat')"),
    ],
)
async def test_app_jwt_is_refused_unless_github_would_accept_it(
    fake_github: FakeGitHub, client: Client, claims: dict[str, Any], reason: str
) -> None:
    response = await client.post(
        "/app/installations/1/access_tokens", auth=f"Bearer {app_jwt(fake_github, **claims)}"
    )
    assert response.status == 401
    assert reason in (await response.json())["message"]
    assert fake_github.tokens_issued == 1  # only the fixture's login


async def test_jwt_signed_with_another_key_is_refused(
    fake_github: FakeGitHub, client: Client
) -> None:
    forged = app_jwt(fake_github, key=generate_private_key()[0])
    response = await client.post("/app/installations/1/access_tokens", auth=f"Bearer {forged}")
    assert response.status == 401


async def test_unknown_and_suspended_installations(fake_github: FakeGitHub, client: Client) -> None:
    fake_github.add_installation(7, "suspended-org", suspended=True)
    bearer = f"Bearer {app_jwt(fake_github)}"
    assert (await client.post("/app/installations/99/access_tokens", auth=bearer)).status == 404
    assert (await client.post("/app/installations/7/access_tokens", auth=bearer)).status == 403


async def test_expired_and_foreign_tokens_are_refused(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.add_repo("other/repo", files={"a": "b"}, installation_id=2)
    # A live token of installation 1 cannot see installation 2's repository: GitHub says 404.
    assert (await client.get("/repos/other/repo")).status == 404
    assert (await client.get("/repos/acme/ml", auth="token ghs_forged")).status == 401
    fake_github.token_ttl = -1  # every token issued from now on is already expired
    await client.login()
    response = await client.get("/repos/acme/ml")
    assert response.status == 401
    assert (await response.json())["message"] == "Bad credentials"


async def test_rate_limit_headers_count_requests_per_token(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    first = await client.get("/repos/acme/ml")
    second = await client.get("/repos/acme/ml/issues/comments/1")  # a 404 still counts
    assert first.headers["x-ratelimit-limit"] == "5000"
    assert first.headers["x-ratelimit-resource"] == "core"
    used = int(first.headers["x-ratelimit-used"])
    assert int(second.headers["x-ratelimit-used"]) == used + 1
    assert int(second.headers["x-ratelimit-remaining"]) == 5000 - used - 1
    overview = await (await client.get("/rate_limit")).json()
    assert overview["resources"]["core"]["used"] == used + 1  # /rate_limit itself is free


async def test_etag_gives_304_without_spending_quota(client: Client, repo: Repo) -> None:
    first = await client.get("/repos/acme/ml/contents/README.md")
    etag = first.headers["ETag"]
    again = await client.get("/repos/acme/ml/contents/README.md", headers={"If-None-Match": etag})
    assert again.status == 304
    assert again.headers["x-ratelimit-remaining"] == first.headers["x-ratelimit-remaining"]
    repo.commit({"README.md": "# changed\n"})
    changed = await client.get("/repos/acme/ml/contents/README.md", headers={"If-None-Match": etag})
    assert changed.status == 200
    assert changed.headers["ETag"] != etag


# -- pull requests --------------------------------------------------------------------------------
def _many_files_pr(repo: Repo, count: int) -> int:
    repo.commit({f"src/f{i:04}.py": f"x = {i}\n" for i in range(count)}, branch="big")
    return repo.open_pr(head_branch="big").number


async def test_pr_files_paginate_with_link_headers_and_stop_at_3000(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    number = _many_files_pr(repo, 3005)
    default_page = await client.get(f"/repos/acme/ml/pulls/{number}/files")
    assert len(await default_page.json()) == 30
    names: list[str] = []
    url: str | None = f"/repos/acme/ml/pulls/{number}/files?per_page=100"
    pages = 0
    while url:
        response = await client.get(url)
        names += [f["filename"] for f in await response.json()]
        pages += 1
        links = response.links
        url = (
            links["next"]["url"].human_repr().removeprefix(fake_github.url)
            if "next" in links
            else None
        )
    assert pages == 30
    assert len(names) == len(set(names)) == 3000
    pull = await (await client.get(f"/repos/acme/ml/pulls/{number}")).json()
    assert pull["changed_files"] == 3005
    assert (
        await client.get(f"/repos/acme/ml/pulls/{number}/files?per_page=100&page=31")
    ).status == 200
    assert fake_github.contract_errors == []


async def test_diff_media_type_refused_above_300_files(client: Client, repo: Repo) -> None:
    number = _many_files_pr(repo, 301)
    diff = {"Accept": "application/vnd.github.diff"}
    response = await client.get(f"/repos/acme/ml/pulls/{number}", headers=diff)
    assert response.status == 406
    assert "maximum number of files (300)" in (await response.json())["message"]


async def test_pr_files_carry_git_shas_real_hunks_renames_and_omitted_patches(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    repo.commit({"notes.txt": "a\nb\nc\nd\ne\nf\ng\nh\n", "big.cu": "x\n", "logo.png": "PNG"})
    repo.commit(
        {
            "notes.txt": "a\nb\nc\nD\ne\nf\ng\nh\n",
            "kernels/add.cu": None,
            "kernels/add_v2.cu": KERNEL,
            "big.cu": KERNEL,
            "logo.png": b"\x89PNG\0\0",
            "hello.txt": "hello\n",
        },
        branch="feature",
    )
    pr = repo.open_pr(head_branch="feature", patch_omitted={"big.cu"})
    files = {
        f["filename"]: f for f in await (await client.get("/repos/acme/ml/pulls/1/files")).json()
    }
    assert (
        files["hello.txt"]["sha"] == "ce013625030ba8dba906f756967f9e9ca394464a"
    )  # git hash-object
    assert files["hello.txt"]["patch"] == "@@ -0,0 +1 @@\n+hello"
    assert files["notes.txt"]["status"] == "modified"
    assert files["notes.txt"]["patch"] == "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g"
    assert (files["notes.txt"]["additions"], files["notes.txt"]["deletions"]) == (1, 1)
    renamed = files["kernels/add_v2.cu"]
    assert (renamed["status"], renamed["previous_filename"]) == ("renamed", "kernels/add.cu")
    assert "patch" not in renamed  # a pure rename has no patch on GitHub
    assert "patch" not in files["logo.png"]  # binary
    assert "patch" not in files["big.cu"]
    assert files["big.cu"]["additions"] == 3
    assert pr.head_sha == (await (await client.get("/repos/acme/ml/pulls/1")).json())["head"]["sha"]
    commits = await (await client.get("/repos/acme/ml/pulls/1/commits")).json()
    assert [c["sha"] for c in commits] == [pr.head_sha]
    assert fake_github.contract_errors == []


async def test_fork_pr_shape_and_check_run_pull_requests(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fork = fake_github.add_repo("alice/ml", files={}, fork_of="acme/ml")
    fork.commit({"kernels/mul.cu": KERNEL}, branch="mul")
    fork_pr = repo.open_pr(head_branch="mul", head_repo=fork, user="alice")
    repo.commit({"x.py": "1\n"}, branch="local")
    local_pr = repo.open_pr(head_branch="local")
    pull = await (await client.get(f"/repos/acme/ml/pulls/{fork_pr.number}")).json()
    assert pull["head"]["repo"]["full_name"] == "alice/ml"
    assert pull["head"]["repo"]["fork"] is True
    assert pull["base"]["repo"]["full_name"] == "acme/ml"
    assert pull["head"]["sha"] == fork_pr.head_sha
    assert pull["body"] is None  # an empty description is null on GitHub
    files = await (await client.get(f"/repos/acme/ml/pulls/{fork_pr.number}/files")).json()
    assert [f["filename"] for f in files] == ["kernels/mul.cu"]
    contents = await client.get(f"/repos/acme/ml/contents/kernels/mul.cu?ref={fork_pr.head_sha}")
    assert contents.status == 200  # the base repository serves the fork's PR head
    runs = {}
    for pr in (fork_pr, local_pr):
        body = {"name": "lockin", "head_sha": pr.head_sha, "status": "in_progress"}
        runs[pr.number] = await (await client.post("/repos/acme/ml/check-runs", json=body)).json()
    assert runs[fork_pr.number]["pull_requests"] == []  # GitHub omits fork PRs
    assert [p["number"] for p in runs[local_pr.number]["pull_requests"]] == [local_pr.number]
    assert fake_github.contract_errors == []


# -- contents, git data and archives --------------------------------------------------------------
async def test_contents_as_json_raw_directory_and_missing(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    as_json = await (await client.get("/repos/acme/ml/contents/kernels/add.cu")).json()
    assert as_json["type"] == "file"
    assert base64.b64decode(as_json["content"]).decode() == KERNEL
    raw = await client.get(
        "/repos/acme/ml/contents/kernels/add.cu",
        headers={"Accept": "application/vnd.github.raw+json"},
    )
    assert await raw.read() == KERNEL.encode()
    old = repo.head()
    repo.commit({"kernels/add.cu": "// gone\n"})
    at_old = await (await client.get(f"/repos/acme/ml/contents/kernels/add.cu?ref={old}")).json()
    assert base64.b64decode(at_old["content"]).decode() == KERNEL
    listing = await (await client.get("/repos/acme/ml/contents/kernels")).json()
    assert [(e["name"], e["type"]) for e in listing] == [("add.cu", "file")]
    assert (await client.get("/repos/acme/ml/contents/nope.txt")).status == 404
    assert fake_github.contract_errors == []


async def test_git_tree_and_blob(fake_github: FakeGitHub, client: Client, repo: Repo) -> None:
    tree = await (await client.get("/repos/acme/ml/git/trees/main?recursive=1")).json()
    entries = {e["path"]: e for e in tree["tree"]}
    assert tree["truncated"] is False
    assert entries["kernels"]["type"] == "tree"
    assert entries["kernels/add.cu"]["size"] == len(KERNEL)
    blob = await (
        await client.get(f"/repos/acme/ml/git/blobs/{entries['README.md']['sha']}")
    ).json()
    assert base64.b64decode(blob["content"]) == b"# ml\n"
    top = await (await client.get("/repos/acme/ml/git/trees/main")).json()
    assert sorted(e["path"] for e in top["tree"]) == ["README.md", "kernels"]
    assert fake_github.contract_errors == []


async def test_tarball_redirects_to_a_gzip_with_one_top_folder(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    response = await client.get("/repos/acme/ml/tarball/main")
    assert response.status == 302
    location = response.headers["Location"]
    assert location.startswith(fake_github.url)
    archive = await (await client.session.get(location)).read()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        members = {m.name: m for m in tar.getmembers()}
        top = f"acme-ml-{repo.head()[:7]}"
        assert {name.split("/")[0] for name in members} == {top}
        extracted = tar.extractfile(members[f"{top}/kernels/add.cu"])
        assert extracted is not None
        assert extracted.read() == KERNEL.encode()
        assert tar.pax_headers["comment"] == repo.head()
    evil = io.BytesIO()
    with gzip.GzipFile(fileobj=evil, mode="wb") as gz:
        gz.write(b"\0" * 1024)
    repo.set_tarball("main", evil.getvalue())
    replaced = await client.get("/repos/acme/ml/tarball/main")
    assert await (await client.session.get(replaced.headers["Location"])).read() == evil.getvalue()
    assert (await client.get("/repos/acme/ml/tarball/no-such-branch")).status == 404


async def test_compare_reports_ahead_and_files(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    repo.commit({"a.py": "1\n"}, branch="topic")
    repo.commit({"b.py": "2\n"}, branch="topic")
    body = await (await client.get("/repos/acme/ml/compare/main...topic")).json()
    assert (body["status"], body["ahead_by"], body["behind_by"]) == ("ahead", 2, 0)
    assert [f["filename"] for f in body["files"]] == ["a.py", "b.py"]
    assert fake_github.contract_errors == []


# -- comments, reactions, permissions -------------------------------------------------------------
async def test_comments_are_authored_by_the_app_bot_and_paginate(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    issue = repo.add_issue("Decision", "CUDA", labels=["compute-api-decision"])
    created = await client.post(
        f"/repos/acme/ml/issues/{issue.number}/comments", json={"body": "hi"}
    )
    comment = await created.json()
    assert created.status == 201
    assert comment["user"]["login"] == "lockin[bot]"
    assert comment["user"]["type"] == "Bot"
    assert comment["performed_via_github_app"]["slug"] == "lockin"
    for n in range(34):
        repo.add_comment(issue.number, f"human {n}")
    page_two = await client.get(f"/repos/acme/ml/issues/{issue.number}/comments?page=2")
    assert len(await page_two.json()) == 5
    assert 'rel="prev"' in page_two.headers["Link"]
    edited = await client.patch(
        f"/repos/acme/ml/issues/comments/{comment['id']}", json={"body": "edited"}
    )
    assert (await edited.json())["body"] == repo.comments[comment["id"]].body == "edited"
    fetched = await client.get(f"/repos/acme/ml/issues/comments/{comment['id']}")
    assert (await fetched.json())["body"] == "edited"
    too_long = await client.post(
        f"/repos/acme/ml/issues/{issue.number}/comments", json={"body": "x" * 65537}
    )
    assert too_long.status == 422
    deleted = await client.request("DELETE", f"/repos/acme/ml/issues/comments/{comment['id']}")
    assert deleted.status == 204
    assert comment["id"] not in repo.comments
    labels = (await (await client.get(f"/repos/acme/ml/issues/{issue.number}")).json())["labels"]
    assert [label["name"] for label in labels] == ["compute-api-decision"]
    assert fake_github.contract_errors == []


async def test_reactions_are_idempotent_per_user_and_content(client: Client, repo: Repo) -> None:
    repo.add_issue("t", "b")
    comment = repo.add_comment(1, "/lockin recount", user="maintainer")
    path = f"/repos/acme/ml/issues/comments/{comment.id}/reactions"
    assert (await client.post(path, json={"content": "eyes"})).status == 201
    assert (await client.post(path, json={"content": "eyes"})).status == 200
    assert (await client.post(path, json={"content": "rocket"})).status == 201
    assert [(r.content, r.user) for r in repo.reactions] == [
        ("eyes", "lockin[bot]"),
        ("rocket", "lockin[bot]"),
    ]


@pytest.mark.parametrize(
    ("role", "permission"),
    [
        ("admin", "admin"),
        ("maintain", "write"),
        ("write", "write"),
        ("triage", "read"),
        ("read", "read"),
        ("none", "none"),
    ],
)
async def test_collaborator_permission_maps_roles_like_github(
    client: Client, repo: Repo, role: str, permission: str
) -> None:
    repo.collaborators["dev"] = role
    body = await (await client.get("/repos/acme/ml/collaborators/dev/permission")).json()
    assert (body["permission"], body["role_name"]) == (permission, role)
    assert body["user"]["login"] == "dev"


# -- check runs -----------------------------------------------------------------------------------
def _annotations(count: int) -> list[dict[str, Any]]:
    return [
        {
            "path": "kernels/add.cu",
            "start_line": i + 1,
            "end_line": i + 1,
            "annotation_level": "warning",
            "message": f"kernel line {i}",
        }
        for i in range(count)
    ]


async def test_annotations_capped_at_50_per_request_and_appended_by_patch(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    output = {"title": "t", "summary": "s", "annotations": _annotations(51)}
    body = {"name": "lockin", "head_sha": repo.head(), "output": output}
    refused = await client.post("/repos/acme/ml/check-runs", json=body)
    assert refused.status == 422
    assert fake_github.contract_errors
    assert "annotations" in fake_github.contract_errors[0]
    fake_github.contract_errors.clear()
    output["annotations"] = _annotations(50)
    run = await (await client.post("/repos/acme/ml/check-runs", json=body)).json()
    patch = {"status": "completed", "conclusion": "failure", "output": output}
    updated = await (
        await client.patch(f"/repos/acme/ml/check-runs/{run['id']}", json=patch)
    ).json()
    assert updated["output"]["annotations_count"] == 100
    fetched = await (await client.get(f"/repos/acme/ml/check-runs/{run['id']}")).json()
    assert (fetched["status"], fetched["conclusion"]) == ("completed", "failure")
    stored = repo.check_runs[run["id"]]
    assert (stored.status, stored.conclusion, len(stored.annotations)) == (
        "completed",
        "failure",
        100,
    )
    assert [h["status"] for h in stored.history] == ["queued", "completed"]
    assert fake_github.contract_errors == []


async def test_check_runs_for_ref_filter_latest_and_by_name(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    for name in ("lockin", "lockin", "other"):
        body = {"name": name, "head_sha": repo.head(), "external_id": "pr-1"}
        assert (await client.post("/repos/acme/ml/check-runs", json=body)).status == 201
    latest = await (await client.get("/repos/acme/ml/commits/main/check-runs")).json()
    assert latest["total_count"] == 2
    every = await (
        await client.get(f"/repos/acme/ml/commits/{repo.head()}/check-runs?filter=all")
    ).json()
    assert every["total_count"] == 3
    named = await (
        await client.get("/repos/acme/ml/commits/main/check-runs?check_name=lockin&filter=all")
    ).json()
    assert [r["name"] for r in named["check_runs"]] == ["lockin", "lockin"]
    other_app = await (await client.get("/repos/acme/ml/commits/main/check-runs?app_id=1")).json()
    assert other_app["total_count"] == 0
    assert fake_github.contract_errors == []


async def test_more_than_three_actions_are_refused(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    action = {"label": "Recount", "description": "Count again", "identifier": "recount"}
    body = {"name": "lockin", "head_sha": repo.head(), "actions": [action] * 4}
    assert (await client.post("/repos/acme/ml/check-runs", json=body)).status == 422
    body["actions"] = [action]
    assert (await client.post("/repos/acme/ml/check-runs", json=body)).status == 201
    assert [r.actions for r in repo.check_runs.values()] == [[action]]
    assert len(fake_github.contract_errors) == 1


async def test_diff_media_type_gives_a_git_diff(client: Client, repo: Repo) -> None:
    repo.commit({"kernels/add.cu": KERNEL.replace("+= 1", "+= 2")}, branch="tweak")
    repo.open_pr(head_branch="tweak")
    response = await client.get(
        "/repos/acme/ml/pulls/1", headers={"Accept": "application/vnd.github.diff"}
    )
    assert response.status == 200
    assert (await response.text()).splitlines()[:6] == [
        "diff --git a/kernels/add.cu b/kernels/add.cu",
        "index 17e6e61..b1f345d 100644",  # as `git diff` prints it
        "--- a/kernels/add.cu",
        "+++ b/kernels/add.cu",
        "@@ -1,3 +1,3 @@",
        " __global__ void add(float* x) {",
    ]


async def test_completed_without_conclusion_is_refused(client: Client, repo: Repo) -> None:
    body = {"name": "lockin", "head_sha": repo.head(), "status": "completed"}
    assert (await client.post("/repos/acme/ml/check-runs", json=body)).status == 422
    body = {"name": "lockin", "head_sha": "0" * 40}
    assert (await client.post("/repos/acme/ml/check-runs", json=body)).status == 422


# -- the contract ---------------------------------------------------------------------------------
async def test_invalid_requests_are_recorded_as_contract_errors(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    repo.add_issue("t", "b")
    response = await client.post("/repos/acme/ml/issues/1/comments", json={"text": "hi"})
    assert response.status == 422
    assert "Invalid request" in (await response.json())["message"]
    recorded = fake_github.requests_to("POST", r"/issues/1/comments$")[-1]
    assert recorded.status == 422
    assert recorded.contract_errors
    assert "body" in recorded.contract_errors[0]
    bad_query = await client.get("/repos/acme/ml/pulls/1/files?per_page=many")
    assert bad_query.status == 422
    await client.request("PUT", "/repos/acme/ml/issues/1/lock")
    assert len(fake_github.contract_errors) == 3
    assert (
        "PUT /repos/acme/ml/issues/1/lock: not in the contract" in fake_github.contract_errors[-1]
    )
    assert repo.comments == {}


async def test_requests_are_recorded_for_assertions(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    repo.add_issue("t", "b")
    await client.post("/repos/acme/ml/issues/1/comments?x=1", json={"body": "hi"})
    [recorded] = fake_github.requests_to("POST", r"/issues/\d+/comments")
    assert (recorded.method, recorded.path, recorded.query) == (
        "POST",
        "/repos/acme/ml/issues/1/comments",
        {"x": "1"},
    )
    assert recorded.json == {"body": "hi"}
    assert recorded.status == 201
    assert recorded.headers["Authorization"].startswith("token ghs_")
    assert recorded.operation == "issues/create-comment"


async def test_app_and_manifest_conversion(fake_github: FakeGitHub, client: Client) -> None:
    app = await (await client.get("/app", auth=f"Bearer {app_jwt(fake_github)}")).json()
    assert (app["id"], app["slug"]) == (424242, "lockin")
    fake_github.add_manifest_code("abc")
    converted = await client.post("/app-manifests/abc/conversions", auth="")
    body = await converted.json()
    assert converted.status == 201
    assert body["pem"] == fake_github.private_key_pem
    assert body["webhook_secret"]
    assert (await client.post("/app-manifests/abc/conversions", auth="")).status == 404
    assert fake_github.contract_errors == []


# -- faults ---------------------------------------------------------------------------------------
async def test_status_fault_fails_the_next_matching_requests_only(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.fail("GET", r"/pulls/\d+/files$", status=502, times=2)
    repo.commit({"a.py": "1"}, branch="b")
    repo.open_pr(head_branch="b")
    statuses = [(await client.get("/repos/acme/ml/pulls/1/files")).status for _ in range(3)]
    assert statuses == [502, 502, 200]
    assert (await client.get("/repos/acme/ml/pulls/1")).status == 200


@pytest.mark.parametrize(("kind", "status"), [("secondary", 403), ("429", 429)])
async def test_secondary_limits_carry_retry_after(
    fake_github: FakeGitHub, client: Client, repo: Repo, kind: str, status: int
) -> None:
    fake_github.fail("POST", r"/check-runs$", kind=kind, retry_after=7)
    response = await client.post(
        "/repos/acme/ml/check-runs", json={"name": "lockin", "head_sha": repo.head()}
    )
    assert response.status == status
    assert response.headers["Retry-After"] == "7"
    assert "secondary rate limit" in (await response.json())["message"]
    assert repo.check_runs == {}


async def test_primary_limit_exhaustion(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.fail("*", r"^/repos/", kind="primary", retry_after=30)
    response = await client.get("/repos/acme/ml")
    assert response.status == 403
    assert response.headers["x-ratelimit-remaining"] == "0"
    assert 0 < int(response.headers["x-ratelimit-reset"]) - int(time.time()) <= 30
    assert "rate limit exceeded" in (await response.json())["message"]
    assert (await client.get("/repos/acme/ml")).status == 200


async def test_timeout_fault_outlasts_the_client_timeout(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.timeout_delay = 5.0
    fake_github.fail("GET", r"/contents/", kind="timeout")
    with pytest.raises(TimeoutError):
        await client.get(
            "/repos/acme/ml/contents/README.md", timeout=aiohttp.ClientTimeout(total=0.2)
        )
    assert (await client.get("/repos/acme/ml/contents/README.md")).status == 200


async def test_real_quota_exhaustion_answers_403(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.tokens[client.token].bucket.used = 5000
    response = await client.get("/repos/acme/ml")
    assert response.status == 403
    assert response.headers["x-ratelimit-remaining"] == "0"


async def test_opt_in_write_rate_secondary_limit(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.secondary_limits = SecondaryLimits(writes_per_minute=3)
    body = {"name": "lockin", "head_sha": repo.head()}
    statuses = [
        (await client.post("/repos/acme/ml/check-runs", json=body)).status for _ in range(4)
    ]
    assert statuses == [201, 201, 201, 403]
    refused = fake_github.requests_to("POST", "/check-runs$")[-1]
    assert refused.status == 403
    assert (await client.get("/repos/acme/ml")).status == 200  # reads are not writes


async def test_opt_in_concurrency_secondary_limit(
    fake_github: FakeGitHub, client: Client, repo: Repo
) -> None:
    fake_github.secondary_limits = SecondaryLimits(max_concurrent=1)
    fake_github.timeout_delay = 5.0
    fake_github.fail("GET", "/contents/", kind="timeout")  # the first to arrive is held open
    short = aiohttp.ClientTimeout(total=0.5)
    results = await asyncio.gather(
        *(client.get("/repos/acme/ml/contents/README.md", timeout=short) for _ in range(2)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, TimeoutError) for r in results) == 1  # the held one
    [refused] = [r for r in results if isinstance(r, aiohttp.ClientResponse)]
    assert refused.status == 403
    assert "secondary rate limit" in (await refused.json())["message"]
