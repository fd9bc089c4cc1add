"""Run a composite action's steps as the GitHub runner does, without GitHub.

The runner evaluates the `${{ ... }}` expressions of each step's `env:` (only the few forms
lockin's action.yml uses: `inputs.NAME`, `github.NAME`, `steps.ID.outputs.NAME`; anything else
fails the test, so the action cannot start relying on one silently), runs actions/cache
against a folder standing for the cache service, runs each other step's script
with `bash --noprofile --norc -eo pipefail FILE` in GITHUB_WORKSPACE, gives each step its own
GITHUB_OUTPUT file and reads it back, stops at the first failing step, and evaluates the
action's outputs from the steps' outputs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
# What a runner's job environment holds besides the GITHUB_* variables.
PASSED_THROUGH = (
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL",
)


def evaluate(text: str, context: Mapping[str, Any]) -> str:
    def one(match: re.Match[str]) -> str:
        value: Any = context
        path = match.group(1).split(".")
        for part in path:
            assert isinstance(value, Mapping), f"unsupported expression {match.group(0)}"
            # A step's output it never set is empty, as on GitHub; anything else is unknown.
            if path[0] == "steps" and len(path) == 4 and part == path[-1]:
                return str(value.get(part, ""))
            assert part in value, f"unsupported expression {match.group(0)}"
            value = value[part]
        return str(value)

    return EXPRESSION.sub(one, text)


CONDITION = re.compile(r"^(?P<left>[\w.-]+)\s*(?P<op>==|!=)\s*'(?P<right>[^']*)'$")


def condition(text: str, context: Mapping[str, Any]) -> bool:
    """A step's `if:`, in the one form action.yml uses: `steps.ID.outputs.NAME != ''`."""
    match = CONDITION.match(text.strip())
    assert match, f"unsupported condition {text!r}"
    left = evaluate("${{ " + match["left"] + " }}", context)
    return (left == match["right"]) == (match["op"] == "==")


class Cache:
    """The Actions cache service on a folder: a saved copy per key."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def restore(self, path: Path, key: str) -> bool:
        saved = self.root / key
        if not saved.is_dir():
            return False
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(saved, path, symlinks=True)
        return True

    def save(self, path: Path, key: str) -> None:
        if path.is_dir() and not (self.root / key).exists():
            shutil.copytree(path, self.root / key, symlinks=True)


def read_outputs(path: Path) -> dict[str, str]:
    """A GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks."""
    outputs: dict[str, str] = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            for inner in lines:
                if inner == delimiter:
                    break
                block.append(inner)
            outputs[name] = "\n".join(block)
        elif line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


@dataclass
class ActionRun:
    code: int  # exit status of the first failing step, else 0
    outputs: dict[str, str]
    summary: str
    stdout: str
    stderr: str
    steps: dict[str, dict[str, str]]
    seconds: dict[str, float]  # wall-clock time per step, for the record (never asserted)


def run_action(
    *,
    workspace: Path,
    temp: Path,
    event_name: str,
    event_path: Path,
    inputs: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    action: Mapping[str, Any] = ACTION,
    action_path: Path = ROOT,
    action_ref: str = "main",
    action_repository: str = "lockin-dev/lockin",
    cache: Cache | None = None,
) -> ActionRun:
    declared = action["inputs"]
    unknown = set(inputs or {}) - set(declared)
    assert not unknown, f"inputs not declared in action.yml: {unknown}"
    context: dict[str, Any] = {
        "inputs": {},
        "github": {
            "action_path": str(action_path),
            "action_ref": action_ref,
            # The job's GITHUB_TOKEN: none unless the test gives one.
            "token": (environ or {}).get("GITHUB_TOKEN", ""),
        },
        "steps": {},
    }
    # Input defaults are expressions too (`${{ github.token }}`).
    defaults = {
        name: evaluate(str(spec.get("default", "")), context) for name, spec in declared.items()
    }
    given = defaults | dict(inputs or {})
    context["inputs"] = given
    summary = temp / "step_summary.md"
    summary.touch()
    job_env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
    job_env |= {
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_ACTION_PATH": str(action_path),
        "RUNNER_TEMP": str(temp),
        **(environ or {}),
    }
    context: dict[str, Any] = {
        "inputs": given,
        "github": {
            "action_path": str(action_path),
            "action_ref": action_ref,
            "action_repository": action_repository,
        },
        "steps": {},
    }
    stdout, stderr, code = [], [], 0
    assert action["runs"]["using"] == "composite"
    seconds: dict[str, float] = {}
    for number, step in enumerate(action["runs"]["steps"]):
        started = time.monotonic()
        name = step.get("id", f"step{number}")
        if "if" in step and not condition(step["if"], context):
            continue
        if "uses" in step:
            # actions/cache/restore and actions/cache/save, on the test's cache folder.
            uses = step["uses"].split("@")[0]
            assert uses in ("actions/cache/restore", "actions/cache/save"), step["uses"]
            path = Path(evaluate(step["with"]["path"], context))
            key = evaluate(step["with"]["key"], context)
            outputs = {}
            if uses.endswith("restore"):
                hit = cache.restore(path, key) if cache else False
                outputs = {"cache-hit": str(hit).lower()}
            elif cache:
                cache.save(path, key)
            context["steps"][name] = {"outputs": outputs}
            seconds[name] = time.monotonic() - started
            continue
        assert step["shell"] == "bash"
        # Scripts read only environment variables: an input pasted into a script could
        # inject shell code.
        assert "${{" not in step["run"], step["run"]
        script = temp / f"step-{number}.sh"
        script.write_text(step["run"], encoding="utf-8")
        output = temp / f"step-{number}.output"
        output.touch()
        env = job_env | {k: evaluate(str(v), context) for k, v in step.get("env", {}).items()}
        env["GITHUB_OUTPUT"] = str(output)
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
        )
        stdout.append(proc.stdout)
        stderr.append(proc.stderr)
        context["steps"][name] = {"outputs": read_outputs(output)}
        seconds[name] = time.monotonic() - started
        if proc.returncode:
            code = proc.returncode
            break
    # Evaluated after a failing step too (the runner does): the SARIF of a failing gate
    # is still uploaded by a later `if: always()` step.
    outputs = {name: evaluate(spec["value"], context) for name, spec in action["outputs"].items()}
    return ActionRun(
        code,
        outputs,
        summary.read_text(encoding="utf-8"),
        "".join(stdout),
        "".join(stderr),
        {name: step["outputs"] for name, step in context["steps"].items()},
        seconds,
    )
