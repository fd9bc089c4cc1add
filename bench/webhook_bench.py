"""Webhook acknowledgement benchmark: `python bench/webhook_bench.py [--count N] [--rate R]`.

Starts the real server (create_app, logging as in production) in a child process on
loopback with a no-op feature, then from this process:
1. sends `--count` signed `pull_request` deliveries (GitHub's real example payload, 26 KB)
   at `--rate` per second, open loop, and reports acknowledgement latency p50/p99/max;
2. sends `--count` more as fast as `--concurrency` connections allow: deliveries/s;
3. restarts the server with a feature that never finishes, fills the queue with
   `--queued` jobs and reports the server's RSS before and after.
Everything stays on 127.0.0.1 and is bounded in count and time (`--deadline`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import sys
import time
import uuid
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
PAYLOAD = ROOT / "tests" / "contract" / "webhook-examples" / "pull_request.opened.2.json"
SECRET = "bench-secret"


# -- the server side (child process) -------------------------------------------------------


def serve(mode: str) -> None:
    """The real app with a feature that does nothing ("noop") or never returns ("block")."""
    from aiohttp import web
    from gidgethub.routing import Router

    from bot.runtime.logs import configure_logging
    from bot.runtime.settings import Settings
    from bot.server.app import create_app

    router = Router()

    @router.register("pull_request", action="opened")
    async def feature(*_: object) -> None:
        if mode == "block":
            await asyncio.Event().wait()

    settings = Settings.from_env(os.environ, env_file=None)
    configure_logging(settings.log_level, settings.log_format)
    web.run_app(
        create_app(settings, router=router),
        host=settings.host,
        port=settings.port,
        access_log=None,
        print=None,
        shutdown_timeout=1.0,
    )


# -- the load generator ----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, mode: str, queue_size: int) -> None:
        self.mode = mode
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.queue_size = queue_size
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Server:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
        environ = {
            **os.environ,
            "APP_ID": "1",
            "PRIVATE_KEY": pem,
            "WEBHOOK_SECRET": SECRET,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            # Nothing listens there: the no-op feature never calls GitHub.
            "GITHUB_API_URL": "http://127.0.0.1:9",
            "QUEUE_SIZE": str(self.queue_size),
            "SHUTDOWN_TIMEOUT": "1",
            "LOG_FORMAT": "json",
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            self.mode,
            env=environ,
            cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        async with aiohttp.ClientSession() as http:
            for _ in range(400):
                try:
                    async with http.get(self.url + "/healthz") as response:
                        if response.status == 200:
                            return self
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
        raise SystemExit("the server did not start")

    async def __aexit__(self, *_: object) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def rss_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")


class Sender:
    def __init__(self, url: str, http: aiohttp.ClientSession) -> None:
        from tests.support.webhooks import sign

        self.url = url + "/api/github/webhooks"
        self.http = http
        self.body = PAYLOAD.read_bytes()
        self.signature = sign(self.body, SECRET)
        self.statuses: dict[int, int] = {}

    async def send(self) -> float:
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "GitHub-Hookshot/bench",
            "X-GitHub-Event": "pull_request",
            "X-GitHub-Delivery": str(uuid.uuid4()),
            "X-Hub-Signature-256": self.signature,
        }
        started = time.perf_counter()
        async with self.http.post(self.url, data=self.body, headers=headers) as response:
            await response.read()
        elapsed = time.perf_counter() - started
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
        return elapsed


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def paced(sender: Sender, count: int, rate: float, deadline: float) -> list[float]:
    """Open loop: delivery i leaves at start + i/rate whatever the previous ones do."""
    start = time.perf_counter()
    tasks = []
    for i in range(count):
        delay = start + i / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if time.perf_counter() - start > deadline:
            break
        tasks.append(asyncio.create_task(sender.send()))
    return list(await asyncio.gather(*tasks))


async def burst(sender: Sender, count: int, concurrency: int) -> float:
    remaining = count

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await sender.send()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return count / (time.perf_counter() - started)


async def queue_depth(url: str, http: aiohttp.ClientSession) -> int:
    async with http.get(url + "/metrics") as response:
        for line in (await response.text()).splitlines():
            if line.startswith("lockin_job_queue_depth "):
                return int(float(line.split()[1]))
    return -1


async def main(args: argparse.Namespace) -> None:
    size = PAYLOAD.stat().st_size
    print(f"payload {PAYLOAD.name}, {size} bytes, loopback, {os.cpu_count()} CPUs")
    async with Server("noop", queue_size=10_000) as server, aiohttp.ClientSession() as http:
        sender = Sender(server.url, http)
        await paced(sender, 100, 100, args.deadline)  # warm up connections and code paths
        sender.statuses.clear()
        latencies = await paced(sender, args.count, args.rate, args.deadline)
        ms = [x * 1000 for x in latencies]
        p50, p99 = statistics.median(ms), _percentile(ms, 0.99)
        print(
            f"paced {len(ms)} deliveries at {args.rate:.0f}/s: ack p50 {p50:.2f} ms,"
            f" p99 {p99:.2f} ms, max {max(ms):.2f} ms; statuses {sender.statuses}"
        )
        sender.statuses.clear()
        rate = await burst(sender, args.count, args.concurrency)
        print(
            f"burst {args.count} deliveries, {args.concurrency} connections:"
            f" {rate:.0f} deliveries/s; statuses {sender.statuses}"
        )
    queue_size = args.queued + 100
    async with Server("block", queue_size=queue_size) as server, aiohttp.ClientSession() as http:
        sender = Sender(server.url, http)
        before = server.rss_mb()
        # The 4 workers each take one job and hang on it; the rest stay queued.
        await burst(sender, args.queued + 4, 16)
        depth = await queue_depth(server.url, http)
        print(
            f"memory: RSS {before:.1f} MB idle, {server.rss_mb():.1f} MB with {depth} queued jobs"
            f" ({(server.rss_mb() - before) * 1024 / max(depth, 1):.1f} KB a job)"
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=("noop", "block"), help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--queued", type=int, default=1000)
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds per phase, at most")
    arguments = parser.parse_args()
    if arguments.serve:
        serve(arguments.serve)
    else:
        asyncio.run(main(arguments))
