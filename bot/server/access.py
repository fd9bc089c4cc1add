"""Who is looking, and what they may see: "Sign in with GitHub" for the organisation pages.

- ``GET /signin`` sends the browser to GitHub's authorize page with a random ``state``, bound
  to this browser by a short-lived encrypted cookie; ``GET /signin/callback`` refuses any
  other state, exchanges the code for the user's token and starts a session;
  ``POST /signout`` (with the session's CSRF token) ends it on every replica and for good:
  the sign-out is kept in the trend store (a session is refused while the store cannot
  say, never accepted) and the user's token is revoked at GitHub
  (``DELETE /applications/{client_id}/token``), so the cookie is worthless after a restart
  even in single-process mode.
- A session is one encrypted, authenticated cookie (Fernet: AES-CBC with HMAC-SHA256, and a
  timestamp checked against ``SESSION_SECONDS``): HttpOnly, SameSite=Lax, Secure behind
  https. It carries the session id, the login and the user's token, so that any replica can
  serve it; the browser can read none of it and can change none of it unnoticed.
- What a user may see is what GitHub answers *their* token (``bot.github.oauth``): the
  installations of this App they can access and the repositories in them. The answer is
  cached five minutes per session, then asked again; a page shows a repository only when it
  is in that answer, and an organisation none of whose repositories is gets 404 (never 403:
  which organisations use lockin is not for strangers to learn).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import html
import json
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import web
from cachetools import TTLCache
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from bot.github.errors import GitHubError
from bot.github.oauth import (
    OAuthError,
    UserAccess,
    authorize_url,
    exchange_code,
    revoke_token,
    user_access,
)
from bot.runtime.caches import SESSION_SECONDS
from bot.runtime.settings import Settings
from bot.server.keys import SERVICES
from bot.store import StoreUnavailable

log = logging.getLogger("lockin.signin")

SESSION_COOKIE = "lockin_session"
STATE_COOKIE = "lockin_signin"
STATE_SECONDS = 600  # a sign-in started is finished within ten minutes
ACCESS_SECONDS = 300.0  # GitHub's answer on what a user can see is asked again after this
CALLBACK = "/signin/callback"


@dataclass(frozen=True, slots=True)
class Access:
    """A signed-in user and what GitHub says they can read through this App."""

    login: str
    repositories: frozenset[str]  # "owner/name", lower case
    owners: frozenset[str]  # accounts of those installations, lower case
    csrf_token: str  # for the session's POST forms
    # Each repository's installation and visibility, as GitHub listed them to the user.
    installation_of: Mapping[str, int] = field(default_factory=dict)
    private: frozenset[str] = frozenset()

    def can_read(self, full_name: str) -> bool:
        return full_name.lower() in self.repositories


@dataclass
class SignIns:
    """The web process's sign-in state: its cookie key and the access answers it cached."""

    settings: Settings
    clock: Any = time.monotonic
    _fernet: Fernet = field(init=False)
    _csrf_key: bytes = field(init=False)
    access: TTLCache[str, UserAccess] = field(init=False)

    def __post_init__(self) -> None:
        secret = self.settings.session_secret or self.settings.private_key or ""
        self._fernet = Fernet(base64.urlsafe_b64encode(_derive(secret, b"session cookies")))
        self._csrf_key = _derive(secret, b"csrf tokens")
        # Through self.clock at each call, so that a test can move time on.
        self.access = TTLCache(maxsize=10_000, ttl=ACCESS_SECONDS, timer=lambda: self.clock())

    def seal(self, value: dict[str, Any], age: float = 0.0) -> str:
        """``value`` encrypted and authenticated, stamped ``age`` seconds in the past."""
        data = json.dumps(value).encode()
        return self._fernet.encrypt_at_time(data, int(time.time() - age)).decode()

    def open(self, sealed: str | None, max_age: float) -> dict[str, Any] | None:
        if not sealed:
            return None
        try:
            # Fernet's own timestamp: a cookie older than max_age is refused however it is
            # presented (the browser's expiry is only a courtesy).
            raw = self._fernet.decrypt(sealed.encode(), ttl=int(max_age))
        except (InvalidToken, ValueError):
            return None
        value = json.loads(raw)
        return value if isinstance(value, dict) else None

    def csrf_token(self, session_id: str) -> str:
        return hmac.new(self._csrf_key, session_id.encode(), hashlib.sha256).hexdigest()


SIGNINS = web.AppKey("lockin_signins", SignIns)


def _derive(secret: str, purpose: bytes) -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"lockin-signin", info=purpose)
    return hkdf.derive(secret.encode())


async def current_access(request: web.Request) -> Access | None:
    """The signed-in user's access, or None (no session, or a forged, expired or ended one)."""
    signins = request.app[SIGNINS]
    session = signins.open(request.cookies.get(SESSION_COOKIE), SESSION_SECONDS)
    if session is None or not all(isinstance(session.get(k), str) for k in ("sid", "token")):
        return None
    services = request.app[SERVICES]
    sid: str = session["sid"]
    if await services.caches.ended_sessions.get(sid):
        return None
    # Sign-outs outlive the process in the store; while it cannot say, no session is
    # accepted (StoreUnavailable: 503): a signed-out cookie must never come back.
    if services.store is None:
        raise StoreUnavailable("the store is not open")
    if await services.store.session_ended(sid):
        return None
    access = signins.access.get(sid)
    if access is None:
        assert services.auth is not None
        try:
            access = await user_access(services.auth.user_client(session["token"]))
        except GitHubError as exc:
            # A token GitHub no longer accepts (revoked, App uninstalled): sign in again.
            log.info("sign-in: GitHub refused the session's token (%s)", type(exc).__name__)
            return None
        signins.access[sid] = access
    return Access(
        access.login,
        access.repositories,
        access.owners,
        signins.csrf_token(sid),
        access.installation_of,
        access.private,
    )


async def require_access(request: web.Request, owner: str) -> Access:
    """The user's access to ``owner``'s pages: the sign-in page when signed out, 404 when
    none of ``owner``'s repositories is theirs to read."""
    if not request.app[SIGNINS].settings.sign_in_configured:
        raise web.HTTPServiceUnavailable(text=_not_configured(request), content_type="text/html")
    access = await current_access(request)
    if access is None:
        raise web.HTTPFound(f"/signin?next={quote(request.path_qs, safe='/')}")
    if owner.lower() not in access.owners:
        raise web.HTTPNotFound()
    return access


def add_signin_routes(app: web.Application, settings: Settings) -> None:
    app[SIGNINS] = SignIns(settings)
    app.router.add_get("/signin", signin)
    app.router.add_get(CALLBACK, callback)
    app.router.add_post("/signout", signout)
    app.router.add_get("/signin/done", signed_out)


async def signed_out(request: web.Request) -> web.Response:
    return _page("Signed out", '<p>You are signed out. <a href="/signin">Sign in again</a>.</p>')


async def signin(request: web.Request) -> web.Response:
    settings = request.app[SIGNINS].settings
    if not settings.sign_in_configured:
        return _page("Sign-in is not set up", _not_configured(request), status=503)
    assert settings.github_client_id is not None
    state = secrets.token_urlsafe(32)
    target = authorize_url(
        settings.web_url, settings.github_client_id, _callback_url(request), state
    )
    response = web.HTTPFound(target)
    sealed = request.app[SIGNINS].seal({"state": state, "next": _safe_next(request)})
    _set_cookie(response, request, STATE_COOKIE, sealed, STATE_SECONDS)
    raise response


async def callback(request: web.Request) -> web.Response:
    signins = request.app[SIGNINS]
    settings = signins.settings
    started = signins.open(request.cookies.get(STATE_COOKIE), STATE_SECONDS)
    state, code = request.query.get("state", ""), request.query.get("code", "")
    expected = started.get("state") if started else None
    if not isinstance(expected, str) or not hmac.compare_digest(expected, state) or not code:
        # Another browser's link, a replayed or expired sign-in: start again.
        return _page(
            "Sign-in refused",
            "<p>This sign-in link is not for this browser, or it has expired. "
            '<a href="/signin">Sign in again</a>.</p>',
            status=400,
        )
    if not settings.sign_in_configured:
        return _page("Sign-in is not set up", _not_configured(request), status=503)
    assert settings.github_client_id
    assert settings.github_client_secret
    services = request.app[SERVICES]
    assert services.auth is not None
    assert services.http is not None
    try:
        token = await exchange_code(
            services.http,
            settings.web_url,
            client_id=settings.github_client_id,
            client_secret=settings.github_client_secret,
            code=code,
            redirect_uri=_callback_url(request),
        )
        access = await user_access(services.auth.user_client(token))
    except (OAuthError, GitHubError) as exc:
        log.warning("sign-in failed: %s", exc)
        return _page(
            "Sign-in failed",
            '<p>GitHub did not confirm the sign-in. <a href="/signin">Try again</a>.</p>',
            status=502,
        )
    sid = secrets.token_urlsafe(24)
    signins.access[sid] = access
    nxt = started.get("next") if started else None
    response = web.HTTPFound(nxt if isinstance(nxt, str) and _is_local(nxt) else "/orgs")
    sealed = signins.seal({"sid": sid, "login": access.login, "token": token})
    _set_cookie(response, request, SESSION_COOKIE, sealed, int(SESSION_SECONDS))
    response.del_cookie(STATE_COOKIE, path="/")
    log.info("signed in: %s", access.login)
    raise response


async def signout(request: web.Request) -> web.Response:
    signins = request.app[SIGNINS]
    session = signins.open(request.cookies.get(SESSION_COOKIE), SESSION_SECONDS)
    form = await request.post()
    if session is None or not isinstance(session.get("sid"), str):
        raise web.HTTPFound("/signin")
    sid: str = session["sid"]
    if not hmac.compare_digest(str(form.get("csrf", "")), signins.csrf_token(sid)):
        return _page("Sign-out refused", "<p>This form has expired; reload the page.</p>", 403)
    services = request.app[SERVICES]
    await services.caches.ended_sessions.put(sid, True)
    signins.access.pop(sid, None)
    if services.store is not None:
        # Kept past restarts (and written later, from the backlog, if the store is down).
        kept = dt.timedelta(seconds=SESSION_SECONDS)
        await services.store.end_session(sid, dt.datetime.now(dt.UTC), kept)
    await _revoke(request, session.get("token"))
    response = web.HTTPFound("/signin/done")
    response.del_cookie(SESSION_COOKIE, path="/")
    raise response


async def _revoke(request: web.Request, token: Any) -> None:
    """Revoke the session's token at GitHub: the cookie's token is then useless anywhere."""
    settings = request.app[SIGNINS].settings
    http = request.app[SERVICES].http
    if not isinstance(token, str) or http is None:
        return
    if not (settings.github_client_id and settings.github_client_secret):
        return
    revoked = await revoke_token(
        http,
        settings.github_api_url,
        client_id=settings.github_client_id,
        client_secret=settings.github_client_secret,
        token=token,
    )
    if not revoked:
        log.warning("sign-out: GitHub did not confirm revoking the token; the sign-out holds")


def _set_cookie(
    response: web.StreamResponse, request: web.Request, name: str, value: str, max_age: int
) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/",
        httponly=True,
        samesite="Lax",  # sent on GitHub's redirect back (a top-level GET), not on cross-site POSTs
        secure=_public_url(request).startswith("https://"),
    )


def _public_url(request: web.Request) -> str:
    base = request.app[SIGNINS].settings.base_url
    return (base or str(request.url.origin())).rstrip("/")


def _callback_url(request: web.Request) -> str:
    return _public_url(request) + CALLBACK


def _safe_next(request: web.Request) -> str:
    nxt = request.query.get("next", "/orgs")
    return nxt if _is_local(nxt) else "/orgs"


def _is_local(target: str) -> bool:
    """A path on this server: never another host (``//evil``, ``/\\evil``, ``https:``)."""
    parts = urlsplit(target)
    return (
        target.startswith("/")
        and not target.startswith(("//", "/\\"))
        and not parts.scheme
        and not parts.netloc
        and "\\" not in target
        and not any(ord(c) < 32 for c in target)
    )


def _not_configured(request: web.Request) -> str:
    callback_url = html.escape(_callback_url(request))
    return (
        "<p>The organisation pages need “Sign in with GitHub”. Set <code>GITHUB_CLIENT_ID</code> "
        "and <code>GITHUB_CLIENT_SECRET</code> (the App's client id and a client secret, from "
        "its settings page on GitHub; the setup page writes both) and restart lockin. "
        f"The App's callback URL must be <code>{callback_url}</code>.</p>"
    )


def _page(title: str, body: str, status: int = 200) -> web.Response:
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} · lockin</title></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>"
    )
    return web.Response(text=page, status=status, content_type="text/html", charset="utf-8")
