"""The manifest flow over real HTTP: the real server on loopback, the fake GitHub behind it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from dotenv import dotenv_values
from yarl import URL

from bot.runtime.settings import Settings, parse_private_key
from bot.server.manifest import (
    CALLBACK_PATH,
    ENV_KEYS,
    SETUP_COOKIE,
    STATE_COOKIE,
    github_web_url,
    update_dotenv,
)
from tests.deploy.conftest import PUBLIC_URL, SetupServer, StartServer
from tests.deploy.html_forms import Form, forms
from tests.fakegithub import FakeGitHub
from tests.server.test_serve_process import free_port, wait_healthy


def _session(server: SetupServer | None = None) -> aiohttp.ClientSession:
    """A browser: its cookie jar (`unsafe`: the server is addressed by IP, 127.0.0.1), with
    the setup token's cookie when it opened `server`'s printed setup link before."""
    jar = aiohttp.CookieJar(unsafe=True)
    if server is not None:
        jar.update_cookies({SETUP_COOKIE: server.settings.setup_token or ""}, URL(server.url))
    return aiohttp.ClientSession(cookie_jar=jar)


async def _register_form(session: aiohttp.ClientSession, url: str) -> Form:
    async with session.get(url) as response:
        assert response.status == 200
        assert response.content_type == "text/html"
        page = await response.text()
    (form,) = forms(page)
    return form


async def _callback_link(session: aiohttp.ClientSession, url: str, code: str) -> str:
    """Open the setup page, then the link GitHub would send this browser back with."""
    state = _state(await _register_form(session, url))
    return f"{url}{CALLBACK_PATH}?code={code}&state={state}"


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _state(form: Form) -> str:
    (state,) = parse_qs(urlsplit(form.action).query)["state"]
    return state


async def test_setup_page_offers_the_app_yml_manifest(
    start_server: StartServer, fake_github: FakeGitHub, app_yml: dict
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    states = set()
    async with _session(server) as session:
        for path in ("/", "/setup", "/setup"):
            form = await _register_form(session, server.url + path)
            assert form.method == "post"
            assert form.action.startswith(f"{fake_github.url}/settings/apps/new?state=")
            assert form.buttons == ["Register GitHub App"]
            manifest = json.loads(form.inputs["manifest"])
            assert manifest["name"] == app_yml["name"]
            assert manifest["url"] == app_yml["url"]
            assert manifest["public"] == app_yml["public"]
            assert manifest["default_events"] == app_yml["default_events"]
            assert manifest["default_permissions"] == app_yml["default_permissions"]
            webhook_url = PUBLIC_URL + server.settings.webhook_path
            assert manifest["hook_attributes"]["url"] == webhook_url
            # The browser came via 127.0.0.1, so GitHub sends it back there, with its cookie.
            assert manifest["redirect_url"] == server.url + CALLBACK_PATH
            cookie = session.cookie_jar.filter_cookies(URL(server.url))[STATE_COOKIE]
            assert cookie.value == _state(form)
            states.add(cookie.value)
    # Reloads and other tabs of one browser share its pending state, so none goes stale.
    assert len(states) == 1
    assert fake_github.requests == []


async def test_an_app_yml_in_the_working_directory_replaces_the_shipped_one(
    start_server: StartServer, app_yml: dict
) -> None:
    renamed = {**app_yml, "name": "lockin-acme", "public": True}
    (Path.cwd() / "app.yml").write_text(json.dumps(renamed), encoding="utf-8")
    server = await start_server(BASE_URL=PUBLIC_URL)
    async with _session(server) as session:
        form = await _register_form(session, server.url)
    manifest = json.loads(form.inputs["manifest"])
    assert (manifest["name"], manifest["public"]) == ("lockin-acme", True)
    assert manifest["default_events"] == app_yml["default_events"]


async def test_registration_goes_to_the_organisation_named_by_gh_org(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL, GH_ORG="gpu-platform")
    async with _session(server) as session:
        form = await _register_form(session, server.url + "/setup")
    expected = f"{fake_github.url}/organizations/gpu-platform/settings/apps/new?state="
    assert form.action.startswith(expected)


async def test_redirect_uses_the_public_url_when_the_browser_came_through_it(
    start_server: StartServer,
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    headers = {"Host": urlsplit(PUBLIC_URL).netloc}
    async with _session(server) as session, session.get(server.url, headers=headers) as response:
        (form,) = forms(await response.text())
    assert json.loads(form.inputs["manifest"])["redirect_url"] == PUBLIC_URL + CALLBACK_PATH


async def test_without_a_public_url_the_page_says_what_to_set(start_server: StartServer) -> None:
    server = await start_server()
    async with _session(server) as session, session.get(server.url + "/setup") as response:
        page = await response.text()
        assert response.status == 503
    assert forms(page) == []
    assert "BASE_URL" in page
    assert "WEBHOOK_PROXY_URL" in page


async def test_callback_with_a_state_this_server_never_issued_is_refused(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    async with _session(server) as session:
        await _register_form(session, server.url)
        forged = f"{server.url}{CALLBACK_PATH}?code=code-1&state=forged"
        async with session.get(forged) as response:
            assert response.status == 403
    assert fake_github.requests == []
    assert not (server.workdir / ".env").exists()


async def test_callback_from_another_browser_is_refused(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    """A valid state is not enough: it must come back with the cookie it was issued with."""
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    async with _session(server) as victim, _session(server) as attacker:
        link = await _callback_link(attacker, server.url, "code-1")
        async with victim.get(link) as response:
            assert response.status == 403
    assert fake_github.requests == []
    assert not (server.workdir / ".env").exists()


async def test_callback_exchanges_the_code_and_writes_env_0600(
    start_server: StartServer,
    fake_github: FakeGitHub,
    workdir: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    server_env = workdir / ".env"
    server_env.write_text("# mine\nLOG_LEVEL=debug\n", encoding="utf-8")
    server_env.chmod(0o644)
    server = await start_server(BASE_URL=PUBLIC_URL)
    before = _listing(workdir)
    fake_github.add_manifest_code("code-1")
    async with _session(server) as session:
        link = await _callback_link(session, server.url, "code-1")
        async with session.get(link) as response:
            assert response.status == 200
            page = await response.text()

    (exchange,) = fake_github.requests
    assert (exchange.method, exchange.path) == ("POST", "/app-manifests/code-1/conversions")
    assert "authorization" not in {name.lower() for name in exchange.headers}
    assert exchange.contract_errors == []

    assert stat.S_IMODE(server_env.stat().st_mode) == 0o600
    assert _listing(workdir) == before
    text = server_env.read_text(encoding="utf-8")
    assert text.startswith("# mine\nLOG_LEVEL=debug\n")
    written = dotenv_values(server_env)
    assert sorted(written) == sorted(["LOG_LEVEL", *ENV_KEYS])
    assert written["APP_ID"] == str(fake_github.app_id)
    assert parse_private_key(written["PRIVATE_KEY"] or "", "PRIVATE_KEY") == parse_private_key(
        fake_github.private_key_pem, "pem"
    )
    assert written["GITHUB_CLIENT_ID"] == f"Iv1.{fake_github.app_id:016x}"
    for key in ENV_KEYS:
        assert text.count(f"\n{key}=") == 1, key
        assert written[key], key
        # Secrets go to the file, never to the logs.
        if key != "APP_ID":
            assert written[key] not in caplog.text, key
    assert "BEGIN" not in caplog.text

    # The next start loads them: the server is configured.
    settings = Settings.from_env({}, env_file=server_env)
    assert settings.configured
    assert settings.app_id == str(fake_github.app_id)

    install_url = f"https://github.com/apps/{fake_github.app_slug}/installations/new"
    assert f'href="{install_url}"' in page
    assert "Restart the server" in page


async def test_the_flow_is_one_shot(start_server: StartServer, fake_github: FakeGitHub) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    fake_github.add_manifest_code("code-2")
    async with _session(server) as session:
        first = await _callback_link(session, server.url, "code-1")
        second = await _callback_link(session, server.url, "code-2")
        async with session.get(second) as r:
            assert r.status == 200
        written = (server.workdir / ".env").read_bytes()
        for url in (server.url, server.url + "/setup", first):
            async with session.get(url) as response:
                assert response.status == 404, url
    assert len(fake_github.requests) == 1
    assert (server.workdir / ".env").read_bytes() == written


async def test_a_code_github_refuses_writes_nothing(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    async with _session(server) as session:
        link = await _callback_link(session, server.url, "expired")
        async with session.get(link) as response:
            assert response.status == 502
            assert "/setup" in await response.text()
    assert [r.status for r in fake_github.requests] == [404]
    assert not (server.workdir / ".env").exists()


async def test_a_github_outage_leaves_the_callback_retryable(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    fake_github.fail("POST", "/app-manifests/", status=502)
    async with _session(server) as session:
        link = await _callback_link(session, server.url, "code-1")
        async with session.get(link) as response:
            assert response.status == 502
            assert "Reload this page" in await response.text()
        assert not (server.workdir / ".env").exists()
        async with session.get(link) as response:
            assert response.status == 200
    assert [r.status for r in fake_github.requests] == [502, 201]
    assert dotenv_values(server.workdir / ".env")["APP_ID"] == str(fake_github.app_id)


async def test_configured_server_has_no_setup_routes(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server: SetupServer = await start_server(
        BASE_URL=PUBLIC_URL,
        APP_ID=str(fake_github.app_id),
        PRIVATE_KEY=fake_github.private_key_pem,
        WEBHOOK_SECRET="s3cret",
    )
    assert server.settings.configured
    async with _session(server) as session:
        for path in ("/setup", f"{CALLBACK_PATH}?code=x&state=y"):
            async with session.get(server.url + path) as response:
                assert response.status == 404, path
        # `/` is the front door now: the organisation pages through sign-in, never the setup
        # page (sign-in is not set up here, and the page that says so answers).
        async with session.get(server.url + "/") as response:
            assert response.url.path == "/signin"
            assert "Register GitHub App" not in await response.text()
    assert fake_github.requests_to("*", "app-manifests") == []
    assert not (server.workdir / ".env").exists()


@pytest.mark.parametrize(
    ("api_url", "web_url"),
    [
        ("https://api.github.com", "https://github.com"),
        ("https://api.github.com/", "https://github.com"),
        ("https://ghes.corp.example/api/v3", "https://ghes.corp.example"),
        ("https://ghes.corp.example/api/v3/", "https://ghes.corp.example"),
        ("https://api.acme.ghe.com", "https://acme.ghe.com"),
    ],
)
def test_github_web_url_from_api_url(api_url: str, web_url: str) -> None:
    assert github_web_url(api_url) == web_url


def test_update_dotenv_replaces_keys_and_keeps_other_lines(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        'export APP_ID=1\nKEEP="a b"\nPRIVATE_KEY="-----BEGIN X-----\nold\n-----END X-----"\n'
        "# comment\nTAIL=1",
        encoding="utf-8",
    )
    env_file.chmod(0o664)
    update_dotenv(env_file, {"APP_ID": "7", "PRIVATE_KEY": "-----BEGIN K-----\nnew\n"})
    assert env_file.read_text(encoding="utf-8") == (
        'KEEP="a b"\n# comment\nTAIL=1\nAPP_ID=7\nPRIVATE_KEY=-----BEGIN K-----\\nnew\n'
    )
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    assert _listing(tmp_path) == [".env"]


def test_update_dotenv_refuses_a_value_it_cannot_write_safely(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    with pytest.raises(ValueError, match="WEBHOOK_SECRET"):
        update_dotenv(env_file, {"WEBHOOK_SECRET": 'has"quote'})
    assert list(tmp_path.iterdir()) == []


async def test_a_visitor_without_the_token_is_refused_wherever_it_seems_to_come_from(
    start_server: StartServer, fake_github: FakeGitHub, workdir: Path
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    looks_local = {"Host": "localhost:3000", "Origin": "http://localhost:3000"}
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    async with _session() as session:
        for headers in ({}, looks_local, proxied):
            for path in (
                "/",
                "/setup",
                "/setup?token=wrong",
                f"{CALLBACK_PATH}?code=code-1&state=x",
            ):
                async with session.get(server.url + path, headers=headers) as response:
                    assert response.status == 403, (path, headers)
                    page = await response.text()
                assert forms(page) == []
                assert "SETUP_TOKEN" in page
                assert "/setup?token=" in page
    assert fake_github.requests == []
    assert not (workdir / ".env").exists()


async def test_a_reverse_tunnel_gets_no_further_than_anyone_else(
    start_server: StartServer, fake_github: FakeGitHub, workdir: Path
) -> None:
    """`ssh -R` or `socat` relaying the internet to the server: the peer is loopback, no
    header says it is forwarded, and the Host is whatever the sender writes."""
    server = await start_server(BASE_URL=PUBLIC_URL)
    target = urlsplit(server.url)
    async with _relay(target.hostname or "", target.port or 0) as tunnel:
        async with _session() as outsider:
            headers = {"Host": "localhost:3000"}
            async with outsider.get(tunnel + "/setup", headers=headers) as response:
                assert response.status == 403
        # The operator, who read the printed link, registers through the same tunnel.
        link = f"{tunnel}/setup?token={server.settings.setup_token}"
        async with _session() as operator, operator.get(link) as response:
            assert response.status == 200
            assert str(response.url) == tunnel + "/setup"  # the token left the address bar
            (form,) = forms(await response.text())
            cookie = operator.cookie_jar.filter_cookies(URL(tunnel))[SETUP_COOKIE]
            assert cookie.value == server.settings.setup_token
            (leave,) = response.history
            assert leave.status == 303
            set_cookie = leave.headers["Set-Cookie"]
            assert "HttpOnly" in set_cookie
            assert "SameSite=Lax" in set_cookie
    assert form.buttons == ["Register GitHub App"]
    assert not (workdir / ".env").exists()


@contextlib.asynccontextmanager
async def _relay(host: str, port: int) -> AsyncIterator[str]:
    """A TCP relay on loopback to host:port, as socat would be: its URL."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def relay(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(host, port)
        await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w))

    listener = await asyncio.start_server(relay, "127.0.0.1", 0)
    relay_port = listener.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{relay_port}"
    finally:
        listener.close()


async def test_setup_token_lets_a_remote_visitor_finish_the_flow(
    start_server: StartServer, fake_github: FakeGitHub, workdir: Path
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL, SETUP_TOKEN="s3cret-setup-token")
    fake_github.add_manifest_code("code-1")
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    async with _session() as session:
        async with session.get(server.url + "/setup?token=wrong", headers=proxied) as response:
            assert response.status == 403
        url = server.url + "/setup?token=s3cret-setup-token"
        async with session.get(url, headers=proxied) as response:
            assert response.status == 200
            (form,) = forms(await response.text())
        # GitHub sends the browser back without the token: its cookie carries it.
        link = f"{server.url}{CALLBACK_PATH}?code=code-1&state={_state(form)}"
        async with session.get(link, headers=proxied) as response:
            assert response.status == 200
    assert dotenv_values(workdir / ".env")["APP_ID"] == str(fake_github.app_id)


async def test_lockin_serve_prints_a_setup_link_that_only_it_knows(
    fake_github: FakeGitHub, workdir: Path
) -> None:
    """Without SETUP_TOKEN, the real `lockin serve` makes one up and prints the link."""
    port = free_port()
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "GITHUB_API_URL": fake_github.url,
        "BASE_URL": PUBLIC_URL,
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "serve",
        env=environ, cwd=workdir, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        line = b""
        while b"setup?token=" not in line:
            line = await asyncio.wait_for(process.stderr.readline(), 60)
            assert line, "serve exited without printing the setup link"
        link = re.search(rb"open (http://\S+/setup\?token=\S+)", line)
        assert link
        url = link.group(1).decode().replace("localhost", "127.0.0.1")
        await wait_healthy(f"http://127.0.0.1:{port}", process)
        async with _session() as session:
            async with session.get(f"http://127.0.0.1:{port}/setup") as response:
                assert response.status == 403
            await _register_form(session, url)
    finally:
        process.terminate()
        await process.wait()
