"""GitHub's REST contract (tests/contract/rest-api.subset.json) applied with openapi-core.

The fake's routes are derived from the description's paths, every request is validated against
its operation, and tests may validate the fake's responses the same way so it cannot drift.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema_path import SchemaPath
from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

CONTRACT_DIR = Path(__file__).resolve().parent.parent / "contract"
REST_DESCRIPTION = CONTRACT_DIR / "rest-api.subset.json"
SERVER = "https://api.github.com"
# Parameters GitHub lets contain "/" (file paths, branch names, "base...feature/x").
SLASHED_PARAMETERS = {"path", "ref", "basehead", "tree_sha"}
METHODS = {"get", "post", "patch", "put", "delete"}


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    template: str  # "/repos/{owner}/{repo}/pulls/{pull_number}"
    operation_id: str  # "pulls/get"

    @property
    def route(self) -> str:
        """The aiohttp route: parameters that may hold slashes match greedily."""
        route = self.template
        for name in SLASHED_PARAMETERS:
            route = route.replace(f"{{{name}}}", f"{{{name}:.+}}")
        return route


@functools.cache
def description() -> dict[str, Any]:
    return json.loads(REST_DESCRIPTION.read_text())


def _normalised(node: Any) -> Any:
    """Two known defects of GitHub's description that openapi-core (rightly) takes literally.

    - `nullable: true` with an `enum` lacking null (check-run `conclusion`): OpenAPI 3.0.3 says
      the enum must list null, and GitHub does send null.
    - A `type` discriminator over a oneOf whose `array` branch (a directory listing) has no
      `type` property: the discriminator cannot apply, so plain oneOf matching is used.
    """
    if isinstance(node, list):
        return [_normalised(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _normalised(value) for key, value in node.items()}
    if node.get("nullable") and "enum" in node and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]
    if "array" in node.get("discriminator", {}).get("mapping", {}):
        del node["discriminator"]
    return node


@functools.cache
def openapi() -> OpenAPI:
    # Built once per process: parsing the description costs ~0.2 s.
    return OpenAPI(SchemaPath.from_dict(_normalised(description())))


def operations() -> list[Operation]:
    return [
        Operation(method.upper(), template, spec["operationId"])
        for template, item in description()["paths"].items()
        for method, spec in item.items()
        if method in METHODS
    ]


@dataclass
class ContractRequest:
    """openapi-core's Request protocol, with the operation's path already matched by aiohttp."""

    method: str
    path_pattern: str
    path_params: Mapping[str, str]
    query: Mapping[str, Any]
    headers: Mapping[str, str]
    body: bytes | None
    content_type: str
    host_url: str = SERVER
    parameters: RequestParameters = field(init=False)

    def __post_init__(self) -> None:
        self.method = self.method.lower()
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(list(self.query.items())),
            header=Headers(list(self.headers.items())),
            cookie=ImmutableMultiDict(),
            path=dict(self.path_params),
        )

    @property
    def path(self) -> str:
        return self.path_pattern


@dataclass
class ContractResponse:
    status_code: int
    content_type: str
    headers: Mapping[str, str]
    data: bytes | None


def _describe(error: Exception) -> str:
    cause = error.__cause__
    details = [str(error)]
    for schema_error in getattr(cause, "schema_errors", None) or []:
        where = "/".join(str(p) for p in getattr(schema_error, "path", ()))
        details.append(f"{where or '<body>'}: {getattr(schema_error, 'message', schema_error)}")
    if cause is not None and not getattr(cause, "schema_errors", None):
        details.append(str(cause))
    return "; ".join(details)


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in node:
        return node
    target: Any = description()
    for part in node["$ref"].removeprefix("#/").split("/"):
        target = target[part]
    return target


@functools.cache
def _any_string_parameters(template: str, method: str) -> frozenset[str]:
    """Path parameters that any string satisfies: their values cannot change a verdict."""
    item = description()["paths"][template]
    parameters = [
        _resolve(p) for p in [*item.get("parameters", []), *item[method].get("parameters", [])]
    ]
    return frozenset(
        p["name"] for p in parameters if p["in"] == "path" and p["schema"] == {"type": "string"}
    )


_verdicts: dict[tuple[Any, ...], list[str]] = {}


def request_errors(request: ContractRequest) -> list[str]:
    """The contract violations of a request. Verdicts on body-less requests are cached by what
    can change them (a file path or a branch name cannot): validation costs ~4 ms a request."""
    if request.body is not None:
        return [_describe(e) for e in openapi().iter_request_errors(request)]
    free = _any_string_parameters(request.path_pattern, request.method)
    key = (
        request.method,
        request.path_pattern,
        tuple(sorted((k, v) for k, v in request.path_params.items() if k not in free)),
        tuple(sorted(request.query.items())),
    )
    if key not in _verdicts:
        _verdicts[key] = [_describe(e) for e in openapi().iter_request_errors(request)]
    return list(_verdicts[key])


def response_errors(request: ContractRequest, response: ContractResponse) -> Iterator[str]:
    for error in openapi().iter_response_errors(request, response):
        yield _describe(error)
