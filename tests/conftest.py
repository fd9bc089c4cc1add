"""Fixtures shared by every test: a running fake GitHub on loopback. Markers by place."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakegithub import FakeGitHub


@pytest.fixture
async def fake_github() -> AsyncIterator[FakeGitHub]:
    """A started fake GitHub; point the bot's GITHUB_API_URL at `fake_github.url`."""
    async with FakeGitHub() as fake:
        yield fake


#: Tests that need more than Python, marked by where they live (`make test-fast` leaves
#: them out): `scale` starts redis-server and `lockin worker` processes, `browser` headless
#: Chromium. `slow` is set in the modules themselves (packaging, the pre-commit hook).
_MARKS_BY_PLACE = {
    "tests/scale/": "scale",
    "tests/deploy/test_setup_page_browser.py": "browser",
}
_ROOT = Path(__file__).parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        place = item.path.relative_to(_ROOT).as_posix()
        for prefix, mark in _MARKS_BY_PLACE.items():
            if place.startswith(prefix):
                item.add_marker(mark)
