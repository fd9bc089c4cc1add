"""Every answer to anyone follows visibility: once a repository is made private, renamed,
transferred, deleted or removed from the app, the badge (with and without the trend) and
the history endpoint answer its old name exactly as they answer a name never seen, at once
and after a restart. Signed deliveries to the real server, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.github.refs import RepoRef
from tests.fakegithub import FakeGitHub, Repo
from tests.recount.conftest import FILES, KERNEL, Bot
from tests.recount.test_repository_events import repository_event
from tests.scale.cluster import until
from tests.store.conftest import store_of
from tests.store.test_optional_store import WriteLock, app_on_file
from tests.support.webhooks import (
    installation_event,
    listed_repository,
    load_example,
    overlay,
)

UNKNOWN = "octo-org/never-seen"


def public_paths(full_name: str) -> list[str]:
    """Every endpoint that answers without signing in and names a repository."""
    return [
        f"/badge/{full_name}.svg",
        f"/badge/{full_name}.svg?trend",
        f"/api/repos/{full_name}/history",
    ]


async def answers(bot: Bot, full_name: str) -> list[tuple[int, bytes]]:
    found = []
    for path in public_paths(full_name):
        response = await bot.client.get(path)
        found.append((response.status, await response.read()))
    return found


async def assert_unknown(bot: Bot, full_name: str) -> None:
    """Answered as a name never seen: same statuses, same bodies, nothing more."""
    seen, never = await answers(bot, full_name), await answers(bot, UNKNOWN)
    assert [status for status, _ in seen] == [404, 404, 404]
    assert seen == never


async def assert_served(bot: Bot, full_name: str) -> None:
    assert [status for status, _ in await answers(bot, full_name)] == [200, 200, 200]


def removed_event(fake: FakeGitHub, repo: Repo) -> dict[str, Any]:
    """installation_repositories.removed: the repository taken out of the installation."""
    payload = load_example("installation_repositories.removed.1")
    account = fake.shapes.user(fake.installations[repo.installation_id].account)
    payload["installation"] = overlay(
        payload["installation"], {"id": repo.installation_id, "account": account}
    )
    payload["repositories_removed"] = [listed_repository(fake, repo)]
    payload["sender"] = overlay(payload["sender"], fake.shapes.user("octocat"))
    return payload


def event_for(bot: Bot, repo: Repo, what: str) -> tuple[str, dict[str, Any], str | None]:
    """(event, payload, the repository's name afterwards if it still has one we serve)."""
    if what == "privatized":
        return (
            "repository",
            repository_event(bot, repo, "privatized", "repository.privatized.1"),
            None,
        )
    if what == "renamed":
        payload = repository_event(bot, repo, "renamed", "repository.renamed.1")
        payload["changes"] = {"repository": {"name": {"from": "kernels"}}}
        payload["repository"] |= {"name": "kernels-2", "full_name": "octo-org/kernels-2"}
        return "repository", payload, "octo-org/kernels-2"
    if what == "transferred":
        payload = repository_event(bot, repo, "transferred", "repository.transferred.1")
        payload["changes"] = {"owner": {"from": {"organization": {"login": "octo-org"}}}}
        payload["repository"]["full_name"] = "octo-elsewhere/kernels"
        return "repository", payload, None
    if what == "deleted":
        # No example of `deleted` is published: its payload is that of the other actions.
        return "repository", repository_event(bot, repo, "deleted", "repository.privatized.1"), None
    if what == "removed from the app":
        return "installation_repositories", removed_event(bot.fake, repo), None
    assert what == "app uninstalled"
    return "installation", installation_event(bot.fake, repo.installation_id, "deleted"), None


WHAT = [
    "privatized",
    "renamed",
    "transferred",
    "deleted",
    "removed from the app",
    "app uninstalled",
]


@pytest.mark.parametrize("what", WHAT)
async def test_the_old_name_is_answered_as_unknown_at_once_and_after_a_restart(
    fake_github: FakeGitHub, start_app: Any, what: str
) -> None:
    repo = fake_github.add_repo("octo-org/kernels", files=dict(FILES))
    bot = await start_app()
    head = await bot.push(repo, {"csrc/more.cu": KERNEL})
    await assert_served(bot, "octo-org/kernels")

    event, payload, renamed = event_for(bot, repo, what)
    assert await bot.deliver(event, payload) == 202
    await bot.settle()
    await assert_unknown(bot, "octo-org/kernels")
    await assert_unknown(bot, "Octo-Org/Kernels")  # names are case-insensitive
    if renamed is not None:
        # The points and the census follow the repository to its new name.
        await assert_served(bot, renamed)
        history = await (await bot.client.get(f"/api/repos/{renamed}/history")).json()
        assert [p["commit"] for p in history["points"]] == [head]
    await bot.client.close()

    bot = await start_app()  # nothing in memory: what the store kept decides
    await assert_unknown(bot, "octo-org/kernels")
    assert [p.commit for p in await store_of(bot).points(renamed or "octo-org/kernels")] == [head]
    if renamed is not None:
        history = await bot.client.get(f"/api/repos/{renamed}/history")
        assert history.status == 200


async def test_a_repository_made_private_while_the_store_is_locked_is_hidden_at_once(
    fake_github: FakeGitHub, aiohttp_client: Any, tmp_path: Path
) -> None:
    database = tmp_path / "lockin.db"
    repo = fake_github.add_repo("octo-org/kernels", files=dict(FILES))
    bot = await app_on_file(fake_github, aiohttp_client, database)
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    await assert_served(bot, "octo-org/kernels")

    lock = await WriteLock.take(database)
    try:
        _, payload, _ = event_for(bot, repo, "privatized")
        assert await bot.deliver("repository", payload) == 202
        await bot.settle()
        assert store_of(bot).keeper.pending == 1  # the store's own flag waits
        await assert_unknown(bot, "octo-org/kernels")
    finally:
        await lock.release()

    async def written() -> bool:
        known = await store_of(bot).repository(RepoRef("octo-org", "kernels"))
        return known is not None and not known.public

    await until(written, "the store's visibility written after the lock")
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT public FROM repositories WHERE full_name = 'octo-org/kernels'")
        assert rows.fetchall() == [(0,)]
    await assert_unknown(bot, "octo-org/kernels")
