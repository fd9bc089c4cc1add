"""The trend store is optional: `lockin serve` starts and the PR check finishes with its
verdict when the store is corrupt, unreachable or locked, readiness says the trend is
degraded, and the writes it could not make land once the store answers again.

Real processes throughout: `lockin serve` as a subprocess (or the real app on loopback),
GitHub the fake over HTTP, a PostgreSQL cluster of the test's own, and another process
holding SQLite's write lock."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
import pytest

from bot.github.refs import RepoRef
from bot.review.check_writer import ERROR_TITLE
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.fakegithub.state import CheckRun
from tests.recount.conftest import FILES, KERNEL, Bot
from tests.scale.cluster import free_port, until
from tests.store.conftest import postgres_cluster, store_of
from tests.support.postgres import PostgresCluster
from tests.support.server import settings_for
from tests.support.webhooks import pull_request_event, push_event, webhook_headers

SECRET = "optional-store-secret"
__all__ = ["postgres_cluster"]


@dataclass
class Served:
    """`lockin serve` running as its own process, its JSON logs in a file."""

    url: str
    process: asyncio.subprocess.Process
    log_path: Path
    http: aiohttp.ClientSession

    async def deliver(self, event: str, payload: dict[str, Any]) -> int:
        body = json.dumps(payload).encode()
        headers = webhook_headers(event, body, SECRET, str(uuid.uuid4()))
        async with self.http.post(
            self.url + "/api/github/webhooks", data=body, headers=headers
        ) as response:
            return response.status

    async def get(self, path: str) -> tuple[int, str]:
        async with self.http.get(self.url + path) as response:
            return response.status, await response.text()

    async def trend(self) -> str:
        status, body = await self.get("/readyz")
        assert status == 200, body  # ready whatever the store's state: the gate works
        return str(json.loads(body)["trend"])

    def logs(self) -> list[dict[str, Any]]:
        text = self.log_path.read_text(errors="replace")
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def serve_environ(fake: FakeGitHub, port: int, **more: str) -> dict[str, str]:
    return {
        **os.environ,
        "APP_ID": str(fake.app_id),
        "PRIVATE_KEY": fake.private_key_pem.replace("\n", "\\n"),
        "WEBHOOK_SECRET": SECRET,
        "GITHUB_API_URL": fake.url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_FORMAT": "json",
        "HISTORY_BACKFILL_POINTS": "0",
        "RECOVER_STALE_RUNS": "false",
        "ANALYSIS_PROCESSES": "1",
        "JOB_RETRY_DELAYS": "off",
        "RETRY_BACKOFF": "0.01",
        "WRITE_INTERVAL": "0",
        "STORE_BUSY_SECONDS": "0.5",
        "STORE_RETRY_SECONDS": "0.2",
        **more,
    }


@pytest.fixture
async def serve(fake_github: FakeGitHub, tmp_path: Path) -> AsyncIterator[Any]:
    """``await serve(DATABASE_URL=...)``: a healthy `lockin serve`; stopped at the end."""
    started: list[Served] = []

    async def start(**more: str) -> Served:
        port = free_port()
        log_path = tmp_path / f"serve-{port}.log"
        with log_path.open("wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "serve",
                env=serve_environ(fake_github, port, **more),
                cwd=tmp_path,
                stdout=log,
                stderr=log,
            )
        served = Served(f"http://127.0.0.1:{port}", process, log_path, aiohttp.ClientSession())
        started.append(served)
        await until(lambda: _healthy(served), "lockin serve answering /healthz", within=60)
        return served

    yield start
    for served in started:
        await served.http.close()
        if served.process.returncode is None:
            served.process.terminate()
            await asyncio.wait_for(served.process.wait(), 60)
    assert fake_github.contract_errors == []


async def _healthy(served: Served) -> bool:
    assert served.process.returncode is None, served.log_path.read_text()
    try:
        status, _ = await served.get("/healthz")
    except aiohttp.ClientConnectionError:
        return False
    return status == 200


def kernels_pr(fake: FakeGitHub) -> tuple[Repo, PullRequest]:
    """A repository and a pull request adding a CUDA kernel: the gate's verdict is failure."""
    repo = fake.add_repo("octo-org/kernels", files=dict(FILES))
    repo.commit({"csrc/add.cu": KERNEL.replace("scale", "add")}, branch="feature")
    return repo, repo.open_pr(head_branch="feature", title="Add a kernel", user="contributor")


async def check_verdict(fake: FakeGitHub, repo: Repo, pr: PullRequest, deliver: Any) -> None:
    """Open the PR; its check run completes with the gate's verdict, not an error."""
    assert await deliver("pull_request", pull_request_event(fake, repo, pr, "opened")) == 202

    def completed() -> bool:
        return any(r.status == "completed" for r in repo.check_runs.values())

    await until(completed, "the PR's check run completed")
    [run] = repo.check_runs.values()
    assert run.head_sha == pr.head_sha
    assert run.conclusion == "failure"
    assert run.output["title"] != ERROR_TITLE
    assert "csrc/add.cu" in json.dumps(run.annotations)


async def push(fake: FakeGitHub, repo: Repo, deliver: Any, files: dict[str, str]) -> str:
    before, after = repo.head(), repo.commit(files)
    assert await deliver("push", push_event(fake, repo, before, after)) == 202
    return after


async def test_a_corrupt_sqlite_file_leaves_the_gate_working(
    fake_github: FakeGitHub, serve: Any, tmp_path: Path
) -> None:
    database = tmp_path / "lockin.db"
    database.write_bytes(b"not a database, whatever it was\n" * 4096)
    served = await serve(LOCKIN_DB_PATH=str(database), STORE_BACKLOG="1")
    assert (await served.trend()).startswith("degraded: DatabaseError: file is not a database")

    repo, pr = kernels_pr(fake_github)
    await check_verdict(fake_github, repo, pr, served.deliver)
    # A push's census still serves the badge; its two writes (visibility, point) do not fit
    # a backlog of one: the older is dropped, counted and logged.
    await push(fake_github, repo, served.deliver, {"csrc/more.cu": KERNEL})
    await until(lambda: _has_badge(served), "the badge after the push")

    _, metrics = await served.get("/metrics")
    assert "lockin_trend_store_degraded 1.0" in metrics
    assert "lockin_trend_store_backlog 1.0" in metrics
    assert "lockin_trend_store_writes_dropped_total 1.0" in metrics
    messages = [line["msg"] for line in served.logs()]
    assert any(m.startswith("trend store degraded (DatabaseError") for m in messages)
    assert any(
        m.startswith("trend store backlog full (1 writes): dropped set_public") for m in messages
    )
    # Nothing overwrote the file: whoever repairs it finds what was there.
    assert database.read_bytes().startswith(b"not a database")


async def _has_badge(served: Served) -> bool:
    status, _ = await served.get("/badge/octo-org/kernels.svg")
    return status == 200


@pytest.fixture
def own_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster this test may stop and start (the shared one stays up)."""
    root = Path(tempfile.mkdtemp(prefix="lockin-pg-down-"))
    cluster = PostgresCluster(root)
    cluster.start()
    try:
        yield cluster
    finally:
        with contextlib.suppress(Exception):  # stopped by the test and not started again
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


async def test_an_unreachable_postgresql_leaves_the_gate_working_and_catches_up(
    fake_github: FakeGitHub, serve: Any, own_cluster: PostgresCluster
) -> None:
    url = own_cluster.new_database()
    own_cluster.stop()
    served = await serve(DATABASE_URL=url)
    assert (await served.trend()).startswith("degraded: OperationalError")

    repo, pr = kernels_pr(fake_github)
    await check_verdict(fake_github, repo, pr, served.deliver)
    head = await push(fake_github, repo, served.deliver, {"csrc/more.cu": KERNEL})
    await until(lambda: _has_badge(served), "the badge after the push")

    # PostgreSQL comes back: the store opens, and the point the push could not write lands.
    own_cluster.resume()
    await until(lambda: _trend_ok(served), "readiness saying the trend is ok again")
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT r.full_name, r.public, p.commit FROM points p JOIN repositories r "
            "ON r.id = p.repository_id"
        ).fetchall()
    assert rows == [("octo-org/kernels", True, head)]
    messages = [line["msg"] for line in served.logs()]
    assert any(m.startswith("trend store recovered: 2 waiting writes applied") for m in messages)


async def _trend_ok(served: Served) -> bool:
    return await served.trend() == "ok"


class WriteLock:
    """Another process holding SQLite's write lock (BEGIN EXCLUSIVE) until released."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def take(cls, database: Path) -> WriteLock:
        code = (
            "import sqlite3, sys\n"
            f"db = sqlite3.connect({str(database)!r}, isolation_level=None)\n"
            "db.execute('BEGIN EXCLUSIVE')\n"
            "db.execute('INSERT INTO repositories (full_name) VALUES (\\'someone/else\\')')\n"
            "print('locked', flush=True)\n"
            "sys.stdin.readline()\n"
            "db.execute('COMMIT')\n"
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            code,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 30) == b"locked\n"
        return cls(process)

    async def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"go\n")
        await self.process.stdin.drain()
        assert await asyncio.wait_for(self.process.wait(), 30) == 0


async def app_on_file(
    fake: FakeGitHub, aiohttp_client: Any, database: Path, **overrides: Any
) -> Bot:
    """The real app (every router) on a SQLite file, quick to give up on a lock and to
    retry."""
    from bot.features import ROUTER
    from bot.server.app import create_app

    settings = settings_for(
        fake, db_path=str(database), store_busy_seconds=0.3, store_retry_seconds=0.2, **overrides
    )
    return Bot(fake, await aiohttp_client(create_app(settings, router=ROUTER)))


async def test_a_locked_sqlite_file_delays_only_the_trend(
    fake_github: FakeGitHub, aiohttp_client: Any, tmp_path: Path
) -> None:
    database = tmp_path / "lockin.db"
    bot = await app_on_file(fake_github, aiohttp_client, database)
    repo, pr = kernels_pr(fake_github)
    first = await bot.push(repo, {"csrc/more.cu": KERNEL})
    [point] = await store_of(bot).points("octo-org/kernels")
    assert point.commit == first
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)

    lock = await WriteLock.take(database)
    try:
        second = await bot.push(repo, {"csrc/third.cu": KERNEL.replace("scale", "third")})
        keeper = store_of(bot).keeper
        assert keeper.pending >= 2  # the push's visibility and point (and report) wait
        ready = await (await bot.client.get("/readyz")).json()
        assert ready["status"] == "ready"
        assert ready["trend"].startswith("degraded: OperationalError: database is locked")
        # The PR check reads the trend beside a writer and completes with its verdict.
        await check_verdict(fake_github, repo, pr, bot.deliver)
        await bot.settle()  # the sticky comment comes after the check run
        [comment] = [c for c in repo.comments.values() if c.issue_number == pr.number]
        assert f"today {point.nvidia_locked_lines:,};" in comment.body
    finally:
        await lock.release()

    # Once the lock is released the waiting point lands (the retry timer), in order.
    async def landed() -> bool:
        return [p.commit for p in await store_of(bot).points("octo-org/kernels")] == [
            first,
            second,
        ]

    await until(landed, "the point written after the lock was released")
    await until(lambda: store_of(bot).problem is None, "the store no longer degraded")
    ready = await (await bot.client.get("/readyz")).json()
    assert ready == {"status": "ready", "trend": "ok"}
    kept = await store_of(bot).repository(RepoRef("someone", "else"))
    assert kept is not None  # their write kept


async def test_the_pr_check_never_waits_for_a_store_that_does_not_answer(
    fake_github: FakeGitHub, aiohttp_client: Any, postgres_cluster: Any, caplog: Any
) -> None:
    from bot.features import ROUTER
    from bot.server.app import create_app

    url = postgres_cluster.new_database()
    # A statement would wait ten minutes for a lock: the check must not.
    settings = settings_for(fake_github, database_url=url, store_busy_seconds=600)
    bot = Bot(fake_github, await aiohttp_client(create_app(settings, router=ROUTER)))
    repo, pr = kernels_pr(fake_github)
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert await store_of(bot).points("octo-org/kernels")

    # Another session (a migration, a careless script) locks the points against readers.
    with psycopg.connect(url) as other:
        other.execute("LOCK TABLE points IN ACCESS EXCLUSIVE MODE")
        # Completed while the lock is still held: the check did not wait for the trend.
        await check_verdict(fake_github, repo, pr, bot.deliver)
        await bot.settle()
        [comment] = [c for c in repo.comments.values() if c.issue_number == pr.number]
        assert "30 days ago" not in comment.body  # no trend this time
        assert any(
            r.getMessage().startswith("trend left out: the trend store did not answer")
            for r in caplog.records
        )
        other.rollback()
    assert await store_of(bot).points("octo-org/kernels")  # answers again once released


#: A run left in progress: GitHub refuses both the verdict and the completion as failed; one
#: attempt per request, and the sweep looks every half second for runs older than 30 s.
LEFT_OPEN = {"retry_attempts": 1, "job_timeout": 15.0, "stale_run_sweep_interval": 0.5}
#: Far enough for the sweep on a loaded machine (it acts 30 s after the run opened); the
#: test's own timeout stays above it.
SWEEP_WITHIN = 240.0


async def open_left_in_progress(bot: Bot, repo: Repo, pr: PullRequest) -> CheckRun:
    bot.fake.fail("PATCH", r"/check-runs/\d+$", status=502, times=2)
    assert (
        await bot.deliver("pull_request", pull_request_event(bot.fake, repo, pr, "opened")) == 202
    )
    await bot.settle()
    [run] = repo.check_runs.values()
    assert run.status == "in_progress"
    return run


@pytest.mark.timeout(300)
async def test_a_run_recorded_while_the_store_was_locked_is_still_swept(
    fake_github: FakeGitHub, aiohttp_client: Any, tmp_path: Path
) -> None:
    """A run that went in progress while the store refused writes is known to memory only;
    once the store answers again, the sweep still finishes it."""
    database = tmp_path / "lockin.db"
    bot = await app_on_file(fake_github, aiohttp_client, database, **LEFT_OPEN)
    repo, pr = kernels_pr(fake_github)
    lock = await WriteLock.take(database)
    try:
        run = await open_left_in_progress(bot, repo, pr)
    finally:
        await lock.release()
    await until(lambda: store_of(bot).problem is None, "the store no longer degraded")
    assert await store_of(bot).open_runs_before(dt.datetime.now(dt.UTC)) == []  # not stored

    await until(
        lambda: run.status == "completed", "the sweep finished the run", within=SWEEP_WITHIN
    )
    assert (run.conclusion, run.output["title"] != ERROR_TITLE) == ("failure", True)


@pytest.mark.timeout(300)
async def test_the_sweep_goes_on_while_the_store_does_not_answer(
    fake_github: FakeGitHub, aiohttp_client: Any, postgres_cluster: Any, caplog: Any
) -> None:
    """A store whose reads hang (a lock held for minutes) costs the sweep a few seconds a
    tick: it finishes the runs it knows in memory meanwhile."""
    from bot.features import ROUTER
    from bot.server.app import create_app

    url = postgres_cluster.new_database()
    settings = settings_for(fake_github, database_url=url, store_busy_seconds=600, **LEFT_OPEN)
    bot = Bot(fake_github, await aiohttp_client(create_app(settings, router=ROUTER)))
    repo, pr = kernels_pr(fake_github)
    run = await open_left_in_progress(bot, repo, pr)
    [stored] = await store_of(bot).open_runs_before(dt.datetime.now(dt.UTC))
    assert stored["run_id"] == run.id

    def reads_of_the_run() -> int:  # the sweep's job reads the run first
        return len(fake_github.requests_to("GET", rf"/check-runs/{run.id}$"))

    before = reads_of_the_run()

    with psycopg.connect(url) as other:
        # The store's reads of the runs wait ten minutes for this lock; the sweep does not.
        other.execute("LOCK TABLE open_runs IN ACCESS EXCLUSIVE MODE")
        await until(lambda: reads_of_the_run() > before, "the sweep's job ran", within=SWEEP_WITHIN)
        assert any(
            r.getMessage().startswith("open runs: the store did not answer") for r in caplog.records
        )
        other.rollback()
    await until(lambda: run.status == "completed", "the sweep's job finished the run")
    assert (run.conclusion, run.output["title"] != ERROR_TITLE) == ("failure", True)


@pytest.mark.parametrize("spelling", ["sqlite:///{path}", "sqlite+aiosqlite:///{path}"])
async def test_sqlite_database_urls_are_accepted(serve: Any, tmp_path: Path, spelling: str) -> None:
    database = tmp_path / "spelled.db"
    served = await serve(DATABASE_URL=spelling.format(path=database))
    assert await served.trend() == "ok"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() is not None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mysql://lockin:hunter2@db.internal/lockin", "'mysql' is not supported"),
        ("postgresql+psycopg2://lockin:hunter2@db/lockin", "'postgresql+psycopg2' is not"),
        ("hunter2 is not a url", "not a database URL"),
        ("://lockin:hunter2@", "not a database URL"),
    ],
)
async def test_a_malformed_database_url_is_refused_in_one_line(
    fake_github: FakeGitHub, tmp_path: Path, url: str, expected: str
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "serve",
        env=serve_environ(fake_github, free_port(), DATABASE_URL=url),
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    [line] = stderr.decode().splitlines()
    assert line.startswith("lockin: DATABASE_URL: ")
    assert expected in line
    assert "hunter2" not in stderr.decode() + stdout.decode()
