"""FakeGitHub: GitHub's REST API on loopback, checked against the contract, recording everything.

Every request goes through one middleware, in GitHub's order: record it, inject a fault if a
test asked for one, authenticate, check it against the OpenAPI description (422 for an invalid
request), answer, then add rate-limit headers and an ETag (304 when If-None-Match matches,
without consuming quota).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from aiohttp import web
from aiohttp.web_urldispatcher import AbstractRoute
from yarl import URL

from . import contract, endpoints
from .auth import (
    AuthError,
    Bucket,
    Installation,
    Token,
    generate_private_key,
    new_token_value,
    verify_app_jwt,
)
from .endpoints import Call, error, not_found, reply
from .faults import KINDS, Fault, SecondaryLimits, respond
from .shapes import Shapes
from .state import Ids, Repo, Team

JWT_OPERATIONS = {"apps/get-authenticated", "apps/create-installation-access-token"}
ANONYMOUS_OPERATIONS = {"apps/create-from-manifest", "rate-limit/get"}
#: Operations authenticated with the App's OAuth client id and secret (HTTP basic auth).
CLIENT_OPERATIONS = {"apps/delete-token"}
ANONYMOUS_OPERATIONS = {"apps/create-from-manifest", "meta/get", "rate-limit/get"}
# The `hooks` ranges GitHub's /meta published when this was written.
GITHUB_HOOK_RANGES = (
    "192.30.252.0/22",
    "185.199.108.0/22",
    "140.82.112.0/20",
    "143.55.64.0/20",
    "2a0a:a440::/29",
    "2606:50c0::/32",
)
# GitHub does not count these against the quota.
FREE_OPERATIONS = {"rate-limit/get"}
#: Operations answered for a user-to-server token (a user signed in with the App).
USER_OPERATIONS = {
    "users/get-authenticated",
    "apps/list-installations-for-authenticated-user",
    "apps/list-installation-repos-for-authenticated-user",
}
#: GitHub's web (not API) endpoints of the OAuth web flow. They are not in the REST
#: description; their shapes follow https://docs.github.com/en/apps/creating-github-apps/
#: authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app
OAUTH_AUTHORIZE = "/login/oauth/authorize"
OAUTH_TOKEN = "/login/oauth/access_token"
CODELOAD_ROUTE = "/_codeload/{owner}/{repo}/legacy.tar.gz/{ref:.+}"


@functools.cache
def _app_key() -> tuple[str, Any]:
    # One RSA key per test process: generating it costs ~0.1 s and tests start many fakes.
    return generate_private_key()


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    body: bytes
    operation: str | None
    status: int = 0
    contract_errors: list[str] = field(default_factory=list)


class FakeGitHub:
    def __init__(
        self,
        *,
        app_id: int = 424242,
        app_slug: str = "lockin",
        validate_responses: bool = True,
        timeout_delay: float = 10.0,
    ) -> None:
        self.app_id = app_id
        self.app_slug = app_slug
        self.private_key_pem, self._public_key = _app_key()
        self.url = ""
        self.requests: list[Recorded] = []
        self.contract_errors: list[str] = []
        self.token_ttl = 3600.0
        self.tokens_issued = 0
        self.tokens: dict[str, Token] = {}
        self.installations: dict[int, Installation] = {}
        self.repos: dict[str, Repo] = {}
        self.manifest_codes: set[str] = set()
        # Users who sign in through the App's OAuth flow: the repositories each can read,
        # their user-to-server tokens, and who GitHub's authorize page approves right now.
        self.user_repos: dict[str, set[str]] = {}
        self.user_tokens: dict[str, str] = {}
        self.revoked_user_tokens: list[str] = []  # as DELETE /applications/{id}/token did
        self.oauth_client_id = "Iv1.fakeclientid0001"
        self.oauth_client_secret = secrets.token_hex(20)
        self.oauth_codes: dict[str, tuple[str, str]] = {}  # code -> (login, redirect_uri)
        self.approving: str | None = None
        # What `GET /meta` lists as the addresses webhooks come from (GitHub's own, by default).
        self.hook_ranges: list[str] = list(GITHUB_HOOK_RANGES)
        self.codeload_tickets: set[str] = set()
        # Accounts GET /users/{username} knows (besides PR authors and repository owners),
        # and organisations' teams by "org/slug".
        self.accounts: set[str] = set()
        self.teams: dict[str, Team] = {}
        # Every 2xx JSON answer is also checked against the description's response schema, so
        # the fake cannot drift from GitHub; violations land in contract_errors (prefix "response").
        self.validate_responses = validate_responses
        # How long a "timeout" fault holds the request before its 504: above the client timeout.
        self.timeout_delay = timeout_delay
        # Off unless a test sets it: GitHub's concurrency and write-rate secondary limits.
        self.secondary_limits: SecondaryLimits | None = None
        self.shapes = Shapes("", app_id, app_slug)
        self._faults: list[Fault] = []
        self._app_bucket = Bucket()
        self._anonymous_bucket = Bucket(limit=60)
        self._ids = Ids()
        self._routes: dict[AbstractRoute, contract.Operation] = {}
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self._in_flight = 0

    @property
    def bot_login(self) -> str:
        return f"{self.app_slug}[bot]"

    # -- arranging state ------------------------------------------------------------------------
    def add_installation(
        self, installation_id: int, account: str, *, suspended: bool = False
    ) -> None:
        self.installations[installation_id] = Installation(installation_id, account, suspended)

    def add_repo(
        self,
        full_name: str,
        *,
        files: dict[str, bytes | str],
        installation_id: int = 1,
        default_branch: str = "main",
        private: bool = False,
        fork_of: str | None = None,
    ) -> Repo:
        if installation_id not in self.installations:
            self.add_installation(installation_id, full_name.split("/")[0])
        parent = self.repos[fork_of] if fork_of else None
        repo = Repo(
            self._ids,
            full_name,
            installation_id=installation_id,
            default_branch=default_branch,
            private=private,
            fork_of=parent,
        )
        if parent:
            repo.branches = dict(parent.branches)
        if files or not parent:
            repo.commit(dict(files), message="initial commit")
        self.repos[full_name] = repo
        return repo

    def add_user(self, login: str, repos: set[str]) -> None:
        """A person who can read ``repos`` (full names) on GitHub."""
        self.user_repos[login] = set(repos)

    def add_account(self, *logins: str) -> None:
        """Users who exist on GitHub (GET /users/{username} answers for them)."""
        self.accounts.update(logins)

    def add_team(self, name: str, members: dict[str, str] | list[str] | tuple[str, ...]) -> Team:
        """A team "org/slug"; members as logins (active) or login -> "active" | "pending"."""
        org, slug = name.split("/")
        states = members if isinstance(members, dict) else dict.fromkeys(members, "active")
        self.teams[name.lower()] = team = Team(org, slug, dict(states))
        self.add_account(*states)
        return team

    def account_exists(self, login: str) -> bool:
        known = {a.lower() for a in self.accounts}
        for repo in self.repos.values():
            known.add(repo.owner.lower())
            known.update(pr.user.lower() for pr in repo.pulls.values())
            known.update(r.user.lower() for pr in repo.pulls.values() for r in pr.reviews)
        return login.lower() in known

    def sign_in_as(self, login: str | None) -> None:
        """Who GitHub's authorize page approves (None: the visitor declines)."""
        self.approving = login

    def readable(self, login: str) -> set[str]:
        """The repositories of this App's installations ``login`` can read."""
        return {name for name in self.user_repos.get(login, set()) if name in self.repos}

    def add_manifest_code(self, code: str) -> None:
        self.manifest_codes.add(code)

    def fail(
        self,
        method: str,
        path_pattern: str,
        *,
        status: int = 502,
        times: int = 1,
        kind: str = "status",
        retry_after: int = 1,
        delay: float | None = None,
    ) -> None:
        """Make the next `times` matching requests fail (path_pattern: a regex searched in the
        request path; method "*" matches any); a "timeout" is held ``delay`` seconds, else
        ``timeout_delay``."""
        if kind not in KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; one of {sorted(KINDS)}")
        fault = Fault(method.upper(), path_pattern, status, times, kind, retry_after, delay)
        self._faults.append(fault)

    def requests_to(self, method: str, path_pattern: str) -> list[Recorded]:
        return [
            r
            for r in self.requests
            if method.upper() in ("*", r.method) and re.search(path_pattern, r.path)
        ]

    def bucket_for(self, token: Token | None) -> Bucket:
        return token.bucket if token else self._anonymous_bucket

    def issue_token(self, installation_id: int) -> Token:
        token = Token(new_token_value(), installation_id, time.time() + self.token_ttl)
        self.tokens[token.value] = token
        self.tokens_issued += 1
        return token

    # -- lifecycle --------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        for operation in contract.operations():
            route = app.router.add_route(operation.method, operation.route, self._dispatch)
            self._routes[route] = operation
        app.router.add_get(CODELOAD_ROUTE, functools.partial(endpoints.codeload, self))
        app.router.add_get(OAUTH_AUTHORIZE, self._authorize)
        app.router.add_post(OAUTH_TOKEN, self._access_token)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        self.shapes.api = self.url

    async def close(self) -> None:
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeGitHub:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- request pipeline -------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        body = await request.read()
        operation = self._routes.get(request.match_info.route)
        record = Recorded(
            method=request.method,
            path=request.path,
            query=dict(request.query),
            headers=dict(request.headers),
            json=_parse_json(body),
            body=body,
            operation=operation.operation_id if operation else None,
        )
        self.requests.append(record)
        contract_request = None
        if operation is not None:
            contract_request = contract.ContractRequest(
                method=request.method,
                path_pattern=operation.template,
                path_params=dict(request.match_info),
                query=dict(request.query),
                headers=dict(request.headers),
                body=body or None,
                content_type=request.content_type if body else "",
            )
            record.contract_errors = contract.request_errors(contract_request)
        elif not request.path.startswith(("/_codeload/", "/login/oauth/")):  # not the API
            record.contract_errors = [f"{request.method} {request.path}: not in the contract"]
        self._note_errors(record.contract_errors)
        if request.path.startswith(("/_codeload/", "/login/oauth/")):
            response = await handler(request)
        else:
            self._in_flight += 1
            try:
                response = await self._answer(request, operation, record)
            finally:
                self._in_flight -= 1
        record.status = response.status
        # The description has schemas for JSON bodies only (not raw/diff media types).
        json_body = response.content_type == "application/json"
        if self.validate_responses and contract_request and json_body and response.status < 300:
            self._check_response(contract_request, response)
        return response

    def _note_errors(self, errors: list[str]) -> None:
        self.contract_errors.extend(errors)

    def _check_response(
        self, request: contract.ContractRequest, response: web.StreamResponse
    ) -> None:
        assert isinstance(response, web.Response)
        shaped = contract.ContractResponse(
            response.status,
            response.content_type,
            dict(response.headers),
            response.body if isinstance(response.body, bytes) else None,
        )
        self._note_errors(
            [
                f"response {response.status} to {request.method.upper()} "
                f"{request.path_pattern}: {e}"
                for e in contract.response_errors(request, shaped)
            ]
        )

    async def _answer(
        self, request: web.Request, operation: contract.Operation | None, record: Recorded
    ) -> web.StreamResponse:
        token, bucket, auth_error = self._authenticate(request, operation)
        fault = next((f for f in self._faults if f.matches(request.method, request.path)), None)
        if fault is None and self.secondary_limits is not None:
            fault = self.secondary_limits.breached(request.method, self._in_flight)
        fault_headers: dict[str, str] = {}
        if fault is not None:
            fault.times -= 1
            answer = respond(fault, self.timeout_delay)
            if answer.delay:
                # Held open, as a stalled GitHub would; released early when the fake closes.
                await _wait(self._closing, answer.delay)
            response = reply(answer.body, answer.status)
            fault_headers = answer.headers
        elif operation is None:
            response = not_found()
        elif auth_error is not None:
            response = error(401, auth_error)
        elif bucket.remaining == 0:
            response = error(403, "API rate limit exceeded for installation.")
        elif record.contract_errors:
            # GitHub refuses a request that does not match its schema with 422.
            response = error(422, "Invalid request.\n\n" + "\n".join(record.contract_errors))
        else:
            response = await self._call(request, operation, token, record)
        if request.method == "GET" and response.status == 200:
            response = _conditional(request, response)
        if response.status != 304 and record.operation not in FREE_OPERATIONS:
            bucket.used += 1
        response.headers.update(bucket.headers() | fault_headers)
        response.headers["X-GitHub-Request-Id"] = f"FAKE:{len(self.requests):08X}"
        return response

    def _authenticate(
        self, request: web.Request, operation: contract.Operation | None
    ) -> tuple[Token | None, Bucket, str | None]:
        """Return (installation token, rate-limit bucket, error message or None)."""
        scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
        operation_id = operation.operation_id if operation else ""
        if operation_id in JWT_OPERATIONS:
            if scheme.lower() != "bearer" or not credential:
                return None, self._app_bucket, "A JSON web token could not be decoded"
            try:
                verify_app_jwt(credential, self._public_key, self.app_id)
            except AuthError as exc:
                return None, self._app_bucket, str(exc)
            return None, self._app_bucket, None
        if operation_id in USER_OPERATIONS and credential in self.user_tokens:
            return None, self._anonymous_bucket, None
        if operation_id in CLIENT_OPERATIONS:
            client = f"{self.oauth_client_id}:{self.oauth_client_secret}".encode()
            if scheme.lower() == "basic" and credential == base64.b64encode(client).decode():
                return None, self._anonymous_bucket, None
            return None, self._anonymous_bucket, "Requires authentication"
        token = self.tokens.get(credential) if scheme.lower() in ("token", "bearer") else None
        if token is not None and not token.live:
            return None, token.bucket, "Bad credentials"
        if token is not None:
            return token, token.bucket, None
        if operation_id in ANONYMOUS_OPERATIONS or operation is None:
            return None, self._anonymous_bucket, None
        return (
            None,
            self._anonymous_bucket,
            "Bad credentials" if credential else ("Requires authentication"),
        )

    async def _call(
        self,
        request: web.Request,
        operation: contract.Operation,
        token: Token | None,
        record: Recorded,
    ) -> web.Response:
        repo = None
        if "owner" in request.match_info:
            name = f"{request.match_info['owner']}/{request.match_info['repo']}"
            repo = next(
                (r for r in self.repos.values() if r.full_name.lower() == name.lower()), None
            )
            # A repository outside the token's installation does not exist for that token.
            if repo is None or token is None or token.installation_id != repo.installation_id:
                return not_found()
        call = Call(
            request, dict(request.match_info), dict(request.query), record.json, repo, token
        )
        return await endpoints.HANDLERS[operation.operation_id](self, call)

    async def _authorize(self, request: web.Request) -> web.Response:
        """GitHub's authorize page, approved at once by ``approving`` (a real one asks)."""
        query = request.query
        if query.get("client_id") != self.oauth_client_id or "redirect_uri" not in query:
            return web.Response(status=404, text="Not Found")
        redirect = URL(query["redirect_uri"])
        if self.approving is None:  # the visitor clicked Cancel
            target = redirect.update_query(error="access_denied", state=query.get("state", ""))
        else:
            code = secrets.token_hex(10)
            self.oauth_codes[code] = (self.approving, query["redirect_uri"])
            target = redirect.update_query(code=code, state=query.get("state", ""))
        raise web.HTTPFound(str(target))

    async def _access_token(self, request: web.Request) -> web.Response:
        """Exchanges a code once; errors are 200 answers with an ``error`` field, as GitHub's."""
        form = await request.post()
        code = str(form.get("code", ""))
        if (
            form.get("client_id") != self.oauth_client_id
            or form.get("client_secret") != self.oauth_client_secret
        ):
            return web.json_response({"error": "incorrect_client_credentials"})
        login, redirect_uri = self.oauth_codes.pop(code, (None, None))
        if login is None or form.get("redirect_uri") not in (None, redirect_uri):
            return web.json_response({"error": "bad_verification_code"})
        token = "ghu_" + secrets.token_hex(18)
        self.user_tokens[token] = login
        return web.json_response({"access_token": token, "token_type": "bearer", "scope": ""})

    async def _dispatch(self, request: web.Request) -> web.Response:
        # Contract routes only mark the operation: the middleware answers every request, since
        # it must also record and answer paths outside the contract.
        raise AssertionError("unreachable: the middleware answers contract routes")


def _parse_json(body: bytes) -> Any:
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


def _conditional(request: web.Request, response: web.Response) -> web.Response:
    """Tag a GET answer and turn it into 304 when the client already holds it."""
    etag = 'W/"' + hashlib.sha256(response.body).hexdigest() + '"'  # type: ignore[arg-type]
    response.headers["ETag"] = etag
    if etag in _etags(request.headers.get("If-None-Match", "")):
        return web.Response(status=304, headers={"ETag": etag})
    return response


def _etags(header: str) -> set[str]:
    tags = {t.strip() for t in header.split(",") if t.strip()}
    return tags | {f"W/{t}" for t in tags if not t.startswith("W/")}


async def _wait(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)
