"""`lockin scan` as scc and tokei users expect it: the summary first and findings behind a
flag, a per-language (or per-file) table, --sort, CSV, --fail-above; configuration errors
all at once; `[tool.lockin]` in pyproject.toml; `lockin init`."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from bot.policy.config import load_policy
from tests.cli.gitrepo import commit, init
from tests.cli.test_cli import EXAMPLES, KERNEL, run

REPO = str(EXAMPLES / "repo")


def _kernels(tmp_path: Path, n: int) -> str:
    """A checkout with ``n`` kernel files (``n`` findings and more), and a Python file."""
    for i in range(n):
        (tmp_path / "ops" / f"k{i}.cu").parent.mkdir(exist_ok=True)
        (tmp_path / "ops" / f"k{i}.cu").write_text(KERNEL)
    (tmp_path / "model.py").write_text("import torch\nx = torch.ones(3)\n")
    return str(tmp_path)


def test_the_summary_comes_first_and_fits_a_screen_findings_only_when_asked(
    tmp_path: Path,
) -> None:
    root = _kernels(tmp_path, 200)
    code, out, _ = run("scan", root, "--jobs", "1")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) <= 50, out
    assert lines[1].startswith("Could not move off NVIDIA tomorrow: ")
    assert lines[3].split() == [
        "language", "files", "code", "kernel", "vendor-library", "vendor-path", "portable",
        "share",
    ]  # fmt: skip
    assert lines[-1].endswith("findings: --findings lists them, --by-file per file")
    assert "ops/k7.cu:" not in out
    code, full, _ = run("scan", root, "--jobs", "1", "--findings")
    findings = [line for line in full.splitlines() if line.startswith("  ops/")]
    assert len(findings) >= 200
    assert full.startswith(out.rsplit("\n", 2)[0])  # the same summary, then the list


def _rows(out: str) -> list[list[str]]:
    """The cells of the table after the headline, header row first."""
    return [re.split(r"\s{2,}", line.strip()) for line in out.split("\n\n")[1].splitlines()]


def test_the_language_table_adds_up_to_the_totals_and_sorts() -> None:
    _, out, _ = run("scan", REPO)
    rows = {row[0]: row for row in _rows(out)[1:]}
    assert "C Header" in rows
    total = rows.pop("total")
    assert sum(int(r[2].replace(",", "")) for r in rows.values()) == int(total[2])
    non_portable = [sum(int(c) for c in r[3:6]) for r in rows.values()]
    assert non_portable == sorted(non_portable, reverse=True)  # --sort lines, the default
    _, by_name, _ = run("scan", REPO, "--sort", "name")
    names = [row[0] for row in _rows(by_name)[1:-1]]
    assert names == sorted(names)
    _, by_code, _ = run("scan", REPO, "--sort", "code")
    codes = [int(row[2]) for row in _rows(by_code)[1:-1]]
    assert codes == sorted(codes, reverse=True)


def test_by_file_lists_each_file_with_non_portable_lines() -> None:
    _, out, _ = run("scan", REPO, "--by-file")
    table = out.split("\n\n")[1].splitlines()
    assert table[0].split()[:2] == ["path", "code"]
    paths = [line.split()[0] for line in table[1:-1]]
    assert "csrc/fused_softmax.cu" in paths
    assert "README.md" not in paths  # no non-portable line
    assert "Top 5 files" not in out  # the table is the list


def test_csv_per_language_and_per_file() -> None:
    code, out, _ = run("scan", REPO, "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"language", "files", "code", "kernel", "non-portable"} <= set(rows[0])
    cuda = next(r for r in rows if r["language"] == "CUDA")
    assert int(cuda["kernel"]) > 0
    _, json_out, _ = run("scan", REPO, "--format", "json")
    totals = json.loads(json_out)["totals"]
    assert sum(int(r["code"]) for r in rows) == totals["code_lines"]
    _, out, _ = run("scan", REPO, "--format", "csv", "--by-file")
    files = list(csv.DictReader(io.StringIO(out)))
    assert "csrc/fused_softmax.cu" in {r["path"] for r in files}


def test_fail_above_lines_or_share_makes_scan_exit_1(tmp_path: Path) -> None:
    _, out, _ = run("scan", REPO, "--format", "json")
    locked = json.loads(out)["totals"]["nvidia_locked_lines"]
    assert run("scan", REPO, "--fail-above", str(locked))[0] == 0
    code, _, err = run("scan", REPO, "--fail-above", str(locked - 1))
    assert code == 1
    assert (
        err == f"lockin: failure: {locked:,} NVIDIA-only lines, above --fail-above {locked - 1:,}\n"
    )
    assert run("scan", REPO, "--fail-above", "50%")[0] == 0
    code, _, err = run("scan", REPO, "--fail-above", "2%", "--format", "csv")
    assert code == 1
    assert "above --fail-above 2%" in err
    code, _, err = run("scan", REPO, "--fail-above", "lots")
    assert code == 2
    assert "expected a number of lines or a percentage" in err


CONFIG_WITH_THREE_PROBLEMS = "layers: [kernal]\nallowance: -3\nenforcment: fail\n"


def test_every_configuration_problem_in_one_run_named_by_its_path(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "lockin.yml").write_text(CONFIG_WITH_THREE_PROBLEMS)
    code, out, err = run("scan", str(tmp_path))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    where = f"{tmp_path}/.github/lockin.yml"
    assert lines == [
        f"lockin: error: {where}:1: layers[0]: 'kernal' is not one of: kernel, vendor-path, "
        "vendor-library",
        f"lockin: error: {where}:2: allowance: -3 is less than the minimum of 0",
        f"lockin: error: {where}:3: enforcment: unknown key (did you mean 'enforcement'?)",
    ]
    assert "and 1 more" not in err


def test_in_the_current_directory_the_file_has_no_stray_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "lockin.yml").write_text("allowance: -3\n")
    monkeypatch.chdir(tmp_path)
    _, _, err = run("scan")
    assert (
        err == "lockin: error: .github/lockin.yml:1: allowance: -3 is less than the minimum of 0\n"
    )


def test_configuration_from_pyproject_tool_lockin(tmp_path: Path) -> None:
    root = _kernels(tmp_path, 2)
    _, out, _ = run("scan", root, "--format", "json")
    assert len(json.loads(out)["files"]) == 3
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n\n[tool.lockin.paths]\nexclude = ["ops/k1.cu"]\n'
    )
    _, out, _ = run("scan", root, "--format", "json")
    assert "ops/k1.cu" not in {f["path"] for f in json.loads(out)["files"]}
    assert "ops/k0.cu" in {f["path"] for f in json.loads(out)["files"]}
    (tmp_path / "pyproject.toml").write_text("[tool.lockin]\nallowance = -1\nlayer = []\n")
    code, _, err = run("scan", root)
    assert code == 2
    assert err.splitlines() == [
        f"lockin: error: {tmp_path}/pyproject.toml [tool.lockin]: allowance: -1 is less than "
        "the minimum of 0",
        f"lockin: error: {tmp_path}/pyproject.toml [tool.lockin]: layer: unknown key (did you "
        "mean 'layers'?)",
    ]
    # A broken pyproject.toml that never names lockin (a merge's conflict markers left in
    # its dependencies) holds no table of ours: the defaults count; one naming it is shown.
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = [\n<<<<<<< ours\n    "jax",\n=======\n]\n'
    )
    assert run("scan", root)[0] == 0
    (tmp_path / "pyproject.toml").write_text("[tool.lockin]\nallowance = \n")
    code, _, err = run("scan", root)
    assert code == 2
    assert "invalid TOML" in err
    # .github/lockin.yml, when there is one, is the configuration.
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "lockin.yml").write_text("allowance: 3\n")
    assert run("scan", root)[0] == 0


def test_init_writes_a_valid_commented_configuration_and_a_proposed_record(
    tmp_path: Path,
) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"csrc/k.cu": KERNEL, "model.py": "import torch\n"}, "base")
    code, out, err = run("init", str(repo), "--owner", "@org/gpu")
    assert code == 0, err
    config = (repo / ".github" / "lockin.yml").read_text()
    assert config.count("\n# ") > 10  # every key under its description
    policy = load_policy(config)
    assert policy == load_policy("")  # the defaults, written out
    record = next((repo / "docs" / "decisions").glob("*.md"))
    assert f"wrote {record}" in out
    text = record.read_text()
    assert "status: proposed" in text
    assert 'owner: "@org/gpu"' in text
    assert '- "csrc/**"' in text
    # The record is one the register reads: `lockin plan` lists it with its owner.
    code, plan, _ = run("plan", str(repo), "--format", "json")
    (decision,) = json.loads(plan)["register"]["decisions"]
    assert (decision["status"], decision["owner"]) == ("proposed", "@org/gpu")
    assert decision["lines"] > 0
    # Run again: nothing is overwritten.
    code, _, err = run("init", str(repo))
    assert code == 2
    assert err == f"lockin: error: {repo}/.github/lockin.yml exists already: nothing written\n"
    shutil.rmtree(repo / ".github")
    assert run("init", str(repo))[0] == 2  # the record is still there
