"""The store's tests run on each backend: a SQLite file and a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.server.keys import SERVICES
from bot.store import Store, store_url
from tests.fakegithub import FakeGitHub
from tests.recount.conftest import Bot
from tests.support.postgres import PostgresCluster, postgres_cluster
from tests.support.server import settings_for

__all__ = ["postgres_cluster"]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of either backend, as the store's URL."""
    if request.param == "sqlite":
        return store_url(None, str(tmp_path / "lockin.db"))
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return store_url(cluster.new_database(), None)


@pytest.fixture
def start_app(fake_github: FakeGitHub, aiohttp_client: Any, url: str) -> Iterator[Any]:
    """Start the real server (push, recount and PR routers) on the store at ``url``; call
    again for a restart (stop the previous one first: ``await bot.client.close()``)."""
    from bot.features import ROUTER
    from bot.server.app import create_app

    async def start(**overrides: Any) -> Bot:
        where = {"database_url": url} if url.startswith("postgresql") else {}
        if not where:
            where = {"db_path": url.removeprefix("sqlite+aiosqlite:///")}
        settings = settings_for(fake_github, log_format="pretty", **where, **overrides)
        client = await aiohttp_client(create_app(settings, router=ROUTER))
        return Bot(fake_github, client)

    yield start
    assert fake_github.contract_errors == []


def store_of(bot: Bot) -> Store:
    app = bot.client.app
    assert app is not None
    store = app[SERVICES].store
    assert store is not None
    return store
