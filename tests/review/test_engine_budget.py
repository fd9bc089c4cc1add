"""The engine's CPU budget per file, through the real server and the fake GitHub: a file the
engine cannot finish within ``ANALYSIS_FILE_SECONDS`` of CPU time is listed as not counted,
the rest of the pull request is counted, and the check does not pass.

The budget is CPU time in the worker process, so a loaded machine does not change which
file goes over it: the slow file below costs the engine tens of times the budget, the fast
ones a hundredth of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, new_repo
from tests.support.server import settings_for

BUDGET = 0.05  # CPU seconds per file


def slow_file() -> str:
    # About 3 MB of keyword-dense CUDA: far more than BUDGET of CPU time at any engine speed.
    line = "__device__ int f(int x) { return __shfl_sync(0xffffffff, x, threadIdx.x); }\n"
    return line * (3_000_000 // len(line))


@pytest.fixture
async def tight_bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    settings = settings_for(fake_github, workers=2, analysis_file_seconds=BUDGET)
    client = await aiohttp_client(create_app(settings))
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


async def test_a_file_over_its_cpu_budget_is_not_counted_and_the_check_fails(
    tight_bot: Bot,
) -> None:
    bot = tight_bot
    repo = new_repo(bot.fake, {"docs/notes.md": "notes\n"})
    repo.commit({"csrc/slow.cu": slow_file(), "csrc/scale.cu": KERNEL}, branch="feature")
    pr = repo.open_pr(head_branch="feature")

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    text = run.output["text"]
    assert f"Not counted: `csrc/slow.cu` (took longer than {BUDGET:g} s)" in text
    assert "ANALYSIS_FILE_SECONDS" in run.output["summary"]
    # The file within budget is counted: its kernel is annotated, the slow one is not.
    annotated = {a["path"] for a in run.annotations}
    assert annotated == {"csrc/scale.cu"}


async def test_a_pull_request_whose_only_gated_file_was_not_counted_does_not_pass(
    tight_bot: Bot,
) -> None:
    bot = tight_bot
    repo = new_repo(bot.fake)
    repo.commit({"csrc/slow.cu": slow_file(), "model.py": "import torch\n"}, branch="feature")
    pr = repo.open_pr(head_branch="feature")

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert run.output["title"].startswith("1 file not counted (over time budget)")
    assert "2 files changed, 1 analysed" in run.output["text"]
    assert run.annotations == []


async def test_the_same_pull_request_within_budget_is_counted_whole(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"docs/notes.md": "notes\n"})
    repo.commit({"csrc/slow.cu": slow_file(), "csrc/scale.cu": KERNEL}, branch="feature")
    pr = repo.open_pr(head_branch="feature")

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.status == "completed"
    assert "Not counted" not in run.output["text"]
    assert {a["path"] for a in run.annotations} >= {"csrc/slow.cu", "csrc/scale.cu"}
