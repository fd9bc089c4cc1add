"""What every endpoint handler shares: the request it sees, the registry, GitHub's replies."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from ..paging import paginate
from ..state import Repo

if TYPE_CHECKING:
    from ..auth import Token
    from ..server import FakeGitHub

T = TypeVar("T")


@dataclass
class Call:
    request: web.Request
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    repo: Repo | None
    token: Token | None

    @property
    def accept(self) -> str:
        return self.request.headers.get("Accept", "")

    def wants(self, media_types: tuple[str, ...]) -> bool:
        return any(media in self.accept for media in media_types)

    def page(self, items: Sequence[T]) -> tuple[Sequence[T], dict[str, str]]:
        """This request's page of items and its Link header."""
        return paginate(items, self.query, str(self.request.url.with_query(None)))


Handler = Callable[["FakeGitHub", Call], Awaitable[web.Response]]
HANDLERS: dict[str, Handler] = {}


def handles(operation_id: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        HANDLERS[operation_id] = func
        return func

    return register


def reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers=headers,
        content_type="application/json",
        charset="utf-8",
    )


def error(code: int, message: str, **extra: Any) -> web.Response:
    return reply(
        {"message": message, "documentation_url": "https://docs.github.com/rest", **extra}, code
    )


def not_found() -> web.Response:
    return error(404, "Not Found", status="404")


def validation_failed(resource: str, field: str, message: str) -> web.Response:
    errors = [{"resource": resource, "code": "custom", "field": field, "message": message}]
    return error(422, "Validation Failed", errors=errors)


def repo_of(call: Call) -> Repo:
    assert call.repo is not None  # the server resolves the repository of every /repos route
    return call.repo
