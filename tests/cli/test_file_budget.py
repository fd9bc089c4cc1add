"""A CPU-time budget per file in `lockin scan` and `lockin diff` (and so in the Action and
the pre-commit hook, which run them): a file the engine takes longer on is left out as
"not counted: over budget", in every format, and a gate cannot pass over it.

The slow input is a generated Python module of about a megabyte: tens of milliseconds of
CPU to classify on any machine, always far over a budget of one millisecond (the timer
counts CPU time, so a busy machine makes no difference). Each test also runs without a
budget (`--file-budget 0`) to show the same file counts then.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.gitrepo import commit, git, init, write
from tests.cli.test_cli import run

TINY = "0.001"
#: Portable, so that counted it passes every gate: what fails is only that it was not.
SLOW = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(32_000))


def _tree(root: Path, *, slow: bool) -> Path:
    root.mkdir(parents=True)
    (root / "small.py").write_text("import torch\n\nx = torch.ones(3)\n")
    if slow:
        (root / "slow.py").write_text(SLOW)
    return root


def test_scan_lists_a_file_over_budget_as_not_counted_in_every_format(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "t", slow=True)
    code, out, err = run("scan", str(tree), "--file-budget", TINY, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert [f["path"] for f in document["not_counted"]] == ["slow.py"]
    assert document["not_counted"][0]["reason"].startswith("over budget")
    assert "slow.py" not in [f["path"] for f in document["files"]]
    assert "lockin: warning: 1 file not counted: over budget" in err

    code, out, _ = run("scan", str(tree), "--file-budget", TINY)
    assert "Not counted, over budget (1" in out
    assert "  slow.py: over budget" in out
    code, out, _ = run("scan", str(tree), "--file-budget", TINY, "--format", "markdown")
    assert "not counted, over budget" in out
    assert "`slow.py`" in out
    code, out, _ = run("scan", str(tree), "--file-budget", TINY, "--format", "sarif")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes] == [
        "slow.py"
    ]

    code, out, err = run("scan", str(tree), "--file-budget", "0", "--format", "json")
    assert code == 0
    assert json.loads(out)["not_counted"] == []
    assert "slow.py" in [f["path"] for f in json.loads(out)["files"]]


def test_scan_fail_above_cannot_pass_over_a_file_it_did_not_count(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "t", slow=True)
    code, _, err = run("scan", str(tree), "--file-budget", TINY, "--fail-above", "1000")
    assert code == 1
    assert "lockin: failure: --fail-above cannot pass: 1 not counted" in err
    assert run("scan", str(tree), "--file-budget", "0", "--fail-above", "1000")[0] == 0


def test_diff_does_not_pass_a_change_it_could_not_count(tmp_path: Path) -> None:
    before = _tree(tmp_path / "before", slow=False)
    after = _tree(tmp_path / "after", slow=True)
    code, out, err = run("diff", str(before), str(after), "--file-budget", TINY)
    assert code == 1, err
    assert "Not counted, over budget (1" in out
    assert "  slow.py: over budget" in out
    assert "Verdict: failure: cannot pass: 1 file not counted: over budget" in out

    code, out, _ = run("diff", str(before), str(after), "--file-budget", TINY, "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert document["verdict"]["conclusion"] == "failure"
    assert [f["path"] for f in document["not_counted"]] == ["slow.py"]
    code, out, _ = run(
        "diff", str(before), str(after), "--file-budget", TINY, "--format", "markdown"
    )
    assert code == 1
    assert "not counted, over budget" in out
    assert "`slow.py`" in out
    code, out, _ = run("diff", str(before), str(after), "--file-budget", TINY, "--format", "sarif")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert code == 1
    assert "slow.py: not counted: over budget" in notes[0]["message"]["text"]

    code, out, err = run("diff", str(before), str(after), "--file-budget", "0")
    assert code == 0, out + err
    assert "over budget" not in out


def test_a_report_only_policy_reports_the_uncounted_change_as_neutral(tmp_path: Path) -> None:
    before = _tree(tmp_path / "before", slow=False)
    after = _tree(tmp_path / "after", slow=True)
    for tree in (before, after):
        (tree / ".github").mkdir()
        (tree / ".github" / "lockin.yml").write_text("enforcement: neutral\n")
    code, out, _ = run("diff", str(before), str(after), "--file-budget", TINY, "--format", "json")
    assert code == 0
    assert json.loads(out)["verdict"]["conclusion"] == "neutral"


def test_the_pre_commit_hook_refuses_a_commit_it_could_not_count(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"small.py": "x = 1\n"}, "base")
    write(repo, {"slow.py": SLOW})
    git(repo, "add", "slow.py")
    lockin = Path(sys.executable).with_name("lockin")
    hook = [str(lockin), "diff", "--staged"]
    proc = subprocess.run([*hook, "--file-budget", TINY], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "slow.py: over budget" in proc.stdout
    proc = subprocess.run([*hook, "--file-budget", "0"], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("bad", ["-1", "soon", "nan", "inf"])
def test_a_file_budget_that_is_not_seconds_is_one_line_of_error(bad: str) -> None:
    code, _, err = run("scan", ".", "--file-budget", bad)
    assert code == 2
    assert err.startswith("lockin: error: argument --file-budget")
    assert err.count("\n") == 1
