"""The real server on loopback, GitHub being the fake, and a feature double that uses the
real GitHub client: what every server test drives."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from gidgethub import sansio
from gidgethub.routing import Router

from bot.features import installation
from bot.github.client import GitHub
from bot.runtime.context import JobContext
from bot.runtime.logs import configure_logging
from bot.runtime.settings import Settings
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.support.server import SECRET, settings_for
from tests.support.webhooks import pull_request_event, webhook_headers


class PrFeature:
    """A test double of a feature: on `pull_request` opened it reads the PR and comments on
    it through the real client. `gate` holds handlers until set; `fail` makes them raise."""

    def __init__(self) -> None:
        self.router = Router()
        self.done: list[str] = []
        self.errors: list[BaseException] = []
        self.started: list[str] = []
        self.gate: asyncio.Event | None = None
        self.fail = False
        self.router.add(self.handle, "pull_request", action="opened")

    async def handle(self, event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
        self.started.append(event.delivery_id)
        if self.gate is not None:
            await self.gate.wait()
        repo = event.data["repository"]
        where = {"owner": repo["owner"]["login"], "repo": repo["name"]}
        try:
            pr = await gh.getitem(
                "/repos/{owner}/{repo}/pulls/{number}", {**where, "number": event.data["number"]}
            )
            if self.fail:
                raise RuntimeError("the feature failed")
            await gh.post(
                "/repos/{owner}/{repo}/issues/{number}/comments",
                {**where, "number": pr["number"]},
                data={"body": f"seen in {event.delivery_id}"},
            )
        except Exception as exc:
            self.errors.append(exc)
            raise
        self.done.append(event.delivery_id)


@dataclass
class Bot:
    """The running server and what tests need to talk to it."""

    server: TestServer
    http: aiohttp.ClientSession
    settings: Settings
    feature: PrFeature
    fake: FakeGitHub
    repo: Repo
    pr: PullRequest
    sent: list[str] = field(default_factory=list)

    @property
    def webhook_url(self) -> str:
        return str(self.server.make_url(self.settings.webhook_path))

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.webhook_url, data=body, headers=headers) as response:
            return response.status, await response.json()

    async def deliver(
        self, event: str, payload: dict[str, Any], delivery: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        """A delivery signed and sent as GitHub sends it."""
        body = json.dumps(payload).encode()
        delivery = delivery or str(uuid.uuid4())
        self.sent.append(delivery)
        return await self.post(body, webhook_headers(event, body, SECRET, delivery))

    async def open_pr(self, delivery: str | None = None) -> tuple[int, dict[str, Any]]:
        return await self.deliver(
            "pull_request", pull_request_event(self.fake, self.repo, self.pr, "opened"), delivery
        )

    def comments(self) -> list[str]:
        """Bodies of the comments on the PR, as the fake recorded them."""
        return [c.body for c in self.repo.comments.values() if c.issue_number == self.pr.number]

    async def get(self, path: str) -> tuple[int, str]:
        async with self.http.get(self.server.make_url(path)) as response:
            return response.status, await response.text()


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for background work (jobs run after the answer); fail naming what never came."""
    deadline = time.monotonic() + 120.0  # only bounds a hang: a loaded machine is slow
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


StartBot = Callable[..., Awaitable[Bot]]


@pytest.fixture
async def start_bot(fake_github: FakeGitHub) -> Any:
    """Start the real app on loopback with the feature double (and any more routers given);
    keyword arguments override settings. Closed at the end (gracefully: the queue drains)."""
    started: list[tuple[TestServer, aiohttp.ClientSession]] = []

    async def start(*more: Router, **overrides: Any) -> Bot:
        repo = fake_github.add_repo("octo-org/kernels", files={"README.md": "# kernels\n"})
        repo.commit({"src/add.cu": "__global__ void add() {}\n"}, branch="feature")
        pr = repo.open_pr(head_branch="feature", title="Add a kernel")
        feature = PrFeature()
        settings = settings_for(fake_github, **overrides)
        app = create_app(settings, router=Router(installation.router, feature.router, *more))
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        http = aiohttp.ClientSession()
        started.append((server, http))
        return Bot(server, http, settings, feature, fake_github, repo, pr)

    yield start
    for server, http in started:
        await http.close()
        await server.close()


@pytest.fixture
def capture_logs() -> Any:
    """`capture_logs(fmt)` routes the server's logs to a buffer, as `serve` would to stdout."""
    root, ours = logging.getLogger(), logging.getLogger("lockin")
    levels = root.level, ours.level
    handlers: list[logging.Handler] = []

    def capture(fmt: str) -> CapturedLogs:
        stream = io.StringIO()
        handlers.append(configure_logging("debug", fmt, stream=stream))
        return CapturedLogs(stream)

    yield capture
    for handler in handlers:
        root.removeHandler(handler)
    root.setLevel(levels[0])
    ours.setLevel(levels[1])


@pytest.fixture
def json_logs(capture_logs: Any) -> CapturedLogs:
    """What the server logs, as its JSON lines; `.text` is the raw output."""
    return capture_logs("json")


@dataclass
class CapturedLogs:
    stream: io.StringIO

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines()]


class Arrivals(list):  # type: ignore[type-arg]
    """Stands in for `fake.requests` and notes when each request reached the fake."""

    def __init__(self, existing: list[Any]) -> None:
        super().__init__(existing)
        self.times: dict[int, float] = {}

    def append(self, record: Any) -> None:
        self.times[id(record)] = time.time()
        super().append(record)

    def at(self, record: Any) -> float:
        return self.times[id(record)]


def note_arrivals(fake: FakeGitHub) -> Arrivals:
    arrivals = Arrivals(fake.requests)
    fake.requests = arrivals
    return arrivals
