"""The default branch's census on push (incremental when it can be), and the badge showing it."""

from __future__ import annotations

import re

from bot.census.by_commit import CensusAt, scope_of
from bot.engine.census import Census
from bot.github.archives import tarball
from bot.github.refs import RepoRef
from bot.policy.config import DEFAULT_POLICY
from bot.server.badge import format_share
from bot.server.keys import SERVICES
from bot.sources.tarball import ArchiveLimits, census_from_stream
from tests.engine import test_shims
from tests.fakegithub import Repo
from tests.recount.conftest import KERNEL, TRITON, Bot
from tests.support.webhooks import installation_event, push_event

BADGE = "/badge/octo-org/kernels.svg"


async def default_census(bot: Bot, repo: Repo) -> CensusAt:
    result = await bot.client.server.app[SERVICES].census.default_branch(
        RepoRef.parse(repo.full_name)
    )
    assert result is not None
    return result


async def full_recount(bot: Bot, repo: Repo, sha: str) -> Census:
    """The census of ``sha`` from its whole tarball, through the app's own GitHub client."""
    auth = bot.client.server.app[SERVICES].auth
    gh = auth.installation_client(repo.installation_id)
    async with tarball(gh, RepoRef.parse(repo.full_name), sha) as download:
        archive = await census_from_stream(
            download.chunks,
            declared_size=download.declared_size,
            limits=ArchiveLimits.for_archive(2**30),
        )
    return archive.census


def assert_same(a: Census, b: Census) -> None:
    assert a.totals == b.totals
    assert a.generated == b.generated
    assert a.skipped == b.skipped
    assert a.files() == b.files()
    assert len(a) == len(b)


def downloads(bot: Bot, repo: Repo) -> int:
    return bot.tarball_downloads(repo)


async def test_first_push_counts_the_tarball_then_pushes_are_incremental(
    bot: Bot, repo: Repo
) -> None:
    first = await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert downloads(bot, repo) == 1
    assert (await default_census(bot, repo)).sha == first

    after = await bot.push(
        repo,
        {
            "csrc/scale.cu": KERNEL + "\nvoid more() { cudaFree(0); }\n",  # modified
            "kernels/add.py": TRITON,  # added
            "train.py": None,  # removed
            "csrc/renamed.cu": KERNEL.replace("scale", "renamed"),
            "csrc/more.cu": None,  # with the line above: a rename GitHub may report
            "third_party/other/x.cu": KERNEL,  # added, but excluded by default
            "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary",
        },
    )

    assert downloads(bot, repo) == 1  # nothing downloaded again
    assert bot.fake.requests_to("GET", "/compare/")
    incremental = await default_census(bot, repo)
    assert incremental.sha == after
    assert "train.py" not in incremental.census
    assert "third_party/other/x.cu" not in incremental.census
    assert_same(incremental.census, await full_recount(bot, repo, after))


async def test_incremental_updates_do_not_touch_the_cached_previous_census(
    bot: Bot, repo: Repo
) -> None:
    first = await bot.push(repo, {"README.md": "# kernels!\n"})
    before = await default_census(bot, repo)
    locked_before = before.census.locked_to_nvidia()
    await bot.push(repo, {"csrc/scale.cu": None})

    store = bot.client.server.app[SERVICES].census
    cached = await store.get(RepoRef.parse(repo.full_name), first, scope_of(DEFAULT_POLICY))
    assert cached is not None
    assert cached.census.locked_to_nvidia() == locked_before > 0
    assert (await default_census(bot, repo)).census.locked_to_nvidia() == 0


async def test_a_force_push_falls_back_to_a_full_count(bot: Bot, repo: Repo) -> None:
    initial = repo.head()
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    old_head = repo.head()
    # Rewrite main to a history that does not contain the old head.
    repo.branches["rewrite"] = initial
    repo.commit({"csrc/other.cu": KERNEL}, branch="rewrite")
    after = repo.branches[repo.default_branch] = repo.head("rewrite")
    assert await bot.deliver("push", push_event(bot.fake, repo, old_head, after)) == 202
    await bot.settle()

    assert downloads(bot, repo) == 2
    result = await default_census(bot, repo)
    assert result.sha == after
    assert_same(result.census, await full_recount(bot, repo, after))


async def test_pushes_to_other_branches_are_ignored(bot: Bot, repo: Repo) -> None:
    before = repo.head("main")
    after = repo.commit({"csrc/more.cu": KERNEL}, branch="topic")
    payload = push_event(bot.fake, repo, before, after, ref="refs/heads/topic")
    assert await bot.deliver("push", payload) == 202
    await bot.settle()
    assert downloads(bot, repo) == 0


async def test_a_config_change_recounts_with_the_new_path_settings(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    after = await bot.push(repo, {".github/lockin.yml": "paths:\n  exclude: [csrc/]\n"})
    result = await default_census(bot, repo)
    assert result.sha == after
    assert result.census.locked_to_nvidia() == 0
    assert not any(path.startswith("csrc/") for path in (s.path for s in result.census.files()))


async def test_badge_for_an_installed_repository(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    share = (await default_census(bot, repo)).census.nvidia_share()
    assert share > 0

    response = await bot.client.get(BADGE)
    body = await response.text()
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("image/svg+xml")
    assert re.search(r"max-age=\d+", response.headers["Cache-Control"])
    assert body.startswith("<svg")
    assert body.endswith("</svg>")
    assert f">{format_share(share)}</text>" in body
    assert "NVIDIA lock-in" in body
    assert "ghs_" not in body

    again = await bot.client.get(BADGE, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status == 304


async def test_badge_for_unknown_repositories_is_404(bot: Bot, repo: Repo) -> None:
    for path in (BADGE, "/badge/someone/else.svg", "/badge/octo-org/..%2Fkernels.svg"):
        response = await bot.client.get(path)
        assert response.status == 404
        assert ">unknown</text>" in await response.text()


async def test_a_private_repository_gets_no_badge(bot: Bot) -> None:
    private = bot.fake.add_repo("octo-org/secret-kernels", files={"a.cu": KERNEL}, private=True)
    await bot.push(private, {"csrc/more.cu": KERNEL})
    assert await default_census(bot, private) is not None  # counted for its PRs' base figure
    response = await bot.client.get("/badge/octo-org/secret-kernels.svg")
    assert response.status == 404
    assert ">unknown</text>" in await response.text()


async def test_badge_goes_back_to_unknown_when_the_app_is_removed(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert (await bot.client.get(BADGE)).status == 200
    payload = installation_event(bot.fake, repo.installation_id, "deleted")
    assert await bot.deliver("installation", payload) == 202
    await bot.settle()
    assert (await bot.client.get(BADGE)).status == 404


async def test_installing_the_app_counts_the_default_branch_for_the_badge(
    bot: Bot, repo: Repo
) -> None:
    assert (await bot.client.get(BADGE)).status == 404
    payload = installation_event(bot.fake, repo.installation_id, "created")
    assert await bot.deliver("installation", payload) == 202
    await bot.settle()

    result = await default_census(bot, repo)
    assert result.sha == repo.head()
    assert_same(result.census, await full_recount(bot, repo, repo.head()))
    response = await bot.client.get(BADGE)
    assert response.status == 200
    assert f">{format_share(result.census.nvidia_share())}</text>" in await response.text()


async def test_pushes_that_add_or_cut_a_hip_shim_match_a_full_recount(bot: Bot, repo: Repo) -> None:
    await bot.push(
        repo, {"csrc/gpu/common.cuh": test_shims.COMMON, "csrc/gpu/k.cu": test_shims.KERNEL}
    )
    without = (await default_census(bot, repo)).census.locked_to_nvidia()
    steps = [
        {"csrc/gpu/vendors/hip.h": test_shims.shim_header(12)},  # the shim arrives
        {"csrc/gpu/common.cuh": "#pragma once\n#include <cuda_runtime.h>\n"},  # include cut
        {"csrc/gpu/common.cuh": test_shims.COMMON},  # and comes back
    ]
    for step, files in enumerate(steps):
        after = await bot.push(repo, files)
        incremental = (await default_census(bot, repo)).census
        full = await full_recount(bot, repo, after)
        assert_same(incremental, full)
        assert incremental.locked_to_nvidia() == full.locked_to_nvidia()
        assert incremental.matrix() == full.matrix()
        carried = incremental.carried_by_shims()
        assert carried == (0 if step == 1 else 4 + 2 + 1)  # k.cu's and common.cuh's lines
        assert incremental.locked_to_nvidia() == without - carried
    assert downloads(bot, repo) == 1 + len(steps)  # the recounts; the census was incremental
