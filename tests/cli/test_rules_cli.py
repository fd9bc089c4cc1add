"""`lockin rules`: the rule list and one rule's page in every format, and docs/rules.md kept
in step with the rule files."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine.registry import SPECS
from bot.render.rules_page import rules_document

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_list_names_every_rule_with_its_layer_ecosystem_and_vendors() -> None:
    code, out, _ = _run("rules")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "layer", "ecosystem", "vendors", "summary"]
    by_id = {line.split()[0]: line for line in lines[1:]}
    assert set(by_id) == {s.rule.id for s in SPECS}
    assert by_id["cuda.kernel"].split()[1:4] == ["kernel", "cuda", "nvidia"]
    assert "amd, nvidia" in by_id["torch.cuda-call"]


def test_the_list_as_json_and_markdown() -> None:
    _, out, _ = _run("rules", "--format", "json")
    rows = json.loads(out)
    assert [r["id"] for r in rows] == [s.rule.id for s in SPECS]
    assert rows[0].keys() == {"id", "layer", "ecosystem", "vendors", "summary"}
    _, out, _ = _run("rules", "--format", "markdown")
    assert "| [`hip.runtime`](#hip.runtime) | `vendor-path` | hip | amd |" in out


def test_one_rule_page_says_why_instead_and_shows_its_examples() -> None:
    code, out, _ = _run("rules", "cuda.runtime")
    assert code == 0
    assert out.startswith("cuda.runtime\n")
    assert "Why it would not move\n  cudaMalloc" in out
    assert "hipify" in out.split("Instead\n", 1)[1]
    assert "docs/rules.md#cuda.runtime" in out
    spec = next(s for s in SPECS if s.rule.id == "cuda.runtime")
    assert spec.positive[0].code.splitlines()[0] in out
    assert spec.negative[0].code.splitlines()[0] in out


def test_one_rule_page_as_json_and_markdown() -> None:
    _, out, _ = _run("rules", "sycl.esimd", "--format", "json")
    page = json.loads(out)
    assert page["id"] == "sycl.esimd"
    assert page["vendors"] == ["intel"]
    assert page["why"]
    assert page["instead"]
    assert page["url"].endswith("#sycl.esimd")
    assert page["examples"]["positive"][0]["code"]
    _, out, _ = _run("rules", "sycl.esimd", "--format", "markdown")
    assert out.startswith('## <a id="sycl.esimd"></a>`sycl.esimd`')
    assert "**Why it would not move.**" in out
    assert "```" in out


def test_an_unknown_rule_id_is_one_line_and_exit_2_with_the_closest_ids() -> None:
    code, out, err = _run("rules", "cuda.kernal")
    assert code == 2
    assert out == ""
    assert err.startswith("lockin: error: no rule 'cuda.kernal': did you mean cuda.kernel ")
    assert err.count("\n") == 1
    code, _, err = _run("rules", "nothing-like-a-rule")
    assert code == 2
    assert err == "lockin: error: no rule 'nothing-like-a-rule': `lockin rules` lists them\n"


def test_the_rule_url_base_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCKIN_RULES_URL", "https://docs.example.com/lockin/rules.html")
    _, out, _ = _run("rules", "cuda.kernel", "--format", "json")
    assert json.loads(out)["url"] == "https://docs.example.com/lockin/rules.html#cuda.kernel"


def test_docs_rules_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_document(), "docs/rules.md is stale: run `make rules-doc`"


def test_docs_rules_md_has_one_anchor_per_rule_and_its_examples() -> None:
    doc = rules_document()
    for spec in SPECS:
        assert doc.count(f'<a id="{spec.rule.id}"></a>') == 1
        assert spec.positive[0].code.rstrip("\n") in doc
    assert "## Ignore markers" in doc


def test_the_make_target_writes_the_document(tmp_path: Path) -> None:
    target = tmp_path / "rules.md"
    subprocess.run(
        [sys.executable, "-m", "bot.render.rules_page", str(target)], check=True, cwd=ROOT
    )
    assert target.read_text(encoding="utf-8") == rules_document()


def test_sarif_rules_carry_help_uri_full_description_and_help() -> None:
    code, out, _ = _run("scan", str(ROOT / "examples" / "repo"), "--format", "sarif")
    assert code == 0
    rules = {r["id"]: r for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]}
    kernel = rules["cuda.kernel"]
    page = "https://github.com/lockin-dev/lockin/blob/main/docs/rules.md#cuda.kernel"
    assert kernel["helpUri"] == page
    assert "compiled by nvcc" in kernel["fullDescription"]["text"]
    assert "hipify" in kernel["help"]["text"]
    assert f"[About this rule]({page})" in kernel["help"]["markdown"]
    assert all(r["helpUri"].endswith("#" + r["id"]) for r in rules.values())
