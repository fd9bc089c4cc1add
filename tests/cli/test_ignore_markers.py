"""Inline `lockin: ignore[rule] reason` markers through the command line: what they take out
is counted as portable and listed apart in every format, a wrong marker is reported, and
`ignore_markers: not-allowed` makes files count as if the markers were absent."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, Draft202012Validator

from bot.cli import main
from bot.engine import classify
from bot.engine.model import Layer
from bot.render.json_out import load_schema
from tests.cli.test_cli import SARIF_SCHEMA

KERNEL = """\
#include <cuda_runtime.h>

// lockin: ignore[cuda.kernel] built for HIP too through our compat header
__global__ void scale(float* x, float a) {
  x[threadIdx.x] *= a;
}

void run(float* x) {
  cudaDeviceSynchronize();  /* lockin: ignore[cuda.runtime] a no-op shim on every backend */
}
"""
WRONG = """\
# lockin: ignore[torch.cuda-call]
import torch  # lockin: ignore[torch.cuda-cal] typo in the id
x = torch.cuda.current_device()
s = "lockin: ignore[torch.cuda-call] a string is not a marker"
y = torch.cuda.memory_allocated()  # lockin: ignore[cuda.kernel] wrong rule for this line
"""
NOT_ALLOWED = "ignore_markers: not-allowed\n"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_engine_takes_out_a_whole_finding_or_one_line() -> None:
    report = classify("k.cu", KERNEL.encode())
    taken = {(i.rule, i.start_line, i.end_line, i.lines, i.marker_line) for i in report.ignored}
    assert taken == {("cuda.kernel", 4, 6, 3, 3), ("cuda.runtime", 9, 9, 1, 9)}
    assert [i.reason for i in report.ignored if i.rule == "cuda.runtime"] == [
        "a no-op shim on every backend"
    ]
    assert {f.rule for f in report.findings} == {"cuda.include"}
    assert report.layers[Layer.KERNEL] == 0
    assert report.layers[Layer.PORTABLE] == report.code_lines - 1
    assert report.line_rules[3] == ""
    assert not report.marker_problems


def test_wrong_markers_are_reported_and_ignore_nothing() -> None:
    report = classify("m.py", WRONG.encode())
    assert not report.ignored
    problems = {p.line: p.problem for p in report.marker_problems}
    assert set(problems) == {1, 2, 5}
    assert "needs a reason" in problems[1]
    assert "unknown rule id 'torch.cuda-cal'" in problems[2]
    assert "no cuda.kernel finding on line 5" in problems[5]
    assert {f.rule for f in report.findings} == {"torch.cuda-call"}


def test_scan_lists_ignored_lines_apart_in_text_json_and_markdown(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"k.cu": KERNEL, "m.py": WRONG})
    code, out, _ = _run("scan", str(root), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    Draft202012Validator(load_schema("scan")).validate(doc)
    assert doc["ignore_markers"] == {
        "allowed": True,
        "ignored_lines": 4,
        "ignored": 2,
        "problems": 3,
    }
    assert doc["totals"]["layers"]["kernel"] == 0
    kernel_file = next(f for f in doc["files"] if f["path"] == "k.cu")
    assert kernel_file["ignored"][0]["reason"].startswith("built for HIP")
    _, text, _ = _run("scan", str(root))
    assert "Ignored by inline markers (4 lines, counted as portable):" in text
    assert "k.cu:4-6  cuda.kernel  (kernel, 3 lines)  built for HIP too" in text
    assert "m.py:2  unknown rule id 'torch.cuda-cal'" in text
    _, md, _ = _run("scan", str(root), "--format", "markdown")
    assert (
        "**Inline ignore markers:** 4 lines ignored by 2 inline markers; 3 marker problems." in md
    )
    assert "docs/rules.md#cuda.kernel" in md


def test_scan_sarif_suppresses_what_markers_took_out(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"k.cu": KERNEL, "m.py": WRONG})
    _, out, _ = _run("scan", str(root), "--format", "sarif")
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA).validate(log)
    run = log["runs"][0]
    suppressed = [r for r in run["results"] if "suppressions" in r]
    assert {r["ruleId"] for r in suppressed} == {"cuda.kernel", "cuda.runtime"}
    assert suppressed[0]["suppressions"][0]["kind"] == "inSource"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 3
    assert all("inline marker ignores nothing" in n["message"]["text"] for n in notes)


def test_not_allowed_counts_as_if_markers_were_absent(tmp_path: Path) -> None:
    plain = KERNEL.replace("lockin: ignore", "lockin-ignore")
    root = _tree(tmp_path / "marked", {"k.cu": KERNEL, ".github/lockin.yml": NOT_ALLOWED})
    bare = _tree(tmp_path / "bare", {"k.cu": plain, ".github/lockin.yml": NOT_ALLOWED})
    _, marked_out, _ = _run("scan", str(root), "--format", "json")
    _, bare_out, _ = _run("scan", str(bare), "--format", "json")
    marked, unmarked = json.loads(marked_out), json.loads(bare_out)
    Draft202012Validator(load_schema("scan")).validate(marked)
    assert marked["totals"] == unmarked["totals"]
    assert marked["ignore_markers"]["allowed"] is False
    assert marked["ignore_markers"]["ignored_lines"] == 0
    [kernel] = [f for f in marked["files"] if f["path"] == "k.cu"]
    problems = kernel["marker_problems"]
    assert len(problems) == 2
    assert all("not allowed" in p["problem"] for p in problems)


@pytest.mark.parametrize("policy", ["", NOT_ALLOWED])
def test_diff_gate_counts_ignored_lines_only_when_markers_are_allowed(
    tmp_path: Path, policy: str
) -> None:
    base = _tree(tmp_path / "base", {"README.md": "hi\n", ".github/lockin.yml": policy})
    head = _tree(
        tmp_path / "head",
        {"README.md": "hi\n", ".github/lockin.yml": policy, "k.cu": KERNEL.split("void run")[0]},
    )
    code, out, _ = _run("diff", str(base), str(head), "--format", "json")
    doc = json.loads(out)
    Draft202012Validator(load_schema("diff")).validate(doc)
    [changed] = [f for f in doc["files"] if f["path"] == "k.cu"]
    if policy:
        assert code == 1
        assert doc["added"]["kernel"] == 3
        assert doc["ignore_markers"]["allowed"] is False
        assert "not allowed" in changed["marker_problems"][0]["problem"]
    else:
        # The include is still added vendor-path code: the gate fails on it alone.
        assert code == 1
        assert doc["added"]["kernel"] == 0
        assert doc["verdict"]["gated_lines"] == 1
        assert changed["ignored"][0]["rule"] == "cuda.kernel"
        assert doc["ignore_markers"]["ignored_lines"] == 3
    _, text, _ = _run("diff", str(base), str(head))
    assert ("Ignored by inline markers" in text) is not bool(policy)
    assert "Marker problems" in text if policy else "k.cu:4-6  cuda.kernel" in text


def test_diff_passes_when_every_added_gated_line_is_ignored(tmp_path: Path) -> None:
    kernel = KERNEL.split("void run")[0].replace(
        "#include <cuda_runtime.h>",
        "#include <cuda_runtime.h>  // lockin: ignore[cuda.include] hipified",
    )
    base = _tree(tmp_path / "base", {"README.md": "hi\n"})
    head = _tree(tmp_path / "head", {"README.md": "hi\n", "k.cu": kernel})
    code, out, err = _run("diff", str(base), str(head), "--format", "markdown")
    assert code == 0, err
    assert "4 lines ignored by 2 inline markers" in out


def test_policy_rejects_an_unknown_ignore_markers_value(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"k.cu": KERNEL, ".github/lockin.yml": "ignore_markers: sometimes\n"})
    code, _, err = _run("scan", str(root))
    assert code == 2
    assert "ignore_markers" in err


def test_a_census_counted_with_markers_can_be_recounted_without_them(tmp_path: Path) -> None:
    from bot.engine.census import Census

    marked = Census([classify("k.cu", KERNEL.encode())])
    bare = Census([classify("k.cu", KERNEL.replace("lockin: ignore", "lockin-ignore").encode())])
    strict = marked.without_markers()
    assert marked.totals.layers != bare.totals.layers
    assert strict.totals.layers == bare.totals.layers
    assert strict.totals.rule_lines == bare.totals.rule_lines
    [summary] = strict.files()
    assert {f.rule for f in summary.findings} == {"cuda.include", "cuda.kernel", "cuda.runtime"}
    assert len(summary.marker_problems) == 2


def test_a_marker_reason_is_shown_as_plain_text(tmp_path: Path) -> None:
    hostile = KERNEL.replace(
        "built for HIP too through our compat header",
        "ask @octo/admins [here](https://x.test) **now**",
    )
    root = _tree(tmp_path, {"k.cu": hostile})
    _, md, _ = _run("scan", str(root), "--format", "markdown")
    line = next(x for x in md.splitlines() if "cuda.kernel" in x and "octo" in x)
    assert "@octo" not in line  # no mention: a word joiner follows the @
    assert "[here](https" not in line
    assert "**now**" not in line
