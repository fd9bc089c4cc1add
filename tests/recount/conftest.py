"""`/lockin recount`, the census and the badge end to end: signed webhooks over HTTP to the real
server app (recount router, badge route), which talks to the fake GitHub on loopback."""

from __future__ import annotations

import json
import tempfile
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from gidgethub.routing import Router

from bot.server.keys import SERVICES
from tests.fakegithub import Comment, FakeGitHub, PullRequest, Repo
from tests.support.server import SECRET, settings_for
from tests.support.webhooks import issue_comment_event, push_event, webhook_headers

MARKER = "<!-- lockin:sticky-comment -->"
MAINTAINER = "maintainer"

KERNEL = """\
#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}

void launch(float* x, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
    cudaDeviceSynchronize();
}
"""

PYTHON = """\
import torch


def train(model):
    model = model.cuda()
    return model
"""

TRITON = """\
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask))
"""

FILES = {
    "README.md": "# kernels\n",
    "csrc/scale.cu": KERNEL,
    "train.py": PYTHON,
    "third_party/lib/vendored.cu": KERNEL,  # excluded by default
}


@dataclass
class Bot:
    fake: FakeGitHub
    client: TestClient

    async def deliver(self, event: str, payload: dict[str, Any]) -> int:
        body = json.dumps(payload).encode()
        headers = webhook_headers(event, body, SECRET, str(uuid.uuid4()), app_id=self.fake.app_id)
        response = await self.client.post("/api/github/webhooks", data=body, headers=headers)
        return response.status

    async def settle(self) -> None:
        """Wait until every accepted delivery has been worked off."""
        await self.client.server.app[SERVICES].queue.join()

    async def command(
        self,
        repo: Repo,
        pr: PullRequest,
        body: str,
        *,
        user: str = MAINTAINER,
        user_type: str = "User",
        settle: bool = True,
    ) -> Comment:
        comment = repo.add_comment(pr.number, body, user=user, user_type=user_type)
        status = await self.deliver(
            "issue_comment", issue_comment_event(self.fake, repo, pr, comment)
        )
        assert status == 202
        if settle:
            await self.settle()
        return comment

    async def push(self, repo: Repo, files: dict[str, Any]) -> str:
        before = repo.head()
        after = repo.commit(files)
        assert await self.deliver("push", push_event(self.fake, repo, before, after)) == 202
        await self.settle()
        return after

    def reaction_posts(self, repo: Repo, comment: Comment) -> list[str]:
        """The reactions the bot asked for on a comment, in order (every POST, not deduplicated
        as GitHub's state is)."""
        path = f"/repos/{repo.full_name}/issues/comments/{comment.id}/reactions"
        return [r.json["content"] for r in self.fake.requests_to("POST", f"^{path}$")]

    def replies(self, repo: Repo, pr: PullRequest) -> list[Comment]:
        return [
            c
            for c in sorted(repo.comments.values(), key=lambda c: c.id)
            if c.issue_number == pr.number
            and c.user == self.fake.bot_login
            and MARKER not in c.body
        ]

    def sticky(self, repo: Repo, pr: PullRequest) -> list[Comment]:
        return [
            c
            for c in repo.comments.values()
            if c.issue_number == pr.number and MARKER in c.body and c.user == self.fake.bot_login
        ]

    def tarball_downloads(self, repo: Repo) -> int:
        return len(self.fake.requests_to("GET", f"^/repos/{repo.full_name}/tarball/"))


@pytest.fixture
async def bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    # Imported here so the reader's own tests run whatever state the server is in.
    from bot.features import census, commands, installation
    from bot.server.app import create_app

    router = Router(installation.router, commands.router, census.router)
    app = create_app(settings_for(fake_github, log_format="pretty"), router=router)
    client = await aiohttp_client(app)
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


@pytest.fixture
def quiet_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory and temp dir for the test: whatever the code under test
    writes through a relative path or `tempfile` lands in them."""
    work, temp = tmp_path / "cwd", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return tmp_path


def assert_nothing_written(quiet_disk: Path, marker: str) -> None:
    """The quiet folders are still empty, and no entry named by ``marker`` exists where a
    path-traversal or absolute name would have put it."""
    assert sorted(p.name for p in quiet_disk.rglob("*")) == ["cwd", "tmp"]
    for folder in {Path("/tmp"), *quiet_disk.parents}:
        assert list(folder.glob(f"{marker}*")) == []


@pytest.fixture
def repo(fake_github: FakeGitHub) -> Repo:
    """A repository with a kernel, a maintainer with write access and a reader."""
    repo = fake_github.add_repo("octo-org/kernels", files=FILES)
    repo.collaborators.update(
        {MAINTAINER: "write", "reader": "read", "triager": "triage", "boss": "admin"}
    )
    return repo


@pytest.fixture
def pr(repo: Repo) -> PullRequest:
    repo.commit(
        {"csrc/add.cu": KERNEL.replace("scale", "add"), "kernels/add.py": TRITON}, branch="feature"
    )
    return repo.open_pr(head_branch="feature", title="Add kernels", user="contributor")
