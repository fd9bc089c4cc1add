"""Check runs: create, update (annotations appended), get, list for a ref."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..state import CheckRun, iso
from .common import Call, handles, not_found, reply, repo_of, validation_failed

if TYPE_CHECKING:
    from ..server import FakeGitHub

MAX_OUTPUT_BYTES = 65_535


def _apply_check_run_fields(run: CheckRun, fields: dict[str, Any]) -> web.Response | None:
    """Apply create/update fields as GitHub does; return a 422 when GitHub would refuse them."""
    output = fields.get("output") or {}
    for field in ("summary", "text"):
        # GitHub documents 65,535 characters but counts UTF-8 bytes.
        if len(str(output.get(field) or "").encode()) > MAX_OUTPUT_BYTES:
            message = f"{field} exceeds a maximum bytesize of {MAX_OUTPUT_BYTES}"
            return validation_failed("CheckRun", field, message)
    for name in ("name", "details_url", "external_id", "started_at", "completed_at"):
        if name in fields:
            setattr(run, name, fields[name])
    if "actions" in fields:
        run.actions = list(fields["actions"])
    if "conclusion" in fields:
        run.conclusion = fields["conclusion"]
        run.status = "completed"  # a conclusion completes the run, as on GitHub
    elif "status" in fields:
        run.status = fields["status"]
    if run.status == "completed" and run.conclusion is None:
        return validation_failed("CheckRun", "conclusion", "Conclusion required if completed")
    if run.status == "completed" and run.completed_at is None:
        run.completed_at = iso(time.time())
    if output:
        run.output |= {k: output[k] for k in ("title", "summary", "text") if k in output}
        run.annotations.extend(output.get("annotations", []))  # appended, never replaced
    run.history.append(run.snapshot())
    return None


@handles("checks/create")
async def create_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    head_sha = call.json["head_sha"]
    if head_sha not in repo.store.commits:
        return validation_failed("CheckRun", "head_sha", f"No commit found for SHA: {head_sha}")
    run = CheckRun(
        id=repo.next_check_run_id(),
        name=call.json["name"],
        head_sha=head_sha,
        status="queued",
        conclusion=None,
        started_at=iso(time.time()),
        completed_at=None,
        external_id="",
        details_url=None,
        output={},
        annotations=[],
        actions=[],
        suite_id=repo.suite_id(head_sha),
    )
    if rejected := _apply_check_run_fields(run, call.json):
        return rejected
    repo.check_runs[run.id] = run
    return reply(fake.shapes.check_run(repo, run), 201)


@handles("checks/get")
async def get_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    run = repo.check_runs.get(int(call.params["check_run_id"]))
    return reply(fake.shapes.check_run(repo, run)) if run else not_found()


@handles("checks/update")
async def update_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    run = repo.check_runs.get(int(call.params["check_run_id"]))
    if run is None:
        return not_found()
    if rejected := _apply_check_run_fields(run, call.json):
        return rejected
    return reply(fake.shapes.check_run(repo, run))


@handles("checks/list-for-ref")
async def list_check_runs(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    sha = repo.resolve(call.params["ref"])
    if sha is None:
        return validation_failed("Commit", "ref", f"No commit found for SHA: {call.params['ref']}")
    runs = sorted((r for r in repo.check_runs.values() if r.head_sha == sha), key=lambda r: -r.id)
    query = call.query
    if "check_name" in query:
        runs = [r for r in runs if r.name == query["check_name"]]
    if "status" in query:
        runs = [r for r in runs if r.status == query["status"]]
    if "app_id" in query and int(query["app_id"]) != fake.app_id:
        runs = []
    if query.get("filter", "latest") == "latest":
        latest: dict[str, CheckRun] = {}
        for run in runs:
            latest.setdefault(run.name, run)
        runs = list(latest.values())
    page, links = call.page(runs)
    body = {"total_count": len(runs), "check_runs": [fake.shapes.check_run(repo, r) for r in page]}
    return reply(body, headers=links)
