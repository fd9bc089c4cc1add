"""action.yml's interface and the documented example workflow agree: every input the
workflow passes and every output it reads exists, and every output the step sets is declared."""

from __future__ import annotations

import re
import textwrap

import yaml

from tests.action.runner import ACTION, ROOT
from tests.support.readme import blocks

WORKFLOW_PATH = ROOT / "examples" / "workflows" / "lockin.yml"
WORKFLOW = yaml.safe_load(WORKFLOW_PATH.read_text(encoding="utf-8"))
README_SECTION = "GitHub Action (no App to install)"


def readme_steps() -> list[dict]:
    """The workflow steps the README shows (the ones tests/action runs with its inputs)."""
    (block,) = blocks("yaml", README_SECTION)
    return yaml.safe_load(textwrap.dedent(block))


def _steps() -> list[dict]:
    (job,) = WORKFLOW["jobs"].values()
    return job["steps"]


def _step(uses: str) -> dict:
    (step,) = [s for s in _steps() if s.get("uses", "").split("@")[0].endswith(uses)]
    return step


def test_every_input_and_output_is_described() -> None:
    for name, spec in ACTION["inputs"].items():
        assert spec["description"].strip(), name
        assert "default" in spec, name
    for name, spec in ACTION["outputs"].items():
        assert spec["description"].strip(), name
        # Each output is the run step's output of the same name.
        assert spec["value"] == f"${{{{ steps.lockin.outputs.{name} }}}}"


def test_workflow_uses_the_action_with_declared_inputs_only() -> None:
    lockin = _step("/lockin")
    assert set(lockin.get("with", {})) <= set(ACTION["inputs"])
    assert lockin["with"]["enforcement"] in ("fail", "neutral")


def test_workflow_reads_declared_outputs_only() -> None:
    lockin_id = _step("/lockin")["id"]
    text = WORKFLOW_PATH.read_text(encoding="utf-8")
    read = set(re.findall(rf"steps\.{lockin_id}\.outputs\.([\w-]+)", text))
    assert read
    assert read <= set(ACTION["outputs"])


def test_workflow_uploads_the_sarif_and_fetches_history() -> None:
    upload = _step("github/codeql-action/upload-sarif")
    assert "steps.lockin.outputs.sarif" in upload["with"]["sarif_file"]
    assert "always()" in upload["if"]  # the SARIF of a failing gate is uploaded too
    assert WORKFLOW["permissions"]["security-events"] == "write"
    checkout = _step("actions/checkout")
    assert checkout["with"]["fetch-depth"] == 0
    # `on:` is parsed by YAML 1.1 as True; the events are the ones the action handles.
    assert set(WORKFLOW[True]) == {"pull_request", "pull_request_review", "merge_group", "push"}
    assert WORKFLOW["permissions"]["pull-requests"] == "read"  # reviews


def test_action_metadata_names_the_module_it_runs() -> None:
    (run_step,) = [s for s in ACTION["runs"]["steps"] if s.get("id") == "lockin"]
    assert "-m bot.action" in run_step["run"]
    assert (ROOT / "bot" / "action.py").is_file()


def test_readme_shows_the_example_workflows_steps() -> None:
    assert readme_steps() == _steps()
