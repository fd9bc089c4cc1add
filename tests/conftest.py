"""Fixtures shared by every test: a running fake GitHub on loopback."""

from collections.abc import AsyncIterator

import pytest

from tests.fakegithub import FakeGitHub


@pytest.fixture
async def fake_github() -> AsyncIterator[FakeGitHub]:
    """A started fake GitHub; point the bot's GITHUB_API_URL at `fake_github.url`."""
    async with FakeGitHub() as fake:
        yield fake
