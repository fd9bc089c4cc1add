"""The bot records a point per default-branch census: signed pushes over HTTP to the real
server, the fake GitHub behind it, the store on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.engine.trend import census_figures
from bot.github.refs import RepoRef
from bot.store import Point
from tests.fakegithub import FakeGitHub
from tests.recount.conftest import FILES, KERNEL
from tests.recount.test_census_push import default_census
from tests.store.conftest import store_of
from tests.support.webhooks import push_event


def locked(figures: list[Any]) -> list[int]:
    return [p.nvidia_locked_lines for p in figures]


async def test_each_push_records_a_point_that_survives_a_restart(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = fake_github.add_repo("octo-org/kernels", files=dict(FILES))
    bot = await start_app()
    first = await bot.push(repo, {"csrc/more.cu": KERNEL})
    second = await bot.push(repo, {"csrc/third.cu": KERNEL.replace("scale", "third")})
    before = await store_of(bot).points("octo-org/kernels")
    counted = await default_census(bot, repo)
    await bot.client.close()

    bot = await start_app()
    after = await store_of(bot).points("Octo-Org/kernels")
    assert [p.commit for p in after] == [first, second]
    assert after == before
    commit = repo.store.commits[second]
    assert after[1].date == dt.datetime.fromtimestamp(commit.timestamp, dt.UTC)
    assert locked(after)[1] > locked(after)[0] > 0
    # Figure for figure the census the bot took of that commit.
    assert counted.sha == second
    assert after[1] == Point.from_figures(second, after[1].date, census_figures(counted.census))


async def test_a_redelivered_push_adds_no_second_point(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = fake_github.add_repo("octo-org/kernels", files=dict(FILES))
    bot = await start_app()
    before = repo.head()
    after = repo.commit({"csrc/more.cu": KERNEL})
    payload = push_event(fake_github, repo, before, after)
    assert await bot.deliver("push", payload) == 202
    await bot.settle()
    assert await bot.deliver("push", payload) == 202  # a new delivery id, the same push
    await bot.settle()
    assert [p.commit for p in await store_of(bot).points("octo-org/kernels")] == [after]


async def test_a_force_push_marks_the_points_of_commits_that_left(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo = fake_github.add_repo("octo-org/kernels", files=dict(FILES))
    bot = await start_app()
    base = await bot.push(repo, {"csrc/more.cu": KERNEL})
    dropped = await bot.push(repo, {"csrc/dropped.cu": KERNEL.replace("scale", "dropped")})
    # Rewrite the branch: back to `base`, then another commit on top of it.
    repo.branches[repo.default_branch] = base
    rewritten = repo.commit({"README.md": "# kernels, rewritten\n"})
    payload = push_event(fake_github, repo, dropped, rewritten) | {"forced": True}
    assert await bot.deliver("push", payload) == 202
    await bot.settle()

    store = store_of(bot)
    assert [p.commit for p in await store.points(RepoRef("octo-org", "kernels"))] == [
        base,
        rewritten,
    ]
    everything = await store.points(RepoRef("octo-org", "kernels"), include_left=True)
    assert [(p.commit, p.left_branch) for p in everything] == [
        (base, False),
        (dropped, True),
        (rewritten, False),
    ]
