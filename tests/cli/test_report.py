"""`lockin report`: one self-contained HTML page, checked as text and opened in headless
Chromium (the system's /usr/bin/chromium, driven by Playwright) from a file: no request
leaves the page, the trend chart is drawn, the console stays clean."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.cli.gitrepo import git, init, write
from tests.cli.test_cli import KERNEL, run

RECORD = """\
---
type: compute-api
status: accepted
owner: "@org/kernels"
compute_api: CUDA 12.4
migration_cost: "~200 lines to HIP"
scope:
  - "llmc/**"
---

# The training kernels
"""
MONTHS = ["2024-01-15", "2024-02-15", "2024-03-15", "2024-04-15", "2024-05-15"]


def _kernel(name: str) -> str:
    return KERNEL.replace("scale", name)


@pytest.fixture(scope="module")
def llmc_like(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """llm.c in miniature: a CUDA training file, kernels under llmc/ and dev/cuda/, the
    PyTorch reference, a decision record and CODEOWNERS; one commit a month, each adding
    kernels, so the trend rises."""
    repo = init(tmp_path_factory.mktemp("report") / "llm.c")
    write(
        repo,
        {
            "train_gpt2.py": "import torch\nmodel = torch.nn.Linear(3, 3).cuda()\n",
            ".github/CODEOWNERS": "dev/ @org/research\nllmc/ @org/kernels\n",
            "docs/decisions/0001-training-kernels.md": RECORD,
        },
    )
    for i, day in enumerate(MONTHS):
        write(
            repo,
            {
                f"llmc/layer{i}.cuh": _kernel(f"layer{i}"),
                f"dev/cuda/bench{i}.cu": _kernel(f"bench{i}"),
                # A hostile name: the page must show it as text.
                **({"dev/cuda/<img src=x onerror=alert(1)>.cu": KERNEL} if i == 2 else {}),
            },
        )
        git(repo, "add", "-A")
        date = f"{day}T12:00:00+00:00"
        env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        os.environ.update(env)
        try:
            git(repo, "commit", "-q", "-m", f"kernels {i}")
        finally:
            for name in env:
                os.environ.pop(name)
    return repo


@pytest.fixture(scope="module")
def page(llmc_like: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "lockin.html"
    code, stdout, err = run("report", str(llmc_like), "-o", str(out), "--jobs", "1")
    assert code == 0, err
    assert stdout == f"wrote {out}\n"
    return out


def test_the_page_holds_figures_plan_kernels_owners_uncovered_and_trend(page: Path) -> None:
    html = page.read_text()
    for heading in (
        "Trend",
        "Lines per language",
        "Plan per target",
        "Decisions and owners",
        "Uncovered areas",
        "Kernel inventory",
    ):
        assert f"<h2>{heading}</h2>" in html
    assert "@org/kernels" in html  # the record's owner
    assert "@org/research" in html  # CODEOWNERS of the uncovered dev/ tree
    assert "layer4" in html  # a kernel by name
    assert html.count("<circle") == len(MONTHS)  # one point a month
    assert "2024-01-15" in html
    assert "2024-05-15" in html


def test_the_page_is_self_contained_and_escapes_file_names(page: Path) -> None:
    html = page.read_text()
    assert not re.search(r"<(script|link|img|iframe|object)\b", html)
    assert not re.search(r"<[^>]*\b(src|href)\s*=", html)
    assert "url(" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_without_git_history_the_page_has_no_trend(tmp_path: Path) -> None:
    write(tmp_path, {"k.cu": KERNEL})
    out = tmp_path / "page.html"
    assert run("report", str(tmp_path), "-o", str(out))[0] == 0
    html = out.read_text()
    assert "<h2>Kernel inventory</h2>" in html
    assert "<h2>Trend</h2>" not in html


def test_an_unwritable_output_is_one_line(tmp_path: Path) -> None:
    code, _, err = run("report", str(tmp_path), "-o", str(tmp_path / "missing" / "x.html"))
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("lockin: error: cannot write ")


@pytest.mark.browser
async def test_the_page_opens_offline_in_chromium_with_the_chart_drawn(page: Path) -> None:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium")
    assert chromium, "headless Chromium is needed: apt-get install -y chromium"
    url = page.as_uri()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        tab = await browser.new_page(viewport={"width": 1200, "height": 900})
        requests: list[str] = []
        tab.on("request", lambda request: requests.append(request.url))
        problems: list[str] = []
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.on(
            "console",
            lambda m: problems.append(m.text) if m.type in ("error", "warning") else None,
        )
        await tab.goto(url)
        await tab.wait_for_load_state("load")
        line = tab.locator("svg polyline.headline")
        assert await line.count() == 1
        box = await line.bounding_box()
        assert box is not None
        assert box["width"] > 500
        assert box["height"] > 50  # a rising line, not a flat one
        assert await tab.locator("svg circle").count() == len(MONTHS)
        assert await tab.locator("h1").inner_text() == "lockin report: llm.c"
        await browser.close()
    assert requests == [url]
    assert problems == []
