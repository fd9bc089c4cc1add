"""Real processes for the scale-out tests: a redis-server on a free loopback port, `lockin
serve` web replicas and `lockin worker` processes as subprocesses, all pointed at the fake
GitHub running in the test process. Every wait is bounded; `Cluster.close` stops everything."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import aiohttp
import redis.asyncio as aioredis

from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.fakegithub.state import iso
from tests.support.webhooks import pull_request_event, webhook_headers

SECRET = "scale-out-secret"
QUEUE = "lockin:jobs"
#: Seconds a process may take to start: an import of the whole app and its first requests,
#: seconds on a quiet machine and minutes on a loaded 2-core one. Only a bound on a hang.
START_PATIENCE = 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def until(
    condition: Callable[[], Awaitable[bool] | bool], what: str, *, within: float = 60.0
) -> None:
    """Poll `condition` until true; fail naming what never happened."""
    deadline = time.monotonic() + within
    while True:
        result = condition()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened within {within:.0f} s: {what}")
        await asyncio.sleep(0.1)


def _append(path: Path) -> BinaryIO:
    """A log file for a child process (closed here once the child has inherited it)."""
    return path.open("ab")


async def _stop(process: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(sig)
    try:
        await asyncio.wait_for(process.wait(), 30)
    except TimeoutError:
        process.kill()
        await process.wait()


class RedisServer:
    """redis-server on 127.0.0.1, its data (AOF) in `directory`; restartable on its port."""

    def __init__(self, directory: Path, *, appendonly: bool = True) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise AssertionError("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.directory = directory
        self.appendonly = appendonly
        self.port = free_port()
        self.process: asyncio.subprocess.Process | None = None
        directory.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> aioredis.Redis:
        return aioredis.Redis.from_url(self.url)

    async def start(self) -> None:
        log = _append(self.directory / "redis.log")
        self.process = await asyncio.create_subprocess_exec(
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--dir", str(self.directory),
            stdout=log,
            stderr=log,
        )  # fmt: skip
        log.close()
        client = self.client()
        try:
            await until(
                lambda: self._pings(client), "redis-server answering PING", within=START_PATIENCE
            )
        finally:
            await client.aclose()

    async def _pings(self, client: aioredis.Redis) -> bool:
        assert self.process is not None
        assert self.process.returncode is None, "redis-server exited at start"
        try:
            return bool(await client.ping())
        except (aioredis.ConnectionError, OSError):
            return False

    async def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file and exits."""
        if self.process is not None:
            await _stop(self.process)


@dataclass
class Process:
    name: str
    process: asyncio.subprocess.Process
    log_path: Path

    def logs(self) -> list[dict[str, Any]]:
        lines = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
        return lines

    def logged(self, msg_start: str, **fields: Any) -> bool:
        return any(
            str(line.get("msg", "")).startswith(msg_start)
            and all(line.get(k) == v for k, v in fields.items())
            for line in self.logs()
        )

    async def stop(self) -> None:
        await _stop(self.process)

    async def kill(self) -> None:
        await _stop(self.process, signal.SIGKILL)


@dataclass
class Web(Process):
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    fake: FakeGitHub
    redis: RedisServer
    directory: Path
    http: aiohttp.ClientSession
    settings: dict[str, str] = field(default_factory=dict)
    webs: list[Web] = field(default_factory=list)
    workers: list[Process] = field(default_factory=list)
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def environ(self, **extra: str) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", ""),
            "APP_ID": str(self.fake.app_id),
            "PRIVATE_KEY": self.fake.private_key_pem.replace("\n", "\\n"),
            "WEBHOOK_SECRET": SECRET,
            "GITHUB_API_URL": self.fake.url,
            "REDIS_URL": self.redis.url,
            "HOST": "127.0.0.1",
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "info",
            "WRITE_INTERVAL": "0",
            "RETRY_BACKOFF": "0.05",
            "REQUEST_TIMEOUT": "5",
            "WORKERS": "4",
            "JOB_TIMEOUT": "20",
            "JOB_RETRY_DELAYS": "off",  # a test that wants lockin's own retries sets them
            "HISTORY_BACKFILL_POINTS": "0",  # no background downloads to miscount
            **self.settings,
            **extra,
        }

    async def _spawn(self, name: str, command: str, environ: dict[str, str]) -> tuple[Any, Path]:
        log_path = self.directory / f"{name}.log"
        log = _append(log_path)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", command,
            env=environ, cwd=self.directory, stdout=log, stderr=log,
        )  # fmt: skip
        log.close()
        return process, log_path

    async def start_web(self, *, ready: bool = True, **extra: str) -> Web:
        """A `lockin serve` replica, started until ready (or only alive: `ready=False`)."""
        port = free_port()
        name = f"web{next(self._numbers)}"
        environ = self.environ(PORT=str(port), **extra)
        process, log_path = await self._spawn(name, "serve", environ)
        web = Web(name, process, log_path, port)
        self.webs.append(web)
        probe = "/readyz" if ready else "/healthz"
        await until(lambda: self._answers(web, probe), f"{name} {probe}", within=START_PATIENCE)
        return web

    async def ready(self, web: Web) -> bool:
        return await self._answers(web, "/readyz")

    async def _answers(self, web: Web, probe: str) -> bool:
        assert web.process.returncode is None, f"{web.name} exited: {web.log_path.read_text()}"
        try:
            async with self.http.get(web.url + probe) as response:
                return response.status == 200
        except aiohttp.ClientConnectionError:
            return False

    async def start_worker(self, **extra: str) -> Process:
        name = f"worker{next(self._numbers)}"
        process, log_path = await self._spawn(name, "worker", self.environ(**extra))
        worker = Process(name, process, log_path)
        self.workers.append(worker)

        def started() -> bool:
            assert process.returncode is None, f"{name} exited: {log_path.read_text()}"
            return worker.logged("worker ready")

        await until(started, f"{name} ready", within=START_PATIENCE)
        return worker

    async def deliver(
        self, web: Web, event: str, payload: dict[str, Any], delivery: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        body = json.dumps(payload).encode()
        headers = webhook_headers(event, body, SECRET, delivery or str(uuid.uuid4()))
        async with self.http.post(
            web.url + "/api/github/webhooks", data=body, headers=headers
        ) as response:
            return response.status, await response.json()

    async def idle(self) -> bool:
        """No job waiting or running."""
        client = self.redis.client()
        try:
            return await client.zcard(QUEUE) == 0
        except (aioredis.ConnectionError, OSError):
            return False
        finally:
            await client.aclose()

    async def close(self) -> None:
        await asyncio.gather(*(p.stop() for p in [*self.webs, *self.workers]))


def pr_payload(fake: FakeGitHub, repo: Repo, pr: PullRequest, action: str) -> dict[str, Any]:
    """A pull_request delivery whose `updated_at` is its head commit's time, as on GitHub
    (the fake's PR shape keeps the creation time)."""
    payload = pull_request_event(fake, repo, pr, action)
    payload["pull_request"]["updated_at"] = iso(repo.store.commits[pr.head_sha].timestamp)
    return payload
