"""Latency while a hostile PR is analysed: `python bench/hostile_pr_bench.py [--count N]`.

Starts the fake GitHub in this process and `lockin serve` (embedded mode, the real router)
as a child process pointed at it, then in one run:
1. idle: `--count` signed webhook deliveries (paced) and `--count` `/healthz` requests,
   acknowledgement and answer latency p50/p99/max;
2. busy: a pull request adding a file engineered to be slow for the engine (`--kind`) is
   opened, and the same measurements are taken while its check is in progress (from the
   fake serving the file's blob until the check run completes); the check's duration and
   conclusion are reported.
Everything stays on 127.0.0.1 and is bounded (`--deadline`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakegithub import FakeGitHub  # noqa: E402
from tests.support.webhooks import pull_request_event, webhook_headers  # noqa: E402

SECRET = "bench-secret"

#: Files the security review found slow for the engine, by name.
HOSTILE = {
    "device-string": lambda kb: 'S = """' + "__device__ " * (kb * 1024 // 11) + '"""\n',
    "defines": lambda kb: "".join(f"#define M{i} __device__\n" for i in range(kb * 1024 // 24)),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentiles(ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ms):8.2f} ms  p99 {p99:8.2f} ms  max {max(ms):8.2f} ms"


async def _until(condition: Callable[[], bool], within: float) -> None:
    deadline = time.monotonic() + within
    while True:
        if condition() or time.monotonic() > deadline:
            return
        await asyncio.sleep(0.01)


async def _measure(
    http: aiohttp.ClientSession, url: str, payload: dict, count: int, gap: float
) -> tuple[list[float], list[float]]:
    """Ack latency of `count` deliveries and `/healthz` latency of `count` probes,
    interleaved, one pair every `gap` seconds."""
    body = json.dumps(payload).encode()
    acks: list[float] = []
    probes: list[float] = []
    for _ in range(count):
        headers = webhook_headers("pull_request", body, SECRET, str(uuid.uuid4()))
        start = time.perf_counter()
        async with http.post(url + "/api/github/webhooks", data=body, headers=headers) as r:
            await r.read()
            assert r.status in (200, 202), r.status
        acks.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        async with http.get(url + "/healthz") as r:
            await r.read()
            assert r.status == 200
        probes.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(gap)
    return acks, probes


async def main(args: argparse.Namespace) -> None:
    async with FakeGitHub() as fake, aiohttp.ClientSession() as http:
        repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
        port = _free_port()
        env = {
            **os.environ,
            "APP_ID": str(fake.app_id),
            "PRIVATE_KEY": fake.private_key_pem.replace("\n", "\\n"),
            "WEBHOOK_SECRET": SECRET,
            "GITHUB_API_URL": fake.url,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "LOG_LEVEL": "warning",
            "REDIS_URL": "",
            "JOB_TIMEOUT": str(args.deadline),
        }
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "serve", env=env, cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    async with http.get(url + "/readyz") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.1)
            # Deliveries nobody acts on: they measure verification and the answer only.
            quiet = fake.add_repo("octo/quiet", files={"README.md": "# q\n"})
            quiet.commit({"a.md": "a\n"}, branch="f")
            quiet_pr = quiet.open_pr(head_branch="f")
            probe = pull_request_event(fake, quiet, quiet_pr, "labeled", label="bench")

            idle = await _measure(http, url, probe, args.count, args.gap)

            text = HOSTILE[args.kind](args.kb)
            repo.commit({"pkg/hostile.py": text}, branch="feature")
            pr = repo.open_pr(head_branch="feature")
            event = pull_request_event(fake, repo, pr, "opened")
            body = json.dumps(event).encode()
            headers = webhook_headers("pull_request", body, SECRET, str(uuid.uuid4()))
            started = time.perf_counter()
            async with http.post(url + "/api/github/webhooks", data=body, headers=headers) as r:
                assert r.status == 202, r.status
            await _until(lambda: bool(fake.requests_to("GET", r"/git/blobs/")), args.deadline)

            def done() -> bool:
                return any(run.status == "completed" for run in repo.check_runs.values())

            acks: list[float] = []
            probes: list[float] = []
            while not done() and time.perf_counter() - started < args.deadline:
                a, p = await _measure(http, url, probe, 1, args.gap)
                acks += a
                probes += p
            await _until(done, args.deadline - (time.perf_counter() - started))
            took = time.perf_counter() - started
            [run] = repo.check_runs.values() or [None]
        finally:
            server.terminate()
            await server.wait()

    print(f"hostile file: {args.kind}, {len(text) / 1024:.0f} KB")
    print(f"idle       webhook ack  {_percentiles(idle[0])}  (n={len(idle[0])})")
    print(f"idle       /healthz     {_percentiles(idle[1])}  (n={len(idle[1])})")
    if acks:
        print(f"analysing  webhook ack  {_percentiles(acks)}  (n={len(acks)})")
        print(f"analysing  /healthz     {_percentiles(probes)}  (n={len(probes)})")
    print(
        f"check of the hostile PR: {took:.1f} s, "
        f"{run.status if run else 'no run'} / {run.conclusion if run else '-'}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="idle samples of each kind")
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between samples")
    parser.add_argument("--kind", choices=sorted(HOSTILE), default="device-string")
    parser.add_argument("--kb", type=int, default=400, help="size of the hostile file")
    parser.add_argument("--deadline", type=float, default=300.0)
    asyncio.run(main(parser.parse_args()))
