"""action.yml run as a runner runs it: GitHub's own pull_request and push payloads pointed at
a temporary repository, the job summary, the step outputs, the SARIF file and the exit status
for passing and failing changes, shallow checkouts, and one-line errors."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from bot.cli import main
from tests.action.runner import ACTION, ActionRun, run_action
from tests.action.test_workflow import readme_steps
from tests.cli.gitrepo import commit, git, init
from tests.cli.test_cli import BASE_FILES, KERNEL, POLICY, RECORD, SARIF_SCHEMA

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "contract" / "webhook-examples"
# The install step is skipped: the tests' own Python already has lockin (the wheel test runs
# the install step for real).
OWN_PYTHON = {"LOCKIN_PYTHON": sys.executable}
# The inputs the README's workflow passes.
(README_INPUTS,) = [s.get("with", {}) for s in readme_steps() if s.get("id") == "lockin"]


class Upstream:
    """A repository with a default branch and pull request branches, and its clone."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.origin = init(tmp_path / "origin")
        self.base = commit(self.origin, BASE_FILES, "base")

    def branch(
        self, name: str, files: dict[str, str | bytes | None], message: str = "change"
    ) -> str:
        git(self.origin, "checkout", "-q", "-b", name, self.base)
        head = commit(self.origin, files, message)
        git(self.origin, "checkout", "-q", "main")
        return head

    def advance_main(self) -> str:
        """The default branch moves on after the branches left it (as it does)."""
        git(self.origin, "checkout", "-q", "main")
        self.base = commit(self.origin, {"later.py": "print('later')\n"}, "later on main")
        return self.base

    def clone(self, *options: str) -> Path:
        target = self.tmp / f"workspace{len(list(self.tmp.glob('workspace*')))}"
        git(self.tmp, "clone", "-q", *options, f"file://{self.origin}", str(target))
        return target


def pull_request_event(
    tmp: Path, base: str, head: str, body: str | None = None, base_ref: str | None = None
) -> Path:
    payload = json.loads((EXAMPLES / "pull_request.opened.1.json").read_text(encoding="utf-8"))
    payload["pull_request"]["base"]["sha"] = base
    if base_ref is not None:
        payload["pull_request"]["base"]["ref"] = base_ref
    payload["pull_request"]["head"]["sha"] = head
    if body is not None:
        payload["pull_request"]["body"] = body
    path = tmp / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def run_pr(
    upstream: Upstream,
    head: str,
    workspace: Path | None = None,
    body: str | None = None,
    base_ref: str | None = None,
    **inputs: str,
) -> ActionRun:
    temp = upstream.tmp / "runner-temp"
    temp.mkdir(exist_ok=True)
    return run_action(
        workspace=workspace or upstream.clone(),
        temp=temp,
        event_name="pull_request",
        event_path=pull_request_event(upstream.tmp, upstream.base, head, body, base_ref),
        inputs=inputs,
        environ=OWN_PYTHON,
    )


def sarif_results(run: ActionRun) -> list[dict]:
    log = json.loads(Path(run.outputs["sarif"]).read_text(encoding="utf-8"))
    Draft4Validator(SARIF_SCHEMA).validate(log)
    return log["runs"][0]["results"]


def sarif_uris(run: ActionRun) -> set[str]:
    return {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif_results(run)
    }


def assert_one_line_error(run: ActionRun, text: str) -> None:
    """One error line, last; before it at most lockin's progress lines (fetching)."""
    assert run.code == 2
    lines = run.stderr.splitlines()
    assert lines[-1].startswith("lockin: error: "), run.stderr
    assert text in lines[-1]
    assert all(line.startswith("lockin: ") and "error" not in line for line in lines[:-1])


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    return Upstream(tmp_path)


def test_kernel_without_a_decision_fails_the_step_with_summary_outputs_and_sarif(
    upstream: Upstream,
) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    run = run_pr(upstream, head, **README_INPUTS)
    assert run.code == 1, run.stderr
    assert run.outputs["verdict"] == "failure"
    assert int(run.outputs["added-kernel"]) > 0
    assert int(run.outputs["added-vendor-path"]) > 0
    assert int(run.outputs["gated-lines"]) == (
        int(run.outputs["added-kernel"]) + int(run.outputs["added-vendor-path"])
    )
    assert run.outputs["added-vendor-library"] == "0"
    # Every added line of the file is CUDA, on NVIDIA alone.
    assert int(run.outputs["nvidia-only-lines"]) > 0
    assert 0 < float(run.outputs["nvidia-only-share"]) <= 1
    event = json.loads((EXAMPLES / "pull_request.opened.1.json").read_text(encoding="utf-8"))
    base_ref, head_ref = (event["pull_request"][side]["ref"] for side in ("base", "head"))
    title = f"## lockin diff `{base_ref} @ {upstream.base[:12]}` → `{head_ref} @ {head[:12]}`"
    assert run.summary.startswith(title + "\n")
    assert "**failure**" in run.summary
    assert "`ops/new.cu`" in run.summary
    assert "ops/new.cu" in run.stdout  # the text report in the log
    assert "lockin: failure:" in run.stderr
    assert sarif_uris(run) == {"ops/new.cu"}
    # Every output the step sets is one action.yml declares, and the pull request's are set.
    assert set(run.steps["lockin"]) <= set(ACTION["outputs"])
    assert all(run.outputs[name] for name in ACTION["outputs"] if not name.startswith("lines-"))


def test_failing_summary_gives_the_fix_and_its_command_writes_a_record_that_passes(
    upstream: Upstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    run = run_pr(upstream, head, base_ref="main")
    assert run.code == 1, run.stderr
    record = "docs/decisions/compute-api-ops.md"
    command = f"lockin diff origin/main HEAD --write-record {record}"
    blocks = run.summary.split("\n\n")
    assert blocks[1].startswith("**failure**")
    assert blocks[2].startswith("**How to fix**")
    assert f"```\n   {command}\n   ```" in run.summary
    assert f"Compute-API-Decision: {record}" in run.summary
    assert command in run.stdout  # the log's text report says the same

    # A developer runs the command in a clone of the pull request's branch ...
    clone = upstream.clone()
    git(clone, "checkout", "-q", "-b", "ops", "origin/ops")
    monkeypatch.chdir(clone)
    out, err = io.StringIO(), io.StringIO()
    assert main(shlex.split(command)[1:], out=out, err=err) == 0, err.getvalue()
    draft = (clone / record).read_text(encoding="utf-8")
    assert "status: proposed" in draft
    # ... fills it in, pushes it and links it: the step passes.
    filled = draft.replace("status: proposed", "status: accepted").replace(
        "owner:  #", 'owner: "@ops-team"  #'
    )
    (clone / record).write_text(filled, encoding="utf-8")
    git(clone, "add", record)
    git(clone, "commit", "-q", "-m", "record the decision")
    git(clone, "push", "-q", "origin", "ops")
    fixed_head = git(clone, "rev-parse", "HEAD")
    linked = run_pr(upstream, fixed_head, body=f"Compute-API-Decision: {record}\n")
    # A record the pull request adds counts once its owner approves; this run has no token
    # to read reviews with, so it says whose approval it awaits.
    assert (linked.code, linked.outputs["verdict"]) == (1, "failure"), linked.stderr
    assert "awaiting an approving review from @ops-team" in linked.stderr
    # Approved and merged, the record is on the base: the same head passes.
    git(clone, "checkout", "-q", "-b", "land", "origin/main")
    git(clone, "checkout", "ops", "--", record)
    git(clone, "commit", "-q", "-m", "land the decision")
    git(clone, "push", "-q", "origin", "land")  # as if merged to main
    landed = git(clone, "rev-parse", "HEAD")
    fixed = run_action(
        workspace=upstream.clone(),
        temp=upstream.tmp / "runner-temp",
        event_name="pull_request",
        event_path=pull_request_event(upstream.tmp, landed, fixed_head, None, "main"),
        inputs={},
        environ=OWN_PYTHON,
    )
    assert (fixed.code, fixed.outputs["verdict"]) == (0, "success"), fixed.stderr
    # The job summary is the runner's one file, appended to: this run's report is the last.
    assert "How to fix" not in fixed.summary.split("## lockin diff")[-1]


def test_kernel_inside_a_recorded_scope_passes(upstream: Upstream) -> None:
    head = upstream.branch("csrc", {"csrc/new.cu": KERNEL})
    run = run_pr(upstream, head)
    assert run.code == 0, run.stderr
    assert run.outputs["verdict"] == "success"
    assert int(run.outputs["added-kernel"]) > 0
    assert "docs/decisions/0001-csrc.md" in run.summary
    # Findings go to code scanning whether or not a decision covers them.
    assert sarif_uris(run) == {"csrc/new.cu"}


def test_portable_change_passes_with_empty_sarif(upstream: Upstream) -> None:
    head = upstream.branch("docs", {"model.py": "import torch\n\nx = torch.zeros(3)\n"})
    run = run_pr(upstream, head)
    assert run.code == 0, run.stderr
    assert run.outputs["verdict"] == "success"
    assert run.outputs["gated-lines"] == "0"
    assert run.outputs["nvidia-only-share"] == "0.0000"
    assert sarif_results(run) == []


def test_neutral_enforcement_reports_the_failure_without_failing_the_step(
    upstream: Upstream,
) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    run = run_pr(upstream, head, enforcement="neutral")
    assert run.code == 0, run.stderr
    assert run.outputs["verdict"] == "failure"
    assert "**failure**" in run.summary


def test_decision_linked_from_the_description_or_the_input_is_judged(
    upstream: Upstream,
) -> None:
    # Added by the pull request, and no token to read its reviews: it awaits approval
    # (tests/action/test_action_reviews.py reads them from the fake GitHub).
    record = "docs/decisions/0002-ops.md"
    head = upstream.branch("ops", {"ops/new.cu": KERNEL, record: RECORD.format(scope="ops/**")})
    linked = run_pr(upstream, head, body=f"Adds a kernel.\n\nCompute-API-Decision: {record}\n")
    assert (linked.code, linked.outputs["verdict"]) == (1, "failure"), linked.stderr
    assert "awaiting an approving review from" in linked.summary
    assert record in linked.summary
    given = run_pr(upstream, head, decisions=record)
    assert "awaiting an approving review from" in given.summary
    # A record on the base counts as it is, linked or by scope.
    on_base = run_pr(
        upstream,
        upstream.branch("csrc", {"csrc/new.cu": KERNEL}),
        decisions="docs/decisions/0001-csrc.md",
    )
    assert (on_base.code, on_base.outputs["verdict"]) == (0, "success"), on_base.stderr


def test_config_input_is_read_at_the_base_not_from_the_pull_request(upstream: Upstream) -> None:
    loose = "layers: [kernel, vendor-path]\nallowance: 1000\n"
    upstream.base = commit(upstream.origin, {"ci/loose.yml": loose, "ci/strict.yml": POLICY})
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    # The input names the policy: the default .github/lockin.yml would fail this change.
    assert run_pr(upstream, head).outputs["verdict"] == "failure"
    assert run_pr(upstream, head, config="ci/loose.yml").outputs["verdict"] == "success"
    # A pull request that loosens the named file does not loosen its own gate.
    hostile = upstream.branch("hostile", {"ci/strict.yml": loose, "ops/new.cu": KERNEL})
    assert run_pr(upstream, hostile, config="ci/strict.yml").outputs["verdict"] == "failure"
    missing = run_pr(upstream, head, config="nope/lockin.yml")
    assert_one_line_error(missing, "config nope/lockin.yml does not exist at the base commit")


def test_shallow_checkout_is_deepened_to_the_merge_base(upstream: Upstream) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    upstream.advance_main()
    full = run_pr(upstream, head)
    # What actions/checkout gives by default: one commit, and not the base.
    shallow = upstream.clone("--depth=1", "--branch=ops")
    assert git(shallow, "rev-parse", "--is-shallow-repository") == "true"
    run = run_pr(upstream, head, workspace=shallow)
    assert run.code == 1, run.stderr
    assert "fetching" in run.stderr
    # Only the pull request's own change: the default branch's later file is not in it.
    assert run.outputs == {**full.outputs, "sarif": run.outputs["sarif"]}
    assert "later.py" not in run.summary
    assert git(shallow, "merge-base", upstream.base, head)


def test_missing_base_that_cannot_be_fetched_says_what_to_set(upstream: Upstream) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    upstream.base = "1" * 40
    run = run_pr(upstream, head, workspace=upstream.clone("--depth=1", "--branch=ops"))
    assert_one_line_error(run, "set `fetch-depth: 0` on actions/checkout")
    assert run.summary == ""


@pytest.mark.parametrize(
    ("payload", "text"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "is not a JSON object"),
        ('{"pull_request": {"base": {}}}', "no commit id at pull_request.base.sha"),
        ('{"pull_request": {"base": {"sha": "$(reboot)"}}}', "pull_request.base.sha"),
    ],
)
def test_malformed_event_payload_is_a_one_line_error(
    payload: str, text: str, upstream: Upstream
) -> None:
    event = upstream.tmp / "event.json"
    event.write_text(payload, encoding="utf-8")
    run = run_action(
        workspace=upstream.clone(),
        temp=upstream.tmp,
        event_name="pull_request",
        event_path=event,
        environ=OWN_PYTHON,
    )
    assert_one_line_error(run, text)


def test_unsupported_event_and_bad_inputs_are_one_line_errors(upstream: Upstream) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    run = run_pr(upstream, head, enforcement="strict")
    assert_one_line_error(run, "input enforcement: 'strict' is not one of fail, neutral")
    other = run_action(
        workspace=upstream.clone(),
        temp=upstream.tmp,
        event_name="issues",
        event_path=pull_request_event(upstream.tmp, upstream.base, head),
        environ=OWN_PYTHON,
    )
    assert_one_line_error(other, "not on issues")


def test_push_scans_the_checkout_and_summarises(upstream: Upstream) -> None:
    commit(upstream.origin, {"csrc/k.cu": KERNEL}, "a kernel on main")
    workspace = upstream.clone()
    event = upstream.tmp / "push.json"
    event.write_text((EXAMPLES / "push.event.1.json").read_text(encoding="utf-8"))
    run = run_action(
        workspace=workspace,
        temp=upstream.tmp,
        event_name="push",
        event_path=event,
        inputs={"format": "json"},
        environ=OWN_PYTHON,
    )
    assert run.code == 0, run.stderr
    assert run.summary.startswith("## lockin census")
    document = json.loads(run.stdout)
    assert document["schema"] == "lockin.scan/1"
    assert int(run.outputs["nvidia-only-lines"]) == document["totals"]["nvidia_locked_lines"]
    assert float(run.outputs["nvidia-only-share"]) == pytest.approx(
        document["totals"]["nvidia_share"], abs=1e-4
    )
    assert run.outputs["verdict"] == ""
    assert run.steps["lockin"]["lines-kernel"] == str(document["totals"]["layers"]["kernel"])
    # Every finding of the tree would open thousands of alerts on a large repository: a
    # push writes SARIF only when asked.
    assert run.outputs["sarif"] == ""
    assert not (upstream.tmp / "lockin.sarif").exists()
    assert set(run.steps["lockin"]) <= set(ACTION["outputs"])
    asked = run_action(
        workspace=workspace,
        temp=upstream.tmp,
        event_name="push",
        event_path=event,
        inputs={"sarif-on-push": "true"},
        environ=OWN_PYTHON,
    )
    assert asked.code == 0, asked.stderr
    assert sarif_uris(asked) == {"csrc/old.cu", "csrc/k.cu"}


def test_working_directory_input_names_the_checkout_inside_the_workspace(
    upstream: Upstream,
) -> None:
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    workspace = upstream.tmp / "workspace-root"
    workspace.mkdir()
    upstream.clone().rename(workspace / "lockin-checkout")
    temp = upstream.tmp / "runner-temp"
    temp.mkdir()
    run = run_action(
        workspace=workspace,
        temp=temp,
        event_name="pull_request",
        event_path=pull_request_event(upstream.tmp, upstream.base, head),
        inputs={"working-directory": "lockin-checkout", "format": "markdown"},
        environ=OWN_PYTHON,
    )
    assert (run.code, run.outputs["verdict"]) == (1, "failure"), run.stderr
    assert run.stdout == run.summary.rstrip("\n") + "\n"  # the log in the format asked for
    wrong = run_action(
        workspace=workspace,
        temp=temp,
        event_name="pull_request",
        event_path=pull_request_event(upstream.tmp, upstream.base, head),
        environ=OWN_PYTHON,
    )
    assert_one_line_error(wrong, "not a git repository")


def test_a_file_over_the_file_budget_input_is_not_counted_and_fails_the_step(
    upstream: Upstream,
) -> None:
    # Portable Python, about a megabyte: counted it passes; far over a budget of 1 ms of CPU.
    slow = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(32_000))
    head = upstream.branch("slow", {"slow.py": slow})
    run = run_pr(upstream, head, **{"file-budget": "0.001"})
    assert run.code == 1, run.stderr
    assert run.outputs["verdict"] == "failure"
    assert "`slow.py`" in run.summary
    assert "not counted, over budget" in run.summary
    assert run_pr(upstream, head, **{"file-budget": "0"}).outputs["verdict"] == "success"
