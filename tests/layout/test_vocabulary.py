"""One vocabulary and one order: every output names each target one way (`google`, never
`tpu`) and lists targets, layers and effort grades in the engine's order — the CLI's text,
Markdown and JSON for scan and plan, the JSON schemas, the Action's outputs, the dashboard
issue and what the organisation pages keep of a plan."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main
from bot.engine.effort import GRADES
from bot.engine.model import LAYERS, NON_PORTABLE, TARGETS
from bot.render.dashboard import dashboard_body
from bot.render.json_out import load_schema
from bot.render.org_summary import org_summary
from bot.server.orgs.figures import totals
from bot.store.records import OrgRow

ROOT = Path(__file__).resolve().parents[2]
TARGET_WORD = re.compile(r"\b(amd|intel|apple|google|tpu)\b")
LAYER_NAMES = [layer.value for layer in LAYERS]


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out=out, err=io.StringIO()) in (0, 1)
    return out.getvalue()


def in_order(found: list[str], order: tuple[str, ...] | list[str]) -> list[str]:
    """``found`` with repeats removed, to compare with the canonical order."""
    return list(dict.fromkeys(x for x in found if x in order))


def targets_in(lines: list[str]) -> list[str]:
    """The target each line starts with (table rows), in order."""
    out = []
    for line in lines:
        cells = line.strip().strip("|").split()
        if cells and (m := TARGET_WORD.fullmatch(cells[0])):
            out.append(m.group(1))
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("vocab") / "repo"
    shutil.copytree(ROOT / "examples" / "repo", target)
    return target


def test_schemas_list_targets_layers_and_grades_in_one_order() -> None:
    scan, history, plan = load_schema("scan"), load_schema("history"), load_schema("plan")
    for schema in (scan, history):
        text = json.dumps(schema)
        for listed in re.findall(r"\[\"amd\"[^\]]*\]", text):
            assert json.loads(listed) == list(TARGETS)
        for listed in re.findall(r"\[\"kernel\"[^\]]*\]", text):
            assert json.loads(listed) == LAYER_NAMES[: len(json.loads(listed))]
    assert plan["$defs"]["target"]["enum"] == list(TARGETS)
    assert plan["$defs"]["grade"]["enum"] == [g.value for g in GRADES]
    assert plan["$defs"]["kernel"]["properties"]["targets"]["required"] == list(TARGETS)
    for schema in (scan, history, plan):
        described = json.dumps(schema).replace("tpu...", "")  # the alias, said once
        assert not re.search(r"\btpu\b", described)


def test_scan_outputs_list_targets_and_layers_in_order(repo: Path) -> None:
    document = json.loads(run("scan", str(repo), "--format", "json"))
    assert list(document["matrix"]) == list(TARGETS)
    for row in document["matrix"].values():
        assert list(row) == [layer.value for layer in NON_PORTABLE]
    text = run("scan", str(repo))
    assert in_order(targets_in(text.splitlines()), TARGETS) == list(TARGETS)
    markdown = run("scan", str(repo), "--format", "markdown")
    assert in_order(targets_in(markdown.splitlines()), TARGETS) == list(TARGETS)
    for output in (text, markdown):
        assert not re.search(r"\btpu\b", output)
        header = next(
            line
            for line in output.splitlines()
            if all(layer.value in line for layer in NON_PORTABLE)
        )
        assert in_order(re.findall(r"kernel|vendor-library|vendor-path", header), LAYER_NAMES) == [
            layer.value for layer in NON_PORTABLE
        ]


def test_plan_outputs_list_targets_and_grades_in_order(repo: Path) -> None:
    document = json.loads(run("plan", str(repo), "--format", "json"))
    assert [p["target"] for p in document["plans"]] == list(TARGETS)
    assert document["effort_model"]["grades"] == [g.value for g in GRADES]
    for kernel in document["kernels"]:
        assert list(kernel["targets"]) == list(TARGETS)
    text = run("plan", str(repo))
    table = text.split("Migration plan (lines")[1].splitlines()
    assert targets_in(table)[:4] == list(TARGETS)
    header = table[1].split()
    assert header[1:4] == ["port", "review", "rewrite"]
    markdown = run("plan", str(repo), "--format", "markdown")
    summary = markdown.split("## Migration plan")[1].splitlines()
    assert targets_in(summary)[:4] == list(TARGETS)
    assert "| Port (translator) | Review | Rewrite |" in markdown
    for output in (text, markdown):
        assert not re.search(r"\btpu\b", output)
    # The dashboard issue and the organisation pages carry the same targets, in order.
    body = dashboard_body(document, {"code_lines": 1, "non_portable_lines": 1, "nvidia_share": 0})
    assert targets_in(body.split("## Migration plan")[1].splitlines())[:4] == list(TARGETS)
    summary = org_summary(document, None)
    assert [p["target"] for p in summary["plans"]] == list(TARGETS)
    # The organisation page sums repositories' plans (a summary stored before plan/2 says
    # "tpu") and lists targets and layers in the engine's order, never alphabetically.
    old = json.loads(json.dumps(summary))
    for plan in old["plans"]:
        plan["target"] = "tpu" if plan["target"] == "google" else plan["target"]
    rows = [
        OrgRow(
            "o/a",
            "c",
            dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            10,
            5,
            2,
            0.2,
            None,
            {"vendor-path": 1, "portable": 5, "kernel": 4},
            {},
            summary,
        ),
        OrgRow(
            "o/b",
            "c",
            dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            10,
            5,
            2,
            0.2,
            None,
            {"vendor-library": 1},
            {},
            old,
        ),
    ]
    combined = totals(rows, 2)
    assert [p["target"] for p in combined.plans] == list(TARGETS)
    assert list(combined.layers) == ["kernel", "vendor-library", "vendor-path", "portable"]
    amd = combined.plans[0]
    assert amd["port"] == 2 * summary["plans"][0]["port"]


def test_action_outputs_follow_the_layer_order() -> None:
    action: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text())
    for prefix in ("added-", "lines-"):
        layers = [name[len(prefix) :] for name in action["outputs"] if name.startswith(prefix)]
        layers = [name for name in layers if name in LAYER_NAMES]
        assert layers == [name for name in LAYER_NAMES if name in layers]
    assert not re.search(r"\btpu\b", json.dumps(action["outputs"]))
