"""See an organisation page without registering a GitHub App:

    python docs/org_page_example.py                 # a screenshot in a temporary folder
    python docs/org_page_example.py --serve         # and the page to browse until Ctrl-C
    python docs/org_page_example.py --output docs/org-page.png   # the README's image

Runs everything on loopback, as the tests do: the fake GitHub (tests/fakegithub) with an
organisation of a few repositories and a person who can read them, the real server on a
temporary SQLite store, one push per repository (the bot counts it, records its point and
writes its dashboard and report), a year of earlier points recorded in the store for the
trend, then Chromium signing in through the fake's OAuth pages and taking the screenshot.
Nothing tracked is written unless ``--output`` names it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp import ClientSession, web  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from bot.server.app import create_app  # noqa: E402
from bot.server.keys import SERVICES  # noqa: E402
from bot.store import Point  # noqa: E402
from tests.fakegithub import FakeGitHub  # noqa: E402
from tests.review.test_pr_check import KERNEL, SECOND_KERNEL  # noqa: E402
from tests.support.server import SECRET, settings_for  # noqa: E402
from tests.support.webhooks import push_event, webhook_headers  # noqa: E402

REPOS = {
    "acme/attention": {"csrc/flash.cu": KERNEL + SECOND_KERNEL * 3, "model.py": "import torch\n"},
    "acme/inference": {"kernels/gemm.cu": KERNEL * 2, "serve.py": "import torch\n"},
    "acme/training": {"train.py": "import torch\ntorch.cuda.synchronize()\n"},
    "acme/tokenizers": {"tok.py": "def split(s):\n    return s.split()\n"},
    "acme/quant": {"csrc/q.cu": KERNEL, "docs/decisions/0001-cuda.md": (
        "---\ntype: compute-api\nstatus: accepted\nowner: \"@acme/quant\"\n"
        "compute_api: CUDA 12\nmigration_cost:\n  lines: 40\nscope:\n  - csrc/**\n---\n"
        "# Quantisation kernels stay on CUDA\n")},
}  # fmt: skip


async def main(output: Path, serve: bool) -> None:
    async with FakeGitHub() as fake:
        for name, files in REPOS.items():
            fake.add_repo(name, files=files)
        fake.add_user("alice", set(REPOS))
        fake.sign_in_as("alice")
        with tempfile.TemporaryDirectory() as folder:
            settings = settings_for(
                fake,
                db_path=str(Path(folder) / "lockin.db"),
                github_client_id=fake.oauth_client_id,
                github_client_secret=fake.oauth_client_secret,
                github_web_url=fake.url,
            )
            app = create_app(settings)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            base = f"http://127.0.0.1:{port}"
            try:
                await push_everything(fake, app, base)
                await earlier_points(app)
                await screenshot(base, output)
                if serve:
                    print(f"serving {base}/orgs/acme (signed in as alice); Ctrl-C stops")
                    await asyncio.Event().wait()
            finally:
                await runner.cleanup()


async def push_everything(fake: FakeGitHub, app: web.Application, base: str) -> None:
    async with ClientSession() as http:
        for repo in fake.repos.values():
            before = repo.head()
            after = repo.commit({"NOTES.md": "notes\n"})
            body = json.dumps(push_event(fake, repo, before, after)).encode()
            headers = webhook_headers("push", body, SECRET, str(uuid.uuid4()), app_id=fake.app_id)
            async with http.post(f"{base}/api/github/webhooks", data=body, headers=headers) as r:
                assert r.status == 202, r.status
    queue = app[SERVICES].queue
    assert queue is not None
    await queue.join()


async def earlier_points(app: web.Application) -> None:
    """A year of weekly points before today's: each repository's lines grew to today's."""
    store = app[SERVICES].store
    assert store is not None
    await store.idle()
    now = dt.datetime.now(dt.UTC)
    rows = await store.org_rows(list(REPOS), now)
    for row in rows:
        for week in range(1, 53):
            locked = round(row.nvidia_locked_lines * (1 - week / 70))
            date = now - dt.timedelta(weeks=week)
            share = locked / max(row.code_lines, 1)
            point = Point(f"{week:08x}{abs(hash(row.full_name)):032x}"[:40], date,
                          row.code_lines, locked, locked, share)  # fmt: skip
            await store.record_point(row.full_name, point)


async def screenshot(base: str, out: Path) -> None:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        await page.goto(f"{base}/orgs/acme")
        await page.screenshot(path=str(out), full_page=True)
        await browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Draw (and serve) an organisation page.")
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(tempfile.mkdtemp(prefix="lockin-org-page-")) / "org-page.png",
        help="where the screenshot goes (default: a new temporary folder)",
    )
    parser.add_argument("--serve", action="store_true", help="keep the server up to browse it")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):  # --serve ends with Ctrl-C
        asyncio.run(main(args.output, args.serve))
