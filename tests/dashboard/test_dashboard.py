"""The Lock-in dashboard issue end to end: signed webhooks to the real server, which talks
to the fake GitHub. Created once, edited only on change, one issue under racing pushes,
re-created when deleted, left closed, recount checkbox, the people's section, escaping."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from gidgethub.routing import Router

from bot.render.dashboard import MARKER, NOTES_END, NOTES_START, RECOUNT_MARK
from tests.fakegithub import FakeGitHub, Issue, Repo
from tests.recount.conftest import FILES, KERNEL, MAINTAINER, Bot
from tests.support.server import settings_for
from tests.support.webhooks import issues_event, push_event

RECORD = (
    "---\ntype: compute-api\nstatus: accepted\nowner: '@kernel-team'\ncompute_api: CUDA 12\n"
    "migration_cost: {lines: 2}\nscope: [csrc/**]\n---\n# CUDA kernels\n"
)


@pytest.fixture
async def bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    from bot.features import census, commands, dashboard, installation
    from bot.server.app import create_app

    router = Router(census.router, commands.router, installation.router, dashboard.router)
    app = create_app(settings_for(fake_github, log_format="pretty"), router=router)
    client = await aiohttp_client(app)
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


@pytest.fixture
def repo(fake_github: FakeGitHub) -> Repo:
    repo = fake_github.add_repo(
        "octo-org/kernels", files={**FILES, "docs/decisions/0001-cuda.md": RECORD}
    )
    repo.collaborators.update({MAINTAINER: "write", "reader": "read"})
    return repo


def dashboards(bot: Bot, repo: Repo) -> list[Issue]:
    return [i for i in repo.issues.values() if MARKER in i.body]


def writes(bot: Bot, repo: Repo) -> tuple[int, int]:
    """(issues created, issues edited) by the bot so far."""
    created = bot.fake.requests_to("POST", f"^/repos/{repo.full_name}/issues$")
    edited = bot.fake.requests_to("PATCH", f"^/repos/{repo.full_name}/issues/\\d+$")
    return len(created), len(edited)


async def test_created_once_then_edited_only_when_a_figure_changes(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"README.md": "# kernels, v2\n"})
    (issue,) = dashboards(bot, repo)
    assert issue.title == "Lock-in dashboard"
    assert issue.user == bot.fake.bot_login
    assert "## Decision register" in issue.body
    assert "`docs/decisions/0001-cuda.md`" in issue.body
    assert "## Migration plan" in issue.body
    assert writes(bot, repo) == (1, 0)

    await bot.push(repo, {"README.md": "# kernels, v3\n"})  # no figure moves
    assert writes(bot, repo) == (1, 0)

    await bot.push(repo, {"csrc/more.cu": KERNEL.replace("scale", "more")})
    assert writes(bot, repo) == (1, 1)
    (issue,) = dashboards(bot, repo)
    assert "`more`" in issue.body  # the new kernel is in the inventory


async def test_no_dashboard_without_non_portable_code(bot: Bot, fake_github: FakeGitHub) -> None:
    plain = fake_github.add_repo("octo-org/plain", files={"README.md": "# hi\n", "a.py": "x = 1\n"})
    await bot.push(plain, {"b.py": "y = 2\n"})
    assert dashboards(bot, plain) == []


async def test_racing_pushes_make_one_issue(bot: Bot, repo: Repo) -> None:
    first_before = repo.head()
    first = repo.commit({"csrc/a.cu": KERNEL.replace("scale", "a")})
    second = repo.commit({"csrc/b.cu": KERNEL.replace("scale", "b")})
    deliveries = [
        push_event(bot.fake, repo, first_before, first),
        push_event(bot.fake, repo, first, second),
    ]
    statuses = await asyncio.gather(*(bot.deliver("push", d) for d in deliveries))
    assert statuses == [202, 202]
    await bot.settle()
    assert len(dashboards(bot, repo)) == 1
    assert writes(bot, repo)[0] == 1


async def test_deleted_is_recreated_and_closed_is_left_closed(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/a.cu": KERNEL.replace("scale", "a")})
    (issue,) = dashboards(bot, repo)
    del repo.issues[issue.number]  # deleted by an admin
    await bot.push(repo, {"csrc/b.cu": KERNEL.replace("scale", "b")})
    (again,) = dashboards(bot, repo)
    assert again.id != issue.id  # a new issue

    again.state = "closed"  # a maintainer closed it
    before = writes(bot, repo)
    await bot.push(repo, {"csrc/c.cu": KERNEL.replace("scale", "c")})
    assert writes(bot, repo) == before
    assert [i.state for i in dashboards(bot, repo)] == ["closed"]


async def test_the_people_section_is_kept_and_the_bot_part_restored(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/a.cu": KERNEL.replace("scale", "a")})
    (issue,) = dashboards(bot, repo)
    start = issue.body.index(NOTES_START) + len(NOTES_START)
    end = issue.body.index(NOTES_END)
    ours = issue.body
    issue.body = (
        issue.body[:start].replace("## Figures", "## Figures (edited by a person)")
        + "\nWe plan the ROCm port for Q3.\n"
        + issue.body[end:]
    )
    await bot.push(repo, {"csrc/b.cu": KERNEL.replace("scale", "b")})
    (issue,) = dashboards(bot, repo)
    assert "We plan the ROCm port for Q3." in issue.body
    assert "(edited by a person)" not in issue.body
    assert issue.body != ours


async def test_ticking_the_checkbox_recounts_for_writers_only(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/a.cu": KERNEL.replace("scale", "a")})
    (issue,) = dashboards(bot, repo)
    unticked = issue.body
    # A commit lands without a push event reaching the bot: only a recount sees it.
    repo.commit({"csrc/late.cu": KERNEL.replace("scale", "late_kernel")})

    def tick(sender: str) -> dict[str, Any]:
        """`sender` ticks the box in the issue as it is now."""
        before = issue.body
        issue.body = before.replace(f"- [ ] {RECOUNT_MARK}", f"- [x] {RECOUNT_MARK}")
        changes = {"body": {"from": before}}
        return issues_event(bot.fake, repo, issue, "edited", sender=sender, changes=changes)

    assert await bot.deliver("issues", tick("reader")) == 202
    await bot.settle()
    assert "late_kernel" not in issue.body  # a reader cannot recount
    # ... and the box is unticked again, the rest as it was: a maintainer's tick must count.
    assert issue.body == unticked

    writer = tick(MAINTAINER)
    assert await bot.deliver("issues", writer) == 202
    await bot.settle()
    (issue,) = dashboards(bot, repo)
    assert "`late_kernel`" in issue.body
    assert f"- [ ] {RECOUNT_MARK}" in issue.body  # unticked again


async def test_repository_values_cannot_inject_markdown_or_mentions(bot: Bot, repo: Repo) -> None:
    hostile = (
        "---\ntype: compute-api\nstatus: accepted\nowner: '@everyone <img src=x> [a](http://e)'\n"
        "compute_api: '| cell | ![x](http://evil)'\nscope: ['csrc/**']\n---\n"
    )
    await bot.push(
        repo,
        {
            "docs/decisions/0002-@admins.md": hostile,
            "csrc/@org__team.cu": KERNEL.replace("scale", "evil"),
        },
    )
    (issue,) = dashboards(bot, repo)
    assert "<img" not in issue.body
    assert "](http://" not in issue.body  # no link, no image from a record's values
    assert "@everyone &lt;img src=x&gt; &#91;a&#93;&#40;http://e&#41;" in issue.body
    for line in issue.body.splitlines():
        # Every @ from the repository sits inside a code span or <code>, where GitHub
        # does not mention anyone.
        outside = _outside_code(line)
        assert "@" not in outside, line


def _outside_code(line: str) -> str:
    line = re.sub(r"<code>.*?</code>", "", line)
    return re.sub(r"`[^`]*`", "", line)


async def test_config_turns_it_off_and_sets_title_and_labels(
    bot: Bot, fake_github: FakeGitHub
) -> None:
    off = fake_github.add_repo(
        "octo-org/off", files={**FILES, ".github/lockin.yml": "dashboard: {enabled: false}\n"}
    )
    await bot.push(off, {"csrc/a.cu": KERNEL})
    assert dashboards(bot, off) == []
    named = fake_github.add_repo(
        "octo-org/named",
        files={**FILES, ".github/lockin.yml": "dashboard: {title: GPU lock-in, labels: [gpu]}\n"},
    )
    await bot.push(named, {"csrc/a.cu": KERNEL})
    (issue,) = dashboards(bot, named)
    assert (issue.title, issue.labels) == ("GPU lock-in", ["gpu"])


async def test_the_trend_chart_follows_the_points_the_census_records(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/extra.cu": KERNEL.replace("scale", "extra")})
    (issue,) = dashboards(bot, repo)
    assert "xychart-beta" not in issue.body  # one point is no trend yet

    await bot.push(repo, {"csrc/more.cu": KERNEL.replace("scale", "more")})

    (issue,) = dashboards(bot, repo)
    chart = issue.body.split("```mermaid", 1)[1].split("```", 1)[0]
    assert "xychart-beta" in chart
    values = [int(v) for v in chart.split("line [", 1)[1].split("]", 1)[0].split(",")]
    assert len(values) == 2
    assert values[1] > values[0]  # the second kernel added lines
