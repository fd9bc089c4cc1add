"""Regenerate the contract files from GitHub's published descriptions.

    npm pack @octokit/openapi@VERSION @octokit/webhooks-examples@VERSION   (VERSIONS.json)
    mkdir openapi examples
    tar -xzf octokit-openapi-*.tgz -C openapi
    tar -xzf octokit-webhooks-examples-*.tgz -C examples
    python tests/contract/regenerate.py openapi/package examples/package

It cuts `generated/api.github.com.json` to OPERATIONS (every operation lockin calls) with every
`$ref` they reach, drops prose and examples (a response keeps an empty `description`, which
OpenAPI requires), and writes the webhook examples of EVENTS as `EVENT.ACTION.N.json`. Run on
the versions in VERSIONS.json it reproduces the committed files byte for byte, so a new
operation or event is added here and the files regenerated, never edited by hand.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# (method, path) of every REST operation lockin calls, the operation id in the comment.
OPERATIONS: list[tuple[str, str]] = [
    ("get", "/app"),  # apps/get-authenticated
    ("get", "/meta"),  # meta/get
    ("post", "/app-manifests/{code}/conversions"),  # apps/create-from-manifest
    ("post", "/app/installations/{installation_id}/access_tokens"),
    ("delete", "/applications/{client_id}/token"),  # apps/delete-token
    ("get", "/installation/repositories"),  # apps/list-repos-accessible-to-installation
    ("get", "/rate_limit"),  # rate-limit/get
    ("get", "/repos/{owner}/{repo}"),  # repos/get
    ("post", "/repos/{owner}/{repo}/check-runs"),  # checks/create
    ("get", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),  # checks/get
    ("patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),  # checks/update
    ("get", "/repos/{owner}/{repo}/collaborators/{username}/permission"),
    ("get", "/repos/{owner}/{repo}/commits"),  # repos/list-commits
    ("get", "/repos/{owner}/{repo}/commits/{ref}/check-runs"),  # checks/list-for-ref
    ("get", "/repos/{owner}/{repo}/compare/{basehead}"),  # repos/compare-commits-with-basehead
    ("get", "/repos/{owner}/{repo}/contents/{path}"),  # repos/get-content
    ("get", "/repos/{owner}/{repo}/git/blobs/{file_sha}"),  # git/get-blob
    ("get", "/repos/{owner}/{repo}/git/ref/{ref}"),  # git/get-ref
    ("get", "/repos/{owner}/{repo}/git/trees/{tree_sha}"),  # git/get-tree
    ("get", "/repos/{owner}/{repo}/issues"),  # issues/list-for-repo
    ("post", "/repos/{owner}/{repo}/issues"),  # issues/create
    ("delete", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),  # issues/delete-comment
    ("get", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),  # issues/get-comment
    ("patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),  # issues/update-comment
    ("post", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}"),  # issues/get
    ("patch", "/repos/{owner}/{repo}/issues/{issue_number}"),  # issues/update
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),  # issues/list-comments
    ("post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),  # issues/create-comment
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}"),  # pulls/get
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/commits"),  # pulls/list-commits
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/files"),  # pulls/list-files
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"),  # pulls/list-reviews
    ("get", "/repos/{owner}/{repo}/tarball/{ref}"),  # repos/download-tarball-archive
    ("get", "/user"),  # users/get-authenticated
    ("get", "/user/installations"),  # apps/list-installations-for-authenticated-user
    ("get", "/user/installations/{installation_id}/repositories"),
    ("get", "/users/{username}"),  # users/get-by-username
    ("get", "/orgs/{org}/teams/{team_slug}/members"),  # teams/list-members-in-org
    ("get", "/orgs/{org}/teams/{team_slug}/memberships/{username}"),
]

# Webhook events (and actions; None for all) whose real examples the tests send.
EVENTS: dict[str, set[str] | None] = {
    "check_run": None,
    "check_suite": None,
    "installation": None,
    "installation_repositories": None,
    "issue_comment": None,
    "issues": {"opened", "edited", "closed", "reopened", "deleted"},
    "ping": None,
    "pull_request": {"opened", "closed", "reopened", "synchronize", "ready_for_review"},
    "pull_request_review": {"submitted", "dismissed"},
    "push": None,
    "repository": None,
}

_PROSE = {"summary", "description", "externalDocs", "x-github", "examples", "example"}


def _strip(node: Any, *, field_names: bool = False) -> Any:
    """Drop prose and examples; the keys of a `properties` map are field names, kept as such."""
    if isinstance(node, list):
        return [_strip(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: _strip(value, field_names=key == "properties" and not field_names)
        for key, value in node.items()
        if field_names or key not in _PROSE
    }


def _with_empty_descriptions(responses: dict[str, Any]) -> None:
    for response in responses.values():
        if "$ref" not in response:
            response["description"] = ""


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            found.add(node["$ref"])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def cut(full: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    pending: set[str] = set()
    for method, path in OPERATIONS:
        operation = _strip(full["paths"][path][method])
        _with_empty_descriptions(operation.get("responses", {}))
        paths.setdefault(path, {})[method] = operation
        _refs(operation, pending)
    components: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    while pending:
        ref = pending.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, _, kind, name = ref.split("/")
        node = _strip(full["components"][kind][name])
        if kind == "responses":
            _with_empty_descriptions({name: node})
        components.setdefault(kind, {})[name] = node
        _refs(node, pending)
    info = dict(full["info"])
    info["x-subset-of"] = "@octokit/openapi generated/api.github.com.json"
    return {
        "components": components,
        "info": info,
        "openapi": full["openapi"],
        "paths": paths,
        "servers": full["servers"],
    }


def examples(index: list[dict[str, Any]]) -> dict[str, Any]:
    numbered: Counter[tuple[str, str]] = Counter()
    out: dict[str, Any] = {}
    for event in index:
        wanted = EVENTS.get(event["name"], set())
        for example in event["examples"]:
            action = example.get("action", "event")
            numbered[event["name"], action] += 1
            if wanted is None or action in wanted:
                out[f"{event['name']}.{action}.{numbered[event['name'], action]}.json"] = example
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("openapi", type=Path, help="the unpacked @octokit/openapi package")
    parser.add_argument("examples", type=Path, help="the unpacked @octokit/webhooks-examples")
    args = parser.parse_args()
    full = json.loads((args.openapi / "generated" / "api.github.com.json").read_text())
    subset = json.dumps(cut(full), sort_keys=True, indent=1)
    (HERE / "rest-api.subset.json").write_text(subset)
    folder = HERE / "webhook-examples"
    index = json.loads((args.examples / "api.github.com" / "index.json").read_text())
    for name, payload in examples(index).items():
        (folder / name).write_text(json.dumps(payload, sort_keys=True, indent=1))


if __name__ == "__main__":
    main()
