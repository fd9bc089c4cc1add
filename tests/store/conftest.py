"""The store's tests run on each backend: a SQLite file and a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import store_url
from tests.support.postgres import PostgresCluster, postgres_cluster

__all__ = ["postgres_cluster"]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of either backend, as the store's URL."""
    if request.param == "sqlite":
        return store_url(None, str(tmp_path / "lockin.db"))
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return store_url(cluster.new_database(), None)
