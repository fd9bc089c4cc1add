"""Fixtures of the scale-out tests: a real redis-server and a cluster of real processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.fakegithub import FakeGitHub
from tests.scale.cluster import Cluster, RedisServer


@pytest.fixture
async def redis_server(tmp_path: Path) -> AsyncIterator[RedisServer]:
    server = RedisServer(tmp_path / "redis", appendonly=True)
    try:
        await server.start()
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def cluster(
    fake_github: FakeGitHub, redis_server: RedisServer, tmp_path: Path
) -> AsyncIterator[Cluster]:
    async with aiohttp.ClientSession() as http:
        cluster = Cluster(fake_github, redis_server, tmp_path, http)
        try:
            yield cluster
        finally:
            await cluster.close()
