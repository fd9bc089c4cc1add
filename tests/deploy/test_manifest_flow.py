"""The manifest flow over real HTTP: the real server on loopback, the fake GitHub behind it."""

from __future__ import annotations

import json
import logging
import stat
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
    STATE_COOKIE,
    github_web_url,
    update_dotenv,
)
from tests.deploy.conftest import PUBLIC_URL, SetupServer, StartServer
from tests.deploy.html_forms import Form, forms
from tests.fakegithub import FakeGitHub


def _session() -> aiohttp.ClientSession:
    # A browser's cookie jar; `unsafe` because the server is addressed by IP (127.0.0.1).
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


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
    async with _session() as session:
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
    async with _session() as session:
        form = await _register_form(session, server.url)
    manifest = json.loads(form.inputs["manifest"])
    assert (manifest["name"], manifest["public"]) == ("lockin-acme", True)
    assert manifest["default_events"] == app_yml["default_events"]


async def test_registration_goes_to_the_organisation_named_by_gh_org(
    start_server: StartServer, fake_github: FakeGitHub
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL, GH_ORG="gpu-platform")
    async with _session() as session:
        form = await _register_form(session, server.url + "/setup")
    expected = f"{fake_github.url}/organizations/gpu-platform/settings/apps/new?state="
    assert form.action.startswith(expected)


async def test_redirect_uses_the_public_url_when_the_browser_came_through_it(
    start_server: StartServer,
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    headers = {"Host": urlsplit(PUBLIC_URL).netloc}
    async with _session() as session, session.get(server.url, headers=headers) as response:
        (form,) = forms(await response.text())
    assert json.loads(form.inputs["manifest"])["redirect_url"] == PUBLIC_URL + CALLBACK_PATH


async def test_without_a_public_url_the_page_says_what_to_set(start_server: StartServer) -> None:
    server = await start_server()
    async with _session() as session, session.get(server.url + "/setup") as response:
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
    async with _session() as session:
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
    async with _session() as victim, _session() as attacker:
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
    async with _session() as session:
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
    async with _session() as session:
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
    async with _session() as session:
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
    async with _session() as session:
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
    async with _session() as session:
        for path in ("/", "/setup", f"{CALLBACK_PATH}?code=x&state=y"):
            async with session.get(server.url + path) as response:
                assert response.status == 404, path
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


async def test_a_visitor_through_a_proxy_is_refused_and_nothing_is_written(
    start_server: StartServer, fake_github: FakeGitHub, workdir: Path
) -> None:
    server = await start_server(BASE_URL=PUBLIC_URL)
    fake_github.add_manifest_code("code-1")
    # A reverse proxy on this machine: the peer is loopback, the visitor is not.
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    async with _session() as session:
        for path in ("/", "/setup", f"{CALLBACK_PATH}?code=code-1&state=x"):
            async with session.get(server.url + path, headers=proxied) as response:
                assert response.status == 403
                page = await response.text()
            assert forms(page) == []
            assert "SETUP_TOKEN" in page
    assert fake_github.requests == []
    assert not (workdir / ".env").exists()


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
