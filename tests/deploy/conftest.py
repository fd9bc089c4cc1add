"""An unconfigured lockin server on loopback, in a scratch working directory (the manifest
template is the one shipped in the package, as for an installed lockin)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from bot.runtime.settings import Settings
from bot.server.app import create_app
from bot.server.manifest import PACKAGED_APP_YML
from tests.fakegithub import FakeGitHub

REPO_ROOT = Path(__file__).resolve().parents[2]
PUBLIC_URL = "https://lockin.example.org"


#: The setup token the servers of these tests are given unless a test names another.
SETUP_TOKEN = "test-setup-token-0123456789"


@dataclass
class SetupServer:
    url: str
    workdir: Path
    settings: Settings

    @property
    def setup_link(self) -> str:
        """The link `lockin serve` prints: the setup page with the token."""
        return f"{self.url}/setup?token={self.settings.setup_token}"


@pytest.fixture
def app_yml() -> dict:
    return yaml.safe_load(PACKAGED_APP_YML.read_text(encoding="utf-8"))


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The server's working directory: where it writes .env, as in production."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("GH_ORG", raising=False)
    return work


StartServer = Callable[..., Awaitable[SetupServer]]


@pytest.fixture
def start_server(aiohttp_server, workdir: Path, fake_github: FakeGitHub) -> StartServer:
    """Start the real app (create_app) with these settings, GitHub being the fake."""

    async def start(**environ: str) -> SetupServer:
        settings = Settings.from_env(
            {"GITHUB_API_URL": fake_github.url, "SETUP_TOKEN": SETUP_TOKEN, **environ},
            env_file=workdir / ".env",
        )
        server = await aiohttp_server(create_app(settings), host="127.0.0.1")
        return SetupServer(str(server.make_url("")).rstrip("/"), workdir, settings)

    return start
