"""lockin as a step of a GitHub Actions job (``python -m bot.action``; action.yml runs it).

On a ``pull_request`` (or ``pull_request_target``) event it runs ``lockin diff`` between the
pull request's base and head commits named in the event payload, deepening a shallow
checkout when they or their merge base are missing; on a ``merge_group`` (a merge queue's
commit) between the group's base and head; on a ``push`` it runs ``lockin scan``. With a
token (the ``github-token`` input, the job's GITHUB_TOKEN by default) it reads the pull
requests' reviews, so that a decision record the change adds counts once its owner approves
(bot/action_reviews.py); without one such a record awaits approval.
Either way it prints the report to the log, appends the Markdown report to the job summary,
writes SARIF for code scanning and sets the step's outputs. The step fails only when the
gate fails and the ``enforcement`` input is ``fail``.

Everything comes from the environment, as the runner sets it: ``GITHUB_*`` and
``RUNNER_TEMP``, and the action's inputs as ``INPUT_*`` (action.yml maps them, so no input
is ever pasted into a shell script). Errors are one line on stderr, exit status 2.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from bot.action_reviews import Reviews, ReviewsError
from bot.cli.common import UsageError, render_scan
from bot.cli.diff import diff_report
from bot.cli.entry import parse_args
from bot.cli.scan import TOP, scan_census
from bot.engine import RULES
from bot.engine.census import LOCKED_LAYERS
from bot.engine.delta import ChangeDelta
from bot.engine.model import LAYERS
from bot.github.refs import RepoRef, merge_group_pulls
from bot.policy.config import PolicyError
from bot.policy.decisions import find_links
from bot.render.sarif import tool_version
from bot.sources import SourceError
from bot.sources.git import GitRepo, run_git

PULL_REQUEST_EVENTS = ("pull_request", "pull_request_target", "pull_request_review")
MERGE_GROUP_EVENT = "merge_group"
ENFORCEMENTS = ("fail", "neutral")
LOG_FORMATS = ("text", "markdown", "json")
# Commits fetched per step when a shallow checkout lacks the pull request's history.
DEEPEN_BY = 100
DEEPEN_TRIES = 3
FETCH_HINT = "set `fetch-depth: 0` on actions/checkout"
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class ActionError(Exception):
    """A problem with the job's setup the user can fix; the message is one line."""


@dataclass(frozen=True)
class Inputs:
    event_name: str
    event_path: str
    repo: str  # the working directory: GITHUB_WORKSPACE joined with the input
    config: str  # path in the repository, read at the base commit
    log_format: str
    decisions: list[str]
    enforcement: str
    sarif: str
    sarif_on_push: bool  # a push's SARIF is every finding of the tree: only when asked
    summary: str | None  # GITHUB_STEP_SUMMARY
    outputs: str | None  # GITHUB_OUTPUT
    temp: str
    token: str = field(default="", repr=False)  # reads reviews; never in a repr or a log
    api_url: str = "https://api.github.com"
    repository: str = ""  # GITHUB_REPOSITORY: owner/name
    file_budget: str = ""  # --file-budget, checked by the command line; empty: its default

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Inputs:
        def need(name: str) -> str:
            value = env.get(name, "")
            if not value:
                raise ActionError(f"{name} is not set: run lockin's action inside a GitHub job")
            return value

        def choice(name: str, choices: tuple[str, ...]) -> str:
            value = env.get(f"INPUT_{name.upper()}") or choices[0]
            if value not in choices:
                raise ActionError(f"input {name}: {value!r} is not one of {', '.join(choices)}")
            return value

        temp = env.get("RUNNER_TEMP") or need("GITHUB_WORKSPACE")
        return cls(
            event_name=need("GITHUB_EVENT_NAME"),
            event_path=need("GITHUB_EVENT_PATH"),
            repo=os.path.join(need("GITHUB_WORKSPACE"), env.get("INPUT_WORKING_DIRECTORY") or "."),
            config=env.get("INPUT_CONFIG", "").strip(),
            log_format=choice("format", LOG_FORMATS),
            # One reference a line: a path may contain spaces.
            decisions=[r.strip() for r in env.get("INPUT_DECISIONS", "").splitlines() if r.strip()],
            enforcement=choice("enforcement", ENFORCEMENTS),
            sarif=env.get("INPUT_SARIF") or os.path.join(temp, "lockin.sarif"),
            sarif_on_push=choice("sarif_on_push", ("false", "true")) == "true",
            summary=env.get("GITHUB_STEP_SUMMARY") or None,
            outputs=env.get("GITHUB_OUTPUT") or None,
            temp=temp,
            token=env.get("INPUT_GITHUB_TOKEN", "").strip(),
            api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
            repository=env.get("GITHUB_REPOSITORY", ""),
            file_budget=env.get("INPUT_FILE_BUDGET", "").strip(),
        )


def load_event(path: str) -> dict:
    """The webhook payload the run was triggered by."""
    try:
        with open(path, encoding="utf-8") as f:
            event = json.load(f)
    except OSError as exc:
        raise ActionError(f"cannot read the event payload {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ActionError(f"the event payload {path} is not JSON: {exc}") from None
    if not isinstance(event, dict):
        raise ActionError(f"the event payload {path} is not a JSON object")
    return event


def pull_request_shas(event: Mapping) -> tuple[str, str]:
    """``pull_request.base.sha`` and ``pull_request.head.sha`` of a pull_request payload."""
    pull = event.get("pull_request")
    shas = []
    for side in ("base", "head"):
        sha = (pull.get(side) or {}).get("sha") if isinstance(pull, dict) else None
        if not isinstance(sha, str) or not _SHA.fullmatch(sha):
            raise ActionError(f"the event payload has no commit id at pull_request.{side}.sha")
        shas.append(sha)
    return shas[0], shas[1]


# -- history -------------------------------------------------------------------------------


def _git(repo: str, *args: str, ok: tuple[int, ...] = (0,)) -> str:
    return run_git(list(args), repo, ok=ok)


def _has_commit(repo: str, sha: str) -> bool:
    return bool(_git(repo, "rev-parse", "--verify", "--quiet", f"{sha}^{{commit}}", ok=(0, 1)))


def _is_shallow(repo: str) -> bool:
    return _git(repo, "rev-parse", "--is-shallow-repository").strip() == "true"


def _fetch(repo: str, *args: str) -> None:
    try:
        _git(repo, "fetch", "--no-tags", "--quiet", *args)
    except SourceError as exc:
        raise ActionError(
            f"the pull request's history is not in the checkout ({exc}); {FETCH_HINT}"
        ) from None


def ensure_history(repo: str, base: str, head: str, err: TextIO) -> None:
    """Make ``base``, ``head`` and their merge base present, fetching from ``origin``.

    actions/checkout fetches one commit by default: the base may be missing, and even when
    both ends are there the merge base may not be, which would count the default branch's
    own later changes as the pull request's. Deepen a few times, then fetch everything.
    """
    missing = [sha for sha in (base, head) if not _has_commit(repo, sha)]
    if missing:
        err.write(f"lockin: fetching {', '.join(s[:12] for s in missing)} from origin\n")
        depth = (f"--depth={DEEPEN_BY}",) if _is_shallow(repo) else ()
        _fetch(repo, *depth, "origin", *missing)
        for sha in missing:
            if not _has_commit(repo, sha):
                raise ActionError(f"commit {sha} is not in the checkout; {FETCH_HINT}")
    for attempt in range(DEEPEN_TRIES + 1):
        if not _is_shallow(repo) or _git(repo, "merge-base", base, head, ok=(0, 1)).strip():
            return
        err.write("lockin: deepening the shallow checkout to reach the merge base\n")
        if attempt < DEEPEN_TRIES:
            _fetch(repo, f"--deepen={DEEPEN_BY}", "origin", base, head)
        else:
            _fetch(repo, "--unshallow", "origin", base, head)


# -- figures -------------------------------------------------------------------------------


def nvidia_only_added(change: ChangeDelta) -> int:
    """Added lines in kernel and vendor-path ranges of rules that run on NVIDIA alone."""
    return sum(
        r.end_line - r.start_line + 1
        for f in change.files
        for r in f.added_ranges
        if r.layer in LOCKED_LAYERS and (rule := RULES.get(r.rule)) and rule.nvidia_only
    )


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.4f}" if whole else "0.0000"


# -- the two events ------------------------------------------------------------------------


@dataclass
class Result:
    log: str
    summary: str
    sarif: str
    outputs: dict[str, str | int]
    failed: bool


def pull_request(inputs: Inputs, event: Mapping, err: TextIO) -> Result:
    base, head = pull_request_shas(event)
    body = (event.get("pull_request") or {}).get("body")
    number = (event.get("pull_request") or {}).get("number")
    numbers = [number] if isinstance(number, int) else []
    links = find_links(body) if isinstance(body, str) else []
    labels = (_label(event, "base", base), _label(event, "head", head))
    return _diff(inputs, base, head, links, numbers, labels, err, base_ref=_base_ref(event, base))


def merge_group(inputs: Inputs, event: Mapping, err: TextIO) -> Result:
    """A merge queue's commit against its base: the decisions linked by the group's pull
    requests (their descriptions, with a token; their commits' trailers always)."""
    group = event.get("merge_group")
    shas = []
    for key in ("base_sha", "head_sha"):
        sha = group.get(key) if isinstance(group, dict) else None
        if not isinstance(sha, str) or not _SHA.fullmatch(sha):
            raise ActionError(f"the event payload has no commit id at merge_group.{key}")
        shas.append(sha)
    base, head = shas
    assert isinstance(group, dict)
    GitRepo(inputs.repo)
    ensure_history(inputs.repo, base, head, err)
    messages = GitRepo(inputs.repo).messages(base, head)
    numbers = merge_group_pulls(str(group.get("head_ref") or ""), messages)
    reviews = _reviews(inputs, base, head)
    links = find_links(*reviews.descriptions(numbers)) if reviews else []
    # Nobody runs a merge queue's commit locally: the fix names the base commit itself.
    return _diff(inputs, base, head, links, numbers, (base[:12], head[:12]), err, base_ref=base)


def _reviews(inputs: Inputs, base: str, head: str) -> Reviews | None:
    if not (inputs.token and inputs.repository):
        return None
    try:
        repo = RepoRef.parse(inputs.repository)
    except ValueError as exc:
        raise ActionError(f"GITHUB_REPOSITORY: {exc}") from None
    return Reviews(inputs.token, inputs.api_url, repo, GitRepo(inputs.repo), head, base)


def _diff(
    inputs: Inputs,
    base: str,
    head: str,
    links: list[str],
    numbers: list[int],
    labels: tuple[str, str],
    err: TextIO,
    *,
    base_ref: str,
) -> Result:
    GitRepo(inputs.repo)  # a clear error when the working directory is no repository
    ensure_history(inputs.repo, base, head, err)
    argv = ["diff", base, head, "--repo", inputs.repo, *_budget(inputs)]
    # The command the summary gives to write the drafted record: the same diff, run in the
    # developer's checkout of the pull request's branch.
    local = ["diff", base_ref, "HEAD"]
    if inputs.config:
        argv += ["--config", _config_at(inputs, base)]
        local += ["--config", inputs.config]
    for ref in dict.fromkeys([*inputs.decisions, *links]):
        argv += ["--decision", ref]
        local += ["--decision", ref]
    reviews = _reviews(inputs, base, head)
    reviewer = reviews.reviewer(numbers) if reviews else None
    report = replace(
        diff_report(parse_args(argv), err, reviewer=reviewer, fix_argv=local),
        base=labels[0],
        head=labels[1],
    )
    err.write(f"lockin: {report.summary['conclusion']}: {report.summary['summary']}\n")
    added = report.delta.added()
    code_lines = sum(added.values())
    nvidia = nvidia_only_added(report.delta)
    outputs: dict[str, str | int] = {
        "verdict": report.summary["conclusion"],
        "gated-lines": report.summary["gated_lines"],
        **{f"added-{layer.value}": added[layer] for layer in LAYERS},
        "nvidia-only-lines": nvidia,
        "nvidia-only-share": _share(nvidia, code_lines),
    }
    return Result(
        log=report.render(inputs.log_format, pretty=True),
        summary=report.render("markdown", pretty=True),
        sarif=report.render("sarif", pretty=False),
        outputs=outputs,
        failed=report.failed,
    )


def _budget(inputs: Inputs) -> list[str]:
    return ["--file-budget", inputs.file_budget] if inputs.file_budget else []


def _base_ref(event: Mapping, sha: str) -> str:
    """The base branch as a developer's clone names it (``origin/main``), else its commit."""
    ref = ((event.get("pull_request") or {}).get("base") or {}).get("ref")
    return f"origin/{ref}" if isinstance(ref, str) and ref else sha


def _label(event: Mapping, side: str, sha: str) -> str:
    """How the report names one end: the branch and the short commit id."""
    ref = ((event.get("pull_request") or {}).get(side) or {}).get("ref")
    return f"{ref} @ {sha[:12]}" if isinstance(ref, str) and ref else sha[:12]


def _config_at(inputs: Inputs, base: str) -> str:
    """The ``config`` input read at the base commit (never the pull request's version of
    it, which its author controls), copied to a file for ``lockin diff --config``."""
    data = GitRepo(inputs.repo).read_file(base, inputs.config)
    if data is None:
        raise ActionError(f"config {inputs.config} does not exist at the base commit {base[:12]}")
    folder = Path(inputs.temp, "lockin-base-config")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / Path(inputs.config).name
    path.write_bytes(data)
    return str(path)


def push(inputs: Inputs, err: TextIO) -> Result:
    config = ["--config", os.path.join(inputs.repo, inputs.config)] if inputs.config else []
    argv = ["scan", inputs.repo, *config, "--top", str(TOP), *_budget(inputs)]
    args = parse_args(argv)
    census = scan_census(args, err)
    totals = census.totals

    def render(fmt: str) -> str:
        return render_scan(census, fmt, inputs.repo, args.top, pretty=fmt != "sarif")

    outputs: dict[str, str | int] = {
        "verdict": "",
        **{f"lines-{layer.value}": totals.layers.get(layer, 0) for layer in LAYERS},
        "nvidia-only-lines": census.locked_to_nvidia(),
        "nvidia-only-share": f"{census.nvidia_share():.4f}",
    }
    return Result(render(inputs.log_format), render("markdown"), render("sarif"), outputs, False)


# -- entry point ---------------------------------------------------------------------------


def _append(path: str | None, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)


def run(env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    inputs = Inputs.from_environ(env)
    event = load_event(inputs.event_path)
    if inputs.event_name in PULL_REQUEST_EVENTS:
        result = pull_request(inputs, event, err)
    elif inputs.event_name == MERGE_GROUP_EVENT:
        result = merge_group(inputs, event, err)
    elif inputs.event_name == "push":
        result = push(inputs, err)
    else:
        raise ActionError(
            f"lockin runs on pull_request, merge_group and push events, not on {inputs.event_name}"
        )
    out.write(result.log)
    _append(inputs.summary, result.summary.rstrip("\n") + "\n\n")
    # A pull request's SARIF holds only what it adds; a push's holds every finding of the
    # tree (thousands of code-scanning alerts on a large repository), so only when asked.
    sarif = inputs.event_name in PULL_REQUEST_EVENTS or inputs.sarif_on_push
    if sarif:
        Path(inputs.sarif).parent.mkdir(parents=True, exist_ok=True)
        Path(inputs.sarif).write_text(result.sarif, encoding="utf-8")
    outputs = {**result.outputs, "sarif": inputs.sarif if sarif else ""}
    outputs["version"] = tool_version()
    _append(inputs.outputs, "".join(f"{name}={value}\n" for name, value in outputs.items()))
    if result.failed and inputs.enforcement == "fail":
        return 1
    return 0


def main(
    environ: Mapping[str, str] | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        return run(os.environ if environ is None else environ, out, err)
    except (ActionError, ReviewsError, UsageError, SourceError, PolicyError) as exc:
        err.write(f"lockin: error: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
