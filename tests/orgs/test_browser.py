"""The organisation pages in a real browser: Debian's headless Chromium, driven by Playwright
(no browser download: the system's /usr/bin/chromium), against the real server on loopback
and the fake GitHub's OAuth pages. A person signs in, sees exactly the repositories they may
read, sorts, filters, follows a repository, and signs out."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from playwright.async_api import async_playwright

from tests.deploy.png import decode
from tests.fakegithub import FakeGitHub
from tests.orgs.conftest import count_everything, oauth

pytestmark = pytest.mark.browser


def _chromium() -> str:
    path = shutil.which("chromium")
    assert path, "headless Chromium is needed: apt-get install -y chromium"
    return path


async def test_a_person_signs_in_sorts_filters_follows_and_signs_out(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    acme.sign_in_as("alice")
    base = str(bot.client.make_url("")).rstrip("/")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"]
        )
        page = await browser.new_page(viewport={"width": 1200, "height": 900})
        # Script errors and anything the Content-Security-Policy blocked (the 404 and the
        # declined sign-in below log "failed to load resource" on purpose).
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
        )

        # Signed out: the page sends the browser through GitHub's sign-in and back.
        await page.goto(f"{base}/orgs/acme")
        assert page.url == f"{base}/orgs/acme"
        names = await page.locator("table.repos tbody tr td:first-child").all_inner_texts()
        assert sorted(names) == ["acme/kernels", "acme/models"]  # not acme/secret
        assert await page.locator(".uplot canvas").count() == 1  # the chart, under the CSP
        shot = decode(await page.screenshot(full_page=True))
        assert shot.width == 1200
        assert shot.height >= 900
        assert len(shot.colours()) > 50  # text, table rules, the chart: not a blank page

        # Sort by name, descending then ascending, by clicking the heading.
        await page.get_by_role("link", name="Repository").click()
        assert "sort=repository" in page.url
        names = await page.locator("table.repos tbody tr td:first-child").all_inner_texts()
        assert names == ["acme/models", "acme/kernels"]
        await page.get_by_role("link", name="Repository ▼").click()
        names = await page.locator("table.repos tbody tr td:first-child").all_inner_texts()
        assert names == ["acme/kernels", "acme/models"]

        # Filter, then follow a repository.
        await page.get_by_placeholder("name contains").fill("kern")
        await page.get_by_role("button", name="Filter").click()
        names = await page.locator("table.repos tbody tr td:first-child").all_inner_texts()
        assert names == ["acme/kernels"]
        await page.get_by_role("link", name="acme/kernels").click()
        assert page.url == f"{base}/orgs/acme/kernels"
        assert await page.locator("h1").inner_text() == "acme/kernels"
        assert await page.locator(".uplot canvas").count() == 1

        # Another organisation's page does not exist for alice.
        other = await page.goto(f"{base}/orgs/other")
        assert other is not None
        assert other.status == 404

        # Sign out; the pages ask for a sign-in again, which GitHub now declines.
        await page.goto(f"{base}/orgs/acme")
        await page.get_by_role("button", name="Sign out").click()
        assert page.url == f"{base}/signin/done"
        acme.sign_in_as(None)
        await page.goto(f"{base}/orgs/acme")
        assert "/orgs/acme" not in page.url
        assert "acme/kernels" not in await page.content()
        await browser.close()
    assert errors == []
