"""The setup page in a real browser: Debian's headless Chromium against the server on loopback.

CI installs Chromium (`apt-get install -y chromium`); without it these tests fail, not skip.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import aiohttp

from tests.deploy.conftest import PUBLIC_URL, StartServer
from tests.deploy.html_forms import forms
from tests.deploy.png import decode
from tests.fakegithub import FakeGitHub

WINDOW = (1200, 800)


def _chromium() -> str:
    path = shutil.which("chromium")
    assert path, "headless Chromium is needed: apt-get install -y chromium"
    return path


async def _chromium_run(profile: Path, *args: str) -> str:
    process = await asyncio.create_subprocess_exec(
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode(errors="replace")[-2000:]
    return out.decode()


async def test_browser_renders_the_register_button(
    start_server: StartServer, tmp_path: Path
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    screenshot = tmp_path / "setup.png"
    await _chromium_run(tmp_path / "profile", f"--screenshot={screenshot}", server.setup_link)

    image = decode(screenshot.read_bytes())
    assert (image.width, image.height) == WINDOW
    colours = image.colours()
    background, share = colours.most_common(1)[0]
    assert share < image.width * image.height * 0.9, "the page is (almost) one colour"
    assert len(colours) > 50  # text is anti-aliased: a rendered page has many shades
    # The button's colour, read from the served page's stylesheet, covers a button-sized area.
    jar = aiohttp.CookieJar(unsafe=True)  # the token's cookie, for 127.0.0.1
    async with (
        aiohttp.ClientSession(cookie_jar=jar) as session,
        session.get(server.setup_link) as response,
    ):
        green = _button_rgb(await response.text())
    assert green != background
    assert colours[green] > 2000


def _button_rgb(page: str) -> tuple[int, int, int]:
    match = re.search(r"button, \.button \{[^}]*background: #([0-9a-f]{6})", page)
    assert match, "the page styles its button"
    red, green, blue = (int(match.group(1)[i : i + 2], 16) for i in (0, 2, 4))
    return red, green, blue


async def test_browser_dom_holds_the_form_posting_the_manifest_to_github(
    start_server: StartServer, fake_github: FakeGitHub, tmp_path: Path
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    dom = await _chromium_run(tmp_path / "profile", "--dump-dom", server.setup_link)
    (form,) = forms(dom)
    assert form.method == "post"
    assert form.action.startswith(f"{fake_github.url}/settings/apps/new?state=")
    assert form.buttons == ["Register GitHub App"]
    manifest = json.loads(form.inputs["manifest"])
    assert manifest["hook_attributes"]["url"] == PUBLIC_URL + server.settings.webhook_path
