"""App registration in one click: Probot's manifest flow, served while the server has no App.

`GET /` and `GET /setup` show a page whose button POSTs a manifest built from `app.yml` to
GitHub ("Create GitHub App from manifest"); GitHub redirects back to `GET /setup/callback` with a
one-hour code, which we exchange (`POST /app-manifests/{code}/conversions`, no authentication)
for the new App's id, key and secrets, written to `.env` (mode 0600) for the next start.

The routes exist only while the server is unconfigured (`create_app` adds them then), answer
only a browser holding SETUP_TOKEN (the first anonymous visitor of a public server must not
become the App's owner), and stop answering after one successful exchange: a second visitor
must not overwrite the credentials. No visitor is trusted for where it seems to come from:
a loopback peer may be a reverse tunnel (`ssh -R`, `socat`, a proxy that adds no headers)
and its Host header is the sender's to write, so `lockin serve` generates a token when none
is set and prints the setup link carrying it, as Jupyter does: whoever can read the server's
output is its operator. The `state`
parameter is bound to the visitor's browser by a cookie, so a callback link crafted by
someone else is refused.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import ipaddress
import json
import logging
import os
import secrets
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

import aiohttp
import gidgethub
import yaml
from aiohttp import web
from cachetools import TTLCache
from dotenv import dotenv_values
from gidgethub.aiohttp import GitHubAPI

from bot.runtime.logs import REDACTOR
from bot.runtime.settings import Settings, parse_private_key

log = logging.getLogger(__name__)

SETUP_PATHS = ("/", "/setup")
CALLBACK_PATH = "/setup/callback"
# What the exchange writes to `.env`, in Probot's names.
ENV_KEYS = ("APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET", "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET")
STATE_COOKIE = "lockin_setup_state"
#: Holds SETUP_TOKEN once a visitor opened /setup?token=... (the link is then left at once,
#: so the token stays out of the address bar, the history and a Referer sent to GitHub).
SETUP_COOKIE = "lockin_setup_token"
# The manifest template: the repository's top-level app.yml is its one source. A built wheel
# carries a copy beside this module (setup.py's build hook); a source checkout, editable
# installs included, reads the top-level file. An app.yml in the working directory wins.
_BUILT_APP_YML = Path(__file__).with_name("app.yml")
PACKAGED_APP_YML = (
    _BUILT_APP_YML if _BUILT_APP_YML.is_file() else Path(__file__).parents[2] / "app.yml"
)
LOCAL_APP_YML = Path("app.yml")
# GitHub's manifest code expires after one hour; a state older than that is useless anyway.
STATE_TTL = 3600.0
_MAX_PENDING_STATES = 1024

_SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def github_web_url(api_url: str) -> str:
    """GitHub's web address for a REST API URL.

    `https://api.github.com` -> `https://github.com`; GitHub Enterprise Server
    `https://HOST/api/v3` -> `https://HOST`; GHE.com `https://api.SUB.ghe.com` -> `https://SUB.ghe.com`.
    """
    parts = urlsplit(api_url.rstrip("/"))
    host, path = parts.netloc, parts.path
    if path.endswith("/api/v3"):
        path = path.removesuffix("/api/v3")
    elif host.startswith("api.") and not path:
        host = host.removeprefix("api.")
    return urlunsplit((parts.scheme, host, path, "", ""))


def registration_url(web_url: str, org: str | None, state: str) -> str:
    """Where the manifest is POSTed: the user's own settings, or the organisation's."""
    owner = f"/organizations/{quote(org, safe='')}" if org else ""
    return f"{web_url}{owner}/settings/apps/new?{urlencode({'state': state})}"


def build_manifest(app_yml: Mapping[str, Any], webhook_url: str, redirect_url: str) -> dict:
    """`app.yml` (Probot's manifest format) with this server's webhook and redirect URLs."""
    manifest = dict(app_yml)
    manifest["hook_attributes"] = {
        "active": True,
        **dict(app_yml.get("hook_attributes") or {}),
        "url": webhook_url,
    }
    manifest["redirect_url"] = redirect_url
    return manifest


def load_app_yml(path: Path) -> dict[str, Any]:
    """The manifest template; `ManifestError` names the file and what is wrong with it."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ManifestError(f"cannot read {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ManifestError(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict) or not data.get("name"):
        raise ManifestError(f"{path} must be a mapping with at least a `name`")
    return data


class ManifestError(ValueError):
    """The setup page cannot offer a registration; the text says what to fix."""


def update_dotenv(path: Path, values: Mapping[str, str]) -> None:
    """Set `values` in the dotenv file at `path`, keeping its other lines; the file ends 0600.

    Values are written unquoted on one line (newlines as `\\n`): python-dotenv (lockin itself),
    `docker run --env-file` and `kubectl create secret --from-env-file` all read that form the
    same way, while quotes would reach the latter two as part of the value. The new file is
    created 0600 next to the old one and renamed over it, so the secrets are never readable by
    others, not even for a moment, and a crash leaves the old file intact.
    """
    lines = _without_keys(_read_lines(path), values.keys())
    for key, value in values.items():
        lines.append(f"{key}={_one_line(key, value)}\n")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.writelines(lines)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _read_lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def _without_keys(lines: list[str], keys: Any) -> list[str]:
    """Drop existing assignments to `keys`, including quoted values spanning several lines."""
    drop, kept, open_quote = set(keys), [], ""
    for line in lines:
        if open_quote:
            if open_quote in line:
                open_quote = ""
            continue
        name, sep, value = line.strip().removeprefix("export ").partition("=")
        if sep and name.strip() in drop:
            value = value.strip()
            if value[:1] in ("'", '"') and value.count(value[0]) == 1:
                open_quote = value[0]
            continue
        kept.append(line)
    return kept


_UNQUOTED_SAFE = frozenset(string.ascii_letters + string.digits + " .,:;_+-/=@\\")


def _one_line(key: str, value: str) -> str:
    text = value.strip().replace("\r\n", "\n").replace("\n", "\\n")
    if not text or not set(text) <= _UNQUOTED_SAFE:
        # GitHub's ids, keys and secrets never need quoting; refuse rather than write a file
        # that one of the three readers would misread.
        raise ValueError(f"{key}: GitHub returned a value that cannot be written unquoted")
    return text


@dataclass(frozen=True)
class RegisteredApp:
    """What GitHub returned for the new App, minus the secrets (those go to `.env` only)."""

    id: int
    slug: str
    name: str
    html_url: str


async def exchange_code(
    api_url: str, code: str, client_timeout: aiohttp.ClientTimeout
) -> tuple[RegisteredApp, dict[str, str]]:
    """Trade the manifest code for the App's credentials; returns the App and the `.env` values."""
    async with aiohttp.ClientSession(timeout=client_timeout) as session:
        gh = GitHubAPI(session, "lockin-setup", base_url=api_url)
        data = await gh.post(f"/app-manifests/{quote(code, safe='')}/conversions", data=b"")
    env = {
        "APP_ID": str(data["id"]),
        "PRIVATE_KEY": data["pem"],
        "WEBHOOK_SECRET": data.get("webhook_secret") or "",
        "GITHUB_CLIENT_ID": data["client_id"],
        "GITHUB_CLIENT_SECRET": data["client_secret"],
    }
    app = RegisteredApp(
        id=int(data["id"]),
        slug=data.get("slug") or "",
        name=data.get("name") or data.get("slug") or "",
        html_url=data["html_url"],
    )
    return app, env


class _Pages:
    """The HTML pages, from `templates/`; every substituted value is escaped here."""

    def __init__(self) -> None:
        folder = resources.files(__package__).joinpath("templates")
        self._templates = {
            name: string.Template(folder.joinpath(f"{name}.html").read_text(encoding="utf-8"))
            for name in ("layout", "setup", "registered", "problem")
        }

    def render(self, template: str, title: str, status: int = 200, **values: str) -> web.Response:
        escaped = {key: html.escape(value, quote=True) for key, value in values.items()}
        body = self._templates[template].substitute(escaped)
        page = self._templates["layout"].substitute(title=html.escape(title), body=body)
        return web.Response(
            text=page, status=status, content_type="text/html", headers=_SECURITY_HEADERS
        )

    def problem(self, status: int, title: str, message: str) -> web.Response:
        return self.render("problem", title, status, heading=title, message=message)


class ManifestFlow:
    """The setup page and its callback, for one unconfigured server process."""

    def __init__(
        self,
        settings: Settings,
        *,
        env_file: Path,
        app_yml: Path,
        org: str | None,
    ) -> None:
        self._settings = settings
        self._env_file = env_file
        self._app_yml = app_yml
        self._org = org or None
        self._web_url = github_web_url(settings.github_api_url)
        self._states: TTLCache[str, bool] = TTLCache(_MAX_PENDING_STATES, STATE_TTL)
        self._registered = False
        self._lock = asyncio.Lock()
        self._pages = _Pages()

    def _visitor_allowed(self, request: web.Request) -> bool:
        """Whoever finishes the flow writes the App's credentials into `.env`, so nobody
        may without SETUP_TOKEN (`/setup?token=...`, then a cookie), wherever the request
        seems to come from (see the module's docstring)."""
        token = self._settings.setup_token
        given = request.query.get("token") or request.cookies.get(SETUP_COOKIE, "")
        return bool(token and given) and hmac.compare_digest(given.encode(), (token or "").encode())

    def _refused(self) -> web.Response:
        return self._pages.problem(
            403,
            "Open the setup link the server printed",
            "This server has no GitHub App yet, and whoever finishes the setup becomes its "
            "owner, so the page asks for the server's setup token. Open the link "
            "`lockin serve` printed when it started (/setup?token=...), or set SETUP_TOKEN "
            "on the server, restart it and open /setup?token=<its value>.",
        )

    async def setup_page(self, request: web.Request) -> web.Response:
        if self._registered:
            raise web.HTTPNotFound(text="lockin is registered: restart the server to use it.\n")
        if not self._visitor_allowed(request):
            return self._refused()
        if request.query.get("token"):
            # Keep the token in a cookie (the callback comes back without the query) and
            # leave the link, so that it is not shown, kept in history or sent as a Referer.
            leave = web.HTTPSeeOther(request.path)
            leave.set_cookie(
                SETUP_COOKIE,
                request.query["token"],
                max_age=int(STATE_TTL),
                httponly=True,
                samesite="Lax",
                path="/",
            )
            raise leave
        try:
            manifest, webhook_url = self._manifest(request)
        except ManifestError as exc:
            return self._pages.problem(503, "lockin cannot be registered yet", str(exc))
        # A reload or a second tab keeps this browser's pending state, so no tab goes stale.
        state = request.cookies.get(STATE_COOKIE, "")
        if state not in self._states:
            state = secrets.token_urlsafe(32)
        self._states[state] = True
        owner = f"the organisation {self._org}" if self._org else "your personal account"
        response = self._pages.render(
            "setup",
            "Register lockin on GitHub",
            action=registration_url(self._web_url, self._org, state),
            manifest=json.dumps(manifest),
            name=str(manifest["name"]),
            owner=owner,
            web_url=self._web_url,
            webhook_url=webhook_url,
            events=", ".join(manifest.get("default_events") or []) or "none",
            warning=_reachability_warning(webhook_url),
        )
        response.set_cookie(
            STATE_COOKIE, state, max_age=int(STATE_TTL), httponly=True, samesite="Lax", path="/"
        )
        return response

    async def callback(self, request: web.Request) -> web.Response:
        if self._registered:
            raise web.HTTPNotFound(text="lockin is registered: restart the server to use it.\n")
        if not self._visitor_allowed(request):
            return self._refused()
        code = request.query.get("code", "")
        state = request.query.get("state", "")
        if not code or not state:
            return self._pages.problem(
                400, "Incomplete callback", "GitHub's answer lacks its code or state."
            )
        if not self._take_state(state, request.cookies.get(STATE_COOKIE, "")):
            return self._pages.problem(
                403,
                "This registration was not started here",
                "The link's state does not match a registration started from this browser in "
                "the last hour. Open /setup and press the button again.",
            )
        async with self._lock:
            if self._registered:
                raise web.HTTPNotFound(text="lockin is registered: restart the server.\n")
            if dotenv_values(self._env_file).get("APP_ID") if self._env_file.is_file() else None:
                return self._pages.problem(
                    409,
                    "Already registered",
                    f"{self._env_file} already holds an APP_ID. Restart the server to use it.",
                )
            return await self._exchange(code, state)

    async def _exchange(self, code: str, state: str) -> web.Response:
        try:
            app, env = await exchange_code(
                self._settings.github_api_url,
                code,
                aiohttp.ClientTimeout(total=self._settings.request_timeout),
            )
            # The next start must load what we write: check the key now, not after the restart.
            parse_private_key(env["PRIVATE_KEY"], "PRIVATE_KEY")
            for key in ("PRIVATE_KEY", "WEBHOOK_SECRET", "GITHUB_CLIENT_SECRET"):
                REDACTOR.add_static(env[key])
            update_dotenv(self._env_file, env)
        except (gidgethub.GitHubBroken, aiohttp.ClientError, TimeoutError) as exc:
            reason = _reason(exc)
            log.warning("setup: GitHub did not convert the manifest code: %s", reason)
            self._states[state] = True  # the code is still good for its hour: let a reload retry
            return self._pages.problem(
                502,
                "GitHub did not answer",
                f"Exchanging the code with {self._settings.github_api_url} failed ({reason}). "
                "Reload this page to try again.",
            )
        except gidgethub.HTTPException as exc:
            log.warning("setup: GitHub refused the manifest code: %s", _reason(exc))
            return self._pages.problem(
                502,
                "GitHub refused the registration code",
                f"GitHub answered {_reason(exc)}: a code works once and expires after an hour. "
                "Open /setup and register again.",
            )
        except (KeyError, TypeError, ValueError, OSError) as exc:
            log.error("setup: cannot store the new App's credentials: %s", _reason(exc))
            return self._pages.problem(
                500,
                "The App was created but its credentials were not saved",
                f"Saving to {self._env_file} failed ({_reason(exc)}). Delete the new App on "
                "GitHub, fix the cause and register again.",
            )
        self._registered = True
        log.info(
            "setup: registered GitHub App %s (id %s); wrote %s to %s; restart the server",
            app.slug,
            app.id,
            ", ".join(ENV_KEYS),
            self._env_file,
        )
        response = self._pages.render(
            "registered",
            "lockin is registered",
            name=app.name,
            app_url=app.html_url,
            install_url=f"{app.html_url}/installations/new",
            env_file=str(self._env_file),
            keys=", ".join(ENV_KEYS),
        )
        response.del_cookie(STATE_COOKIE, path="/")
        return response

    def _take_state(self, state: str, cookie: str) -> bool:
        """One use per state, and only from the browser it was given to."""
        issued = self._states.pop(state, False)
        return issued and hmac.compare_digest(state.encode(), cookie.encode())

    def _manifest(self, request: web.Request) -> tuple[dict, str]:
        base_url = self._settings.base_url
        if not base_url:
            raise ManifestError(
                "GitHub needs a public URL to deliver webhooks to. Set BASE_URL to this "
                "server's public https URL (or WEBHOOK_PROXY_URL to a tunnel that forwards to "
                "it) and restart the server."
            )
        webhook_url = base_url + self._settings.webhook_path
        app_yml = load_app_yml(self._app_yml)
        return build_manifest(app_yml, webhook_url, self._redirect_url(request)), webhook_url

    def _redirect_url(self, request: web.Request) -> str:
        """Back to the public URL when the browser came through it, else to where it came.

        The state cookie lives on the host the browser used; a callback sent to another host
        (BASE_URL while the page was opened on localhost) would arrive without it.
        """
        base_url = self._settings.base_url or ""
        if urlsplit(base_url).netloc == request.host:
            return base_url + CALLBACK_PATH
        return f"{request.scheme}://{request.host}{CALLBACK_PATH}"


def _reachability_warning(webhook_url: str) -> str:
    host = urlsplit(webhook_url).hostname or ""
    try:
        private = host == "localhost" or not ipaddress.ip_address(host).is_global
    except ValueError:
        private = host.endswith((".local", ".internal", ".localhost"))
    if not private:
        return ""
    return (
        f"{host} is not reachable from GitHub: the App will be created, but its webhooks will "
        "fail until BASE_URL is a public address (or a tunnel such as WEBHOOK_PROXY_URL)."
    )


def _reason(exc: BaseException) -> str:
    """What went wrong, for the page and the log; none of these texts quotes a secret."""
    if isinstance(exc, gidgethub.HTTPException):
        return f"HTTP {int(exc.status_code)}"
    if isinstance(exc, KeyError):
        return f"GitHub's answer lacks {exc}"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__


def add_setup_routes(
    app: web.Application,
    settings: Settings,
    *,
    env_file: Path = Path(".env"),
    app_yml: Path | None = None,
) -> None:
    """Serve the registration page on `/` and `/setup`; `create_app` calls this when unconfigured.

    `env_file` is where `Settings.from_env` reads `.env` (the working directory by default) and
    `app_yml` the manifest template: by default `app.yml` in the working directory when there
    is one (as Probot reads it, so an operator can rename the App), else the one shipped in
    this package.
    """
    if app_yml is None:
        app_yml = LOCAL_APP_YML if LOCAL_APP_YML.is_file() else PACKAGED_APP_YML
    env_file, app_yml = env_file.absolute(), app_yml.absolute()
    flow = ManifestFlow(settings, env_file=env_file, app_yml=app_yml, org=settings.gh_org)
    for path in SETUP_PATHS:
        app.router.add_get(path, flow.setup_page)
    app.router.add_get(CALLBACK_PATH, flow.callback)
