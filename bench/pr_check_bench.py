"""PR check benchmark: `python bench/pr_check_bench.py [--runs 30] [--write-interval 0]`.

The real server (create_app with the PR check's router) runs in a child process on
loopback; the fake GitHub runs in this process. For a 30-file and a 300-file PR (modified
Python files, a few CUDA kernels among them; fresh content each run so no cache helps), it
measures the time from sending a signed `pull_request` delivery to the check run being
completed on the fake, p50/p99, and the GitHub API requests per PR (the installation token
minted once before the runs is not counted).

`--write-interval` is the server's WRITE_INTERVAL: 0 measures the check's own work; the
production default (one write a second sustained, as GitHub asks, with a burst of
WRITE_BURST) lets an idle installation's check create, complete and comment without waiting.
Runs are spaced by WRITE_BURST intervals, as PRs of an installation that is not busy (back to
back, the previous PR's writes would delay the next run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import aiohttp
from aiohttp.test_utils import unused_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bot.github.pacing import WRITE_BURST  # noqa: E402

SECRET = "bench-secret"

KERNEL = """#include <cuda_runtime.h>

__global__ void scale_{n}(float* x, float a, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        x[i] *= a;
    }}
}}

void launch_{n}(float* x, float a, int n) {{
    scale_{n}<<<(n + 255) / 256, 256>>>(x, a, n);
}}
"""


def module(i: int, run: int, extra: int) -> str:
    body = "".join(f"\n\ndef f{i}_{k}(x):\n    return x * {k} + {run}\n" for k in range(20 + extra))
    return f"import torch\n\n\nclass Block{i}(torch.nn.Module):\n    pass\n{body}"


def serve() -> None:
    from aiohttp import web
    from gidgethub.routing import Router

    from bot.features import pr_check
    from bot.runtime.logs import configure_logging
    from bot.runtime.settings import Settings
    from bot.server.app import create_app

    settings = Settings.from_env(os.environ, env_file=None)
    configure_logging(settings.log_level, settings.log_format)
    app = create_app(settings, router=Router(pr_check.router))
    web.run_app(app, host=settings.host, port=settings.port, access_log=None, print=None)


async def start_server(fake, write_interval: float) -> tuple[asyncio.subprocess.Process, str]:
    port = unused_port()
    environ = {
        **os.environ,
        "APP_ID": str(fake.app_id),
        "PRIVATE_KEY": fake.private_key_pem,
        "WEBHOOK_SECRET": SECRET,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "GITHUB_API_URL": fake.url,
        "WRITE_INTERVAL": str(write_interval),
        "LOG_LEVEL": "warning",
        "LOG_FORMAT": "json",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", env=environ, cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        for _ in range(400):
            try:
                async with http.get(url + "/healthz") as response:
                    if response.status == 200:
                        return process, url
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.05)
    raise SystemExit("the server did not start")


async def until(condition: Callable[[], bool]) -> None:
    """Poll the fake's in-memory state, which has no events to wait on."""
    while True:
        if condition():
            return
        await asyncio.sleep(0.002)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def one_pr(
    fake, repo, http, url: str, files: int, run: int, gap: float
) -> tuple[float, int, str]:
    from tests.support.webhooks import pull_request_event, webhook_headers

    # An installation idle long enough to refill its write burst, as between two PRs of a
    # real repository.
    await asyncio.sleep(gap * WRITE_BURST)
    branch = f"bench-{files}-{run}"
    change = {f"pkg/m{i:03d}.py": module(i, run, 3) for i in range(files - 3)}
    change |= {f"csrc/k{i}.cu": KERNEL.format(n=f"{i}_{run}") for i in range(3)}
    repo.commit(change, branch=branch, message=f"bench {run}")
    pr = repo.open_pr(head_branch=branch, title=f"bench {run}")
    body = json.dumps(pull_request_event(fake, repo, pr, "opened")).encode()
    headers = webhook_headers("pull_request", body, SECRET, str(uuid.uuid4()), app_id=fake.app_id)
    before = len(fake.requests)
    started = time.perf_counter()
    async with http.post(url + "/api/github/webhooks", data=body, headers=headers) as response:
        assert response.status == 202, response.status
    await until(
        lambda: any(
            r.head_sha == pr.head_sha and r.status == "completed" for r in repo.check_runs.values()
        )
    )
    elapsed = time.perf_counter() - started
    # The comment is written after the check run; its requests count too.
    await until(lambda: any(c.issue_number == pr.number for c in repo.comments.values()))
    runs = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
    requests = len(fake.requests) - before
    source = "tarballs" if "read from tarballs" in runs[-1].output.get("text", "") else "blobs"
    return elapsed, requests, source


async def main(args: argparse.Namespace) -> None:
    from tests.fakegithub import FakeGitHub

    async with FakeGitHub() as fake:
        base = {f"pkg/m{i:03d}.py": module(i, -1, 0) for i in range(300)}
        repo = fake.add_repo("bench/ml", files=base | {"README.md": "# bench\n"})
        process, url = await start_server(fake, args.write_interval)
        try:
            async with aiohttp.ClientSession() as http:
                await one_pr(
                    fake, repo, http, url, 3, -1, args.write_interval
                )  # warm-up: token, /app, imports
                results = {}
                for files, runs in ((30, args.runs), (300, max(5, args.runs // 3))):
                    samples = [
                        await one_pr(fake, repo, http, url, files, r, args.write_interval)
                        for r in range(runs)
                    ]
                    times = [s[0] for s in samples]
                    results[f"{files} files"] = {
                        "runs": runs,
                        "p50_s": round(statistics.median(times), 3),
                        "p99_s": round(percentile(times, 0.99), 3),
                        "requests_per_pr": sorted({s[1] for s in samples}),
                        "versions_read_from": sorted({s[2] for s in samples}),
                    }
        finally:
            process.send_signal(signal.SIGTERM)
            await process.wait()
    print(json.dumps({"write_interval_s": args.write_interval, **results}, indent=2))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve()
    else:
        parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("--runs", type=int, default=30)
        parser.add_argument("--write-interval", type=float, default=0.0)
        asyncio.run(main(parser.parse_args()))
