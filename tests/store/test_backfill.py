"""Back-fill of past default-branch points: on installation and on `/lockin recount` while
the history is empty, through the real server and the fake GitHub's commits API."""

from __future__ import annotations

from typing import Any

from bot.features.backfill import spread
from bot.github.refs import RepoRef
from bot.runtime.backfill_pacing import RequestPacer
from tests.fakegithub import FakeGitHub, Repo
from tests.recount.conftest import FILES, KERNEL, MAINTAINER
from tests.store.conftest import store_of
from tests.support.webhooks import installation_event

# Fast pacing in the server tests; the pacer itself is tested below with a fake clock.
QUICK = {"history_backfill_points": 4, "backfill_requests_per_minute": 600_000}


def grown(fake: FakeGitHub, commits: int) -> tuple[Repo, list[str]]:
    """A repository whose kernels grow by one file per commit; its commits newest first."""
    repo = fake.add_repo("octo-org/kernels", files=dict(FILES))
    repo.collaborators[MAINTAINER] = "write"
    shas = [repo.head()]
    for n in range(commits):
        shas.append(repo.commit({f"csrc/k{n}.cu": KERNEL.replace("scale", f"k{n}")}))
    return repo, shas[::-1]


async def test_installation_back_fills_past_points_spread_over_the_history(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo, newest_first = grown(fake_github, 9)
    bot = await start_app(**QUICK)
    payload = installation_event(fake_github, repo.installation_id, "created")
    assert await bot.deliver("installation", payload) == 202
    await bot.settle()
    store = store_of(bot)
    await store.idle()

    points = await store.points(RepoRef("octo-org", "kernels"))
    # The head (counted on installation) and three more of the four spread from it.
    assert [p.commit for p in points] == spread(newest_first, 4)[::-1]
    figures = [p.nvidia_locked_lines for p in points]
    assert figures == sorted(figures)  # the history grew,
    assert len(set(figures)) == 4  # at every point
    assert len(fake_github.requests_to("GET", "^/repos/octo-org/kernels/commits$")) == 1
    # Each past point is one tarball, the head's included.
    assert bot.tarball_downloads(repo) == 4


async def test_recount_back_fills_only_while_the_history_is_empty(
    fake_github: FakeGitHub, start_app: Any
) -> None:
    repo, newest_first = grown(fake_github, 5)
    repo.commit({"csrc/feature.cu": KERNEL.replace("scale", "feature")}, branch="feature")
    pr = repo.open_pr(head_branch="feature", title="More kernels", user="contributor")
    bot = await start_app(**QUICK)
    await bot.command(repo, pr, "/lockin recount")
    store = store_of(bot)
    await store.idle()
    assert [p.commit for p in await store.points(RepoRef("octo-org", "kernels"))] == (
        spread(newest_first, 4)[::-1]
    )

    listed = len(fake_github.requests_to("GET", "/commits$"))
    await bot.command(repo, pr, "/lockin recount")
    await store.idle()
    assert len(fake_github.requests_to("GET", "/commits$")) == listed


async def test_the_pacer_gives_each_request_its_own_slot() -> None:
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = RequestPacer(30, clock=lambda: now[0], sleep=sleep)
    for _ in range(3):
        await pacer.turn()
    assert slept == [2.0, 2.0]  # 30 a minute: one every two seconds
    now[0] += 60
    await pacer.turn()
    assert slept == [2.0, 2.0]  # an idle pacer lets the next request go at once


def test_spread_keeps_both_ends() -> None:
    assert spread(list("abcdefghij"), 4) == ["a", "d", "g", "j"]
    assert spread(list("abc"), 5) == ["a", "b", "c"]
    assert spread(list("abc"), 0) == []
