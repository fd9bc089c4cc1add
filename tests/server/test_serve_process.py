"""`serve` as a real process: banner, webhooks over loopback, SIGTERM drains and exits 0."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.fakegithub import FakeGitHub
from tests.support.webhooks import load_example, webhook_headers

SECRET = "process-secret-value"
SERVE = "from bot.server.main import serve; raise SystemExit(serve())"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_serve(
    fake_github: FakeGitHub, port: int, cwd: Path, **options: Any
) -> asyncio.subprocess.Process:
    """`serve` in a process of its own, configured for the fake GitHub, on 127.0.0.1:`port`
    (its output in pipes)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SERVE,
        env=_serve_environ(fake_github, port),
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        **options,
    )


def _serve_environ(fake_github: FakeGitHub, port: int) -> dict[str, str]:
    return {
        **os.environ,
        "APP_ID": str(fake_github.app_id),
        "PRIVATE_KEY": fake_github.private_key_pem.replace("\n", "\\n"),
        "WEBHOOK_SECRET": SECRET,
        "GITHUB_API_URL": fake_github.url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_FORMAT": "json",
    }


async def wait_healthy(url: str, process: asyncio.subprocess.Process) -> None:
    deadline = time.monotonic() + 100  # only bounds a hang (the test has 120 s in all)
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            assert process.returncode is None, "the server exited at start"
            try:
                async with http.get(url + "/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.05)
    raise AssertionError("the server never became healthy")


async def test_serve_runs_answers_and_stops_cleanly_on_sigterm(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    port = free_port()
    process = await start_serve(fake_github, port, tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        await wait_healthy(url, process)
        body = json.dumps(load_example("ping.event.1")).encode()
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                url + "/api/github/webhooks",
                data=body,
                headers=webhook_headers("ping", body, SECRET),
            ) as response,
        ):
            assert response.status == 200
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0
    banner, logs = stderr.decode(), stdout.decode()
    assert f"webhook URL   http://127.0.0.1:{port}/api/github/webhooks" in banner
    assert "webhook_secret" in banner
    assert "authenticated as GitHub App lockin" in logs
    for line in logs.splitlines():
        json.loads(line)  # every log line is one JSON object
    for text in (banner, logs):
        assert SECRET not in text
        assert fake_github.private_key_pem.splitlines()[1] not in text


async def test_serve_raises_its_open_file_limit_to_the_hard_limit(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    """Each connection costs a descriptor: a low soft limit would let a sender opening many
    connections lock out deliveries."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    port = free_port()
    process = await start_serve(
        fake_github,
        port,
        tmp_path,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)),
    )
    try:
        await wait_healthy(f"http://127.0.0.1:{port}", process)
        soft_now = _open_file_limit(process.pid)
        assert soft_now > 256
        if hard != resource.RLIM_INFINITY:
            assert soft_now == hard
    finally:
        process.send_signal(signal.SIGTERM)
        await process.wait()


def _open_file_limit(pid: int) -> int:
    """The soft limit on open files of process `pid`, as the kernel reports it."""
    limits = Path(f"/proc/{pid}/limits").read_text()
    (line,) = [row for row in limits.splitlines() if row.startswith("Max open files")]
    return int(line.split()[3])
