"""The trend where people look: the PR comment and check run after a restart, and the
history endpoint, through the real server and the fake GitHub, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.store import Point
from tests.fakegithub import FakeGitHub, Repo
from tests.recount.conftest import FILES, KERNEL
from tests.store.conftest import store_of
from tests.support.webhooks import pull_request_event

MARKER = "<!-- lockin:sticky-comment -->"


def old_point(n: int, days_ago: int, locked: int) -> Point:
    return Point(
        commit=f"{n:040x}",
        date=dt.datetime.now(dt.UTC) - dt.timedelta(days=days_ago),
        code_lines=100,
        non_portable_lines=locked,
        nvidia_locked_lines=locked,
        nvidia_share=locked / 100,
    )


def kernels(fake: FakeGitHub, *, private: bool = False) -> Repo:
    return fake.add_repo("octo-org/kernels", files=dict(FILES), private=private)


async def test_the_pr_comment_and_check_run_show_the_trend_after_a_restart(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = kernels(fake_github)
    bot = await start_app()
    # Points from before: 100 and 40 days ago (as a back-fill would have left them).
    await store_of(bot).record_point("octo-org/kernels", old_point(1, 100, 3))
    await store_of(bot).record_point("octo-org/kernels", old_point(2, 40, 7))
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    [*_, today] = await store_of(bot).points("octo-org/kernels")
    await bot.client.close()

    bot = await start_app()  # a new app on the same database: nothing cached in memory
    repo.commit({"csrc/add.cu": KERNEL.replace("scale", "add")}, branch="feature")
    pr = repo.open_pr(head_branch="feature", title="Add a kernel", user="contributor")
    assert await bot.deliver("pull_request", pull_request_event(fake_github, repo, pr, "opened"))
    await bot.settle()

    expected = f"today {today.nvidia_locked_lines:,}; 30 days ago 7; 90 days ago 3; "
    [comment] = [c for c in repo.comments.values() if MARKER in c.body]
    assert expected in comment.body
    [run] = repo.check_runs.values()
    assert expected in run.output["summary"]
    slope = round((today.nvidia_locked_lines - 3) * 30.4375 / 100, 1)
    assert f"{slope:+,.1f} lines a month" in comment.body


async def test_history_endpoint_serves_public_repositories(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = kernels(fake_github)
    bot = await start_app()
    head = await bot.push(repo, {"csrc/more.cu": KERNEL})
    await store_of(bot).record_point("octo-org/kernels", old_point(1, 100, 3))

    response = await bot.client.get("/api/repos/Octo-Org/kernels/history")
    assert response.status == 200
    body = await response.json()
    assert body["repository"] == "octo-org/kernels"
    assert [p["commit"] for p in body["points"]] == [old_point(1, 0, 0).commit, head]
    assert body["trend"]["days_90"] == 3
    assert body["points"][1]["nvidia_locked_lines"] == body["trend"]["nvidia_locked_lines"]


async def test_history_endpoint_never_shows_a_private_repository(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = kernels(fake_github, private=True)
    bot = await start_app()
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert await store_of(bot).points("octo-org/kernels")  # the bot does keep its trend

    private = await bot.client.get("/api/repos/octo-org/kernels/history")
    unknown = await bot.client.get("/api/repos/octo-org/never-seen/history")
    invalid = await bot.client.get("/api/repos/octo-org/..%2Fx/history")
    assert private.status == unknown.status == invalid.status == 404
    assert await private.read() == await unknown.read()
    assert "nvidia" not in (await private.text()).lower()


async def test_the_badge_shows_the_90_day_change_when_asked(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = kernels(fake_github)
    bot = await start_app()
    await store_of(bot).record_point("octo-org/kernels", old_point(1, 100, 3))
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    [*_, today] = await store_of(bot).points("octo-org/kernels")

    plain = await (await bot.client.get("/badge/octo-org/kernels.svg")).text()
    response = await bot.client.get("/badge/octo-org/kernels.svg?trend")
    assert response.status == 200
    with_trend = await response.text()
    assert "/ 90d" not in plain
    assert f"▲ +{today.nvidia_locked_lines - 3:,} / 90d" in with_trend
