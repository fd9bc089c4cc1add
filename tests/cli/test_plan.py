"""`lockin plan` end to end on a checkout: register, kernels, drift, uncovered areas and the
plan in every format, the JSON valid against its shipped schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from bot.cli import main
from bot.engine.model import VENDORS
from bot.render.json_out import load_schema

KERNEL = """\
#include <cuda_runtime.h>
__global__ void {name}(float* x) {{
  int i = threadIdx.x;
  x[i] *= 2;
}}
"""
FILES = {
    "csrc/attn/fwd.cu": KERNEL.format(name="attn_fwd"),
    "csrc/attn/bwd.cu": KERNEL.format(name="attn_bwd"),
    "ops/norm.cu": KERNEL.format(name="norm"),
    "train.py": "import torch\n",
    ".github/CODEOWNERS": "/ops/ @ops-team\n[bad @x\n",
    "docs/decisions/0001-attn.md": (
        "---\ntype: compute-api\nstatus: accepted\nowner: '@attn'\ncompute_api: CUDA 12\n"
        "migration_cost: {lines: 4, engineer_weeks: 1, target: HIP}\nscope: [csrc/attn/**]\n"
        "---\n# Attention kernels\n"
    ),
    "docs/decisions/0002-bad.md": "---\nscope: [\n---\n",
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out=out, err=err), out.getvalue(), err.getvalue()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_json_is_valid_against_the_shipped_schema_and_holds_the_register(tree: Path) -> None:
    code, out, err = run("plan", str(tree), "--format", "json")
    assert code == 0
    document = json.loads(out)
    Draft202012Validator(load_schema("plan")).validate(document)
    assert document["schema"] == "lockin.plan/2"
    reg = document["register"]
    (decision,) = reg["decisions"]
    assert decision["lines"] == 10
    assert decision["estimate_lines"] == 4
    assert decision["drifted"]
    assert [a["directory"] for a in reg["uncovered"]] == ["ops"]
    assert reg["uncovered"][0]["owners"] == ["@ops-team"]
    assert reg["frameworks"][0]["name"] == "pytorch"
    assert reg["frameworks"][0]["record"] is None
    assert {k["name"]: k["decision"] for k in document["kernels"]} == {
        "attn_bwd": "docs/decisions/0001-attn.md",
        "attn_fwd": "docs/decisions/0001-attn.md",
        "norm": None,
    }
    assert [p["target"] for p in document["plans"]] == ["amd", "intel", "apple", "google"]
    # The broken record and the CODEOWNERS line are said, on stderr and in the document.
    assert any("0002-bad.md" in p for p in reg["problems"])
    assert any(p.startswith(".github/CODEOWNERS:2:") for p in reg["problems"])
    assert "0002-bad.md" in err


def test_target_option_restricts_the_plans(tree: Path) -> None:
    code, out, _ = run("plan", str(tree), "--format", "json", "--target", "intel")
    assert code == 0
    plans = json.loads(out)["plans"]
    assert [p["target"] for p in plans] == ["intel"]
    assert plans[0]["tool"] == "SYCLomatic"
    # Plain CUDA kernels: SYCLomatic migrates every name in them without a diagnostic.
    assert (plans[0]["port"], plans[0]["review"], plans[0]["rewrite"]) == (12, 0, 0)


def test_target_aliases_name_the_same_target(tree: Path) -> None:
    _, out, _ = run("plan", str(tree), "--format", "json", "--target", "tpu", "--target", "ROCm")
    assert [p["target"] for p in json.loads(out)["plans"]] == ["amd", "google"]


def test_recorded_engineer_weeks_count_under_the_target_the_record_names(tree: Path) -> None:
    """The record says `engineer_weeks: 1, target: HIP`: 1 under amd, in every format, and
    "none" recorded elsewhere, where the model's estimate stands apart."""
    _, out, _ = run("plan", str(tree), "--format", "json")
    plans = {p["target"]: p for p in json.loads(out)["plans"]}
    assert plans["amd"]["engineer_weeks"]["recorded"] == 1
    for target in ("intel", "apple", "google"):
        assert plans[target]["engineer_weeks"]["recorded"] is None
        assert plans[target]["engineer_weeks"]["estimated"] > 0
    (attn,) = [g for g in plans["amd"]["groups"] if g["name"].endswith("0001-attn.md")]
    assert attn["engineer_weeks"] == {"recorded": 1, "estimated": None}
    (norm,) = [g for g in plans["amd"]["groups"] if g["name"] == "ops"]
    assert norm["engineer_weeks"]["recorded"] is None
    assert norm["engineer_weeks"]["estimated"] is not None
    _, text, _ = run("plan", str(tree))
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line[:2] == "  "}
    assert rows["amd"][-2] == "1"
    assert rows["amd"][-1].startswith(("~", "<"))  # the model's figure for the ops/ area
    assert rows["apple"][-2] == "none"
    _, md, _ = run("plan", str(tree), "--format", "markdown")
    md_rows = {
        r.split("|")[1].strip().split()[0]: r.split("|")
        for r in md.splitlines()
        if r.startswith("| ") and r.split("|")[1].strip().split()[0] in plans
    }
    assert md_rows["amd"][-3].strip() == "1"
    assert md_rows["intel"][-3].strip() == "none"


def test_text_and_markdown_show_the_same_figures(tree: Path) -> None:
    _, text, _ = run("plan", str(tree))
    assert "Decision coverage: 67% of 15 gated" in text
    assert "attn_fwd" in text
    assert "NOT recorded" in text
    _, md, _ = run("plan", str(tree), "--format", "markdown")
    assert "## Kernel inventory" in md
    assert "`@ops-team`" in md
    assert "67% of 15 gated" in md
    assert "⚠️ past tolerance" in md


def test_unknown_target_is_a_usage_error(tree: Path) -> None:
    code, _, err = run("plan", str(tree), "--target", "riscv")
    assert code == 2
    assert "riscv" in err


def _vendor_enums(node: object) -> list[list[str]]:
    """The ``enum`` of every ``vendors`` array the schema describes."""
    if isinstance(node, list):
        return [enum for item in node for enum in _vendor_enums(item)]
    if not isinstance(node, dict):
        return []
    found = [enum for value in node.values() for enum in _vendor_enums(value)]
    vendors = node.get("properties", {}).get("vendors")
    if isinstance(vendors, dict):
        found.append(vendors["items"]["enum"])
    return found


def test_the_schema_names_every_vendor_the_engine_knows() -> None:
    # The schema's vendor list is written by hand: a vendor added to the engine (aws,
    # iluvatar) must be added there too, or a plan naming it fails its own schema.
    enums = _vendor_enums(load_schema("plan"))
    assert enums
    assert all(enum == list(VENDORS) for enum in enums)
