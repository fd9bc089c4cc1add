"""The PR comment and the check run's annotations read like the bots reviewers already trust:
a one-line verdict with one number, the fix right under it, details collapsed, no comment
when there is nothing to do, an earlier failing comment turned green, annotations grouped,
at warning level and capped, no internal diagnostics. Driven by signed webhooks to the real
server against the fake GitHub."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.policy.decisions import parse_decision
from bot.render.dashboard import MARKER as DASHBOARD_MARKER
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.review.conftest import MARKER, Bot
from tests.review.test_pr_check import KERNEL, MODEL, RECORD, new_repo, open_pr, record, set_body
from tests.support.server import settings_for

# Twelve kernels, each after more than three lines of portable host code: twelve groups.
SPREAD = "".join(
    "".join(f"int host{i}_{j} = {j};\n" for j in range(5))
    + f"__global__ void k{i}(float* x) {{\n    x[threadIdx.x] += {i};\n}}\n"
    for i in range(12)
)


def lines(body: str) -> list[str]:
    assert body.startswith(MARKER + "\n")
    return body.removeprefix(MARKER + "\n").split("\n")


async def test_failing_comment_is_verdict_then_fix_then_collapsed_details(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")

    [comment] = bot.sticky(repo, pr.number)
    first, *rest = lines(comment.body)
    assert first.startswith("### ❌ lockin: ")
    assert "need a compute-API decision" in first
    assert len(re.findall(r"\d[\d,]*", first)) == 1  # one number
    gated = bot.runs(repo, pr.head_sha)[-1]
    assert re.search(r"\*\*(\d+)\*\*", first)
    # The fix right under it: the command that writes the draft, the record, the link line.
    blocks = "\n".join(rest).strip().split("\n\n")
    assert blocks[0].startswith("**How to fix**")
    draft_path = re.search(r"(docs/decisions/compute-api-[a-z0-9-]+\.md)", comment.body)
    assert draft_path
    path = draft_path.group(1)
    fix = comment.body[comment.body.index("**How to fix**") : comment.body.index("Details:")]
    assert f"lockin diff origin/main HEAD --write-record {path}" in fix
    assert f"Compute-API-Decision: {path}" in fix
    assert "<summary>The drafted record" in fix  # collapsed, under the first step
    drafted = re.search(r"````?markdown\n(.*?)\n````?", fix, re.DOTALL)
    assert drafted
    assert parse_decision(path, drafted.group(1), path=path).status == "proposed"
    # Then the details, collapsed: the tables come after the fix, never before it.
    assert comment.body.index("<summary>Details:") > comment.body.index("**How to fix**")
    assert comment.body.index("| `kernel` |") > comment.body.index("<summary>Details:")
    assert "```mermaid" not in comment.body  # one folder: no one-slice chart
    assert "GitHub API request" not in comment.body
    assert gated.conclusion == "failure"


async def test_two_folders_draw_the_chart_inside_the_details(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL, "ops/shift.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [comment] = bot.sticky(repo, pr.number)
    assert comment.body.index("```mermaid") > comment.body.index("<summary>Details:")


async def test_no_comment_for_a_pr_without_gated_lines_or_with_all_covered(bot: Bot) -> None:
    repo = new_repo(bot.fake, {RECORD: record()})
    pr = open_pr(repo, {"model.py": MODEL + "# tidy\n", "csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "success"
    assert not bot.sticky(repo, pr.number)
    assert not bot.fake.requests_to("POST", r"/issues/\d+/comments")


@pytest.mark.parametrize(("mode", "comments"), [("always", 1), ("never", 0)])
async def test_the_comment_setting_asks_for_one_always_or_never(
    bot: Bot, mode: str, comments: int
) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": f"comment: {mode}\n"})
    pr = open_pr(repo, {"model.py": MODEL + "# tidy\n"})
    await bot.pr_event(repo, pr, "opened")
    assert len(bot.sticky(repo, pr.number)) == comments


async def test_a_failing_comment_from_an_earlier_head_is_turned_green(bot: Bot) -> None:
    bot.fake.add_team("octo/kernels", {"dave": "active"})  # the record's owner team
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL, RECORD: record()})
    await bot.pr_event(repo, pr, "opened")
    [failing] = bot.sticky(repo, pr.number)
    assert lines(failing.body)[0].startswith("### ❌")

    # The later head links the record and its owner approves: the PR passes, and no comment
    # would be written for it from scratch; the one the earlier head left is updated rather
    # than left failing.
    repo.push_to_pr(pr.number, {"model.py": MODEL + "# linked\n"})
    set_body(repo, pr, f"A change\n\nCompute-API-Decision: {RECORD}\n")
    repo.review_pr(pr.number, "dave")
    await bot.pr_event(repo, pr, "synchronize")

    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "success"
    [green] = bot.sticky(repo, pr.number)
    assert green.id == failing.id
    first = lines(green.body)[0]
    assert first.startswith("### ✅ lockin: ")
    assert "all covered by compute-API decisions" in first
    assert f"`{pr.head_sha[:7]}`" in green.body
    assert RECORD in green.body
    assert "How to fix" not in green.body


async def test_annotations_are_grouped_warnings_capped_per_file_with_a_count(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/many.cu": SPREAD, "csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    by_file: dict[str, list[dict[str, Any]]] = {}
    for note in run.annotations:
        by_file.setdefault(note["path"], []).append(note)
    # scale.cu: an include, a kernel and a launch close together are one annotation.
    [scale] = by_file["csrc/scale.cu"]
    assert scale["start_line"] == 1
    assert {"cuda.include", "cuda.kernel", "cuda.launch"} <= set(
        re.findall(r"cuda\.\w+", scale["title"])
    )
    assert len(by_file["csrc/many.cu"]) == 10  # twelve groups, ten kept
    assert {n["annotation_level"] for n in run.annotations} == {"warning"}
    assert "2 annotations left out (at most 10 per file and 50 per run)" in run.output["summary"]
    assert "GitHub API request" not in run.output["text"]
    assert "trigger" not in run.output["text"]


@pytest.mark.parametrize(("setting", "levels"), [("failure", {"failure"}), ("off", set())])
async def test_the_annotation_level_is_a_setting(bot: Bot, setting: str, levels: set[str]) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": f"annotations: {setting}\n"})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert {n["annotation_level"] for n in run.annotations} == levels


@pytest.fixture
async def bot_with_org_page(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    settings = settings_for(fake_github, org_page_url="https://lockin.example.com/orgs/{org}")
    client = await aiohttp_client(create_app(settings))
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


async def test_the_comment_links_the_dashboard_issue_and_the_organisation_page(
    bot_with_org_page: Bot,
) -> None:
    bot = bot_with_org_page
    repo = new_repo(bot.fake)
    dashboard = repo.add_issue(
        "Lock-in dashboard", f"{DASHBOARD_MARKER}\nfigures", user=bot.fake.bot_login
    )
    # A copy of the marker in someone else's issue is not the dashboard.
    repo.add_issue("Lock-in dashboard", f"{DASHBOARD_MARKER}\nfake", user="mallory")
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")

    [comment] = bot.sticky(repo, pr.number)
    footer = lines(comment.body)[-1]
    assert footer.startswith("<sub>")
    assert re.search(rf"\[Lock-in dashboard\]\([^)]*/issues/{dashboard.number}\)", footer)
    assert "[Organisation page](https://lockin.example.com/orgs/octo)" in footer


async def test_without_a_dashboard_issue_or_org_page_the_footer_links_neither(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [comment] = bot.sticky(repo, pr.number)
    footer = lines(comment.body)[-1]
    assert "dashboard" not in footer.lower()
    assert "Organisation page" not in footer
