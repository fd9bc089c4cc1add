"""The organisation and repository pages as a signed-in user reads them (no browser: the
HTML, the CSV and the JSON), with data the bot's own pushes put in the store, on SQLite and
PostgreSQL. tests/orgs/test_browser.py drives the same pages in Chromium."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.fakegithub import FakeGitHub
from tests.orgs.conftest import count_everything, oauth, sign_in
from tests.store.conftest import store_of

RECORD = """---
type: compute-api
status: accepted
owner: "@acme/<b>kernels</b>"
compute_api: CUDA 12
migration_cost:
  lines: 10
scope:
  - csrc/**
---
# <script>alert(1)</script> hand-written kernels
"""


async def test_the_organisation_page_shows_every_permitted_repository_and_its_figures(
    acme: FakeGitHub, start_app: Any
) -> None:
    acme.repos["acme/kernels"].commit({"docs/decisions/0001-kernels.md": RECORD})
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    acme.add_repo("acme/fresh", files={"model.py": "x = 1\n"})  # installed, never counted
    acme.add_user("alice", {"acme/kernels", "acme/models", "acme/fresh"})
    await sign_in(bot.client, acme, "alice")

    rows = (await (await bot.client.get("/orgs/acme.json")).json())["repositories"]
    by_name = {r["repository"]: r for r in rows}
    assert set(by_name) == {"acme/kernels", "acme/models", "acme/fresh"}
    kernels = by_name["acme/kernels"]
    assert kernels["status"] == "counted"
    assert kernels["nvidia_locked_lines"] > 0
    assert kernels["coverage"] == 1.0  # the record's scope covers csrc/
    assert kernels["dashboard"].endswith("/issues/1")
    assert by_name["acme/models"]["nvidia_locked_lines"] == 0
    assert by_name["acme/fresh"]["status"] == "counting"

    page = await (await bot.client.get("/orgs/acme")).text()
    assert "counting" in page
    assert f"{kernels['nvidia_locked_lines']:,}" in page
    response = await bot.client.get("/orgs/acme")  # a second view queues nothing more
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]

    # The page queued the first census of the repository it showed as counting.
    await bot.settle()
    await store_of(bot).idle()
    compares = acme.requests_to("GET", r"^/repos/acme/fresh/compare/")
    assert len(compares) == 1
    rows = (await (await bot.client.get("/orgs/acme.json")).json())["repositories"]
    assert {r["repository"]: r["status"] for r in rows}["acme/fresh"] == "counted"


async def test_sorting_and_filtering_work_without_javascript(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "alice")

    by_lines = await (await bot.client.get("/orgs/acme?sort=nvidia_locked_lines&dir=desc")).text()
    assert by_lines.index("acme/kernels</a>") < by_lines.index("acme/models</a>")
    by_name = await (await bot.client.get("/orgs/acme?sort=repository&dir=desc")).text()
    assert by_name.index("acme/models</a>") < by_name.index("acme/kernels</a>")
    filtered = await (await bot.client.get("/orgs/acme?q=model")).text()
    assert "acme/models</a>" in filtered
    assert "acme/kernels</a>" not in filtered
    assert "1 of 2 repositories" in filtered


async def test_the_csv_export_is_the_table_and_cannot_run_as_a_formula(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "alice")

    response = await bot.client.get("/orgs/acme.csv")
    assert response.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(await response.text())))
    assert [r["repository"] for r in rows] == ["acme/kernels", "acme/models"]
    assert int(rows[0]["nvidia_locked_lines"]) > 0
    assert all(not v.startswith(("=", "+", "@")) for r in rows for v in r.values())


async def test_the_repository_page_names_owners_and_escapes_what_the_repository_wrote(
    acme: FakeGitHub, start_app: Any
) -> None:
    acme.repos["acme/kernels"].commit({"docs/decisions/0001-kernels.md": RECORD})
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "alice")

    page = await (await bot.client.get("/orgs/acme/kernels")).text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, page[page.index("<main>") :]
    assert "@acme/&lt;b&gt;kernels&lt;/b&gt;" in page
    assert f"{acme.url}/acme/kernels/tree/" in page  # links to the code on GitHub
    assert (await bot.client.get("/orgs/acme/secret")).status == 404  # not hers to read


async def test_the_table_is_paged_and_the_pager_keeps_the_sort(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "alice")

    first = await (await bot.client.get("/orgs/acme?sort=repository&dir=asc&per_page=1")).text()
    assert "acme/kernels</a>" in first
    assert "acme/models</a>" not in first
    assert "2 of 2 repositories, 1–1 shown" in first
    assert "page 1 of 2" in first
    assert 'rel="prev"' not in first
    follow = first.split('rel="next" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert "sort=repository" in follow
    assert "per_page=1" in follow
    assert "page=2" in follow
    second = await (await bot.client.get(follow)).text()
    assert "acme/models</a>" in second
    assert "acme/kernels</a>" not in second
    assert "page 2 of 2" in second
    assert 'rel="next"' not in second
    # A page past the end, or not a number, shows the nearest page rather than an error.
    for odd in ("99", "-1", "x"):
        shown = await (
            await bot.client.get(f"/orgs/acme?sort=repository&per_page=1&page={odd}")
        ).text()
        assert shown.count('<a href="/orgs/acme/') == 1
    # The exports are not paged: they carry every row.
    rows = (await (await bot.client.get("/orgs/acme.json?per_page=1")).json())["repositories"]
    assert len(rows) == 2
