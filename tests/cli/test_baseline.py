"""`lockin baseline` and `lockin diff` with a baseline, on real git repositories: the
adoption path of the README followed literally (record, commit, then only growth gates)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import yaml

from bot.cli import main
from tests.cli.gitrepo import commit, git, init

KERNEL = """#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}
"""
SECOND = """
__global__ void shift(float* x, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += b;
    }
}
"""
RECORD = """---
type: compute-api
status: accepted
owner: "@octo/kernels"
compute_api: CUDA 12.4
migration_cost: 3 weeks
scope: ["decided/**"]
---

# Decided kernels
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def adopted(tmp_path: Path) -> Path:
    """A repository with lock-in in two areas, one covered by a decision, baselined."""
    repo = init(tmp_path / "repo")
    commit(
        repo,
        {
            "csrc/scale.cu": KERNEL + SECOND,
            "decided/k.cu": KERNEL,
            "docs/decisions/0001.md": RECORD,
            "model.py": "import torch\n",
        },
    )
    code, out, err = run("baseline", str(repo))
    assert code == 0, err
    assert out == ""
    assert "baseline of 1 file(s)" in err
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Record the lockin baseline")
    return repo


def test_baseline_records_uncovered_files_per_ecosystem_at_head(tmp_path: Path) -> None:
    repo = adopted(tmp_path)
    data = yaml.safe_load((repo / ".github/lockin-baseline.yml").read_text())
    assert data["version"] == 1
    assert data["layers"] == ["kernel", "vendor-path"]
    assert data["commit"] == git(repo, "rev-parse", "HEAD~1")
    # The decided area and portable files are not recorded.
    assert list(data["files"]) == ["csrc/scale.cu"]
    assert data["files"]["csrc/scale.cu"]["cuda"] > 10


def test_baseline_to_stdout_of_a_plain_directory(tmp_path: Path) -> None:
    folder = tmp_path / "tree"
    (folder / "k").mkdir(parents=True)
    (folder / "k" / "a.cu").write_text(KERNEL)
    code, out, err = run("baseline", str(folder), "--output", "-")
    assert code == 0, err
    data = yaml.safe_load(out)
    assert "commit" not in data
    assert list(data["files"]) == ["k/a.cu"]
    assert not (folder / ".github").exists()


def test_diff_counts_only_growth_past_the_baseline(tmp_path: Path) -> None:
    repo = adopted(tmp_path)
    base = git(repo, "rev-parse", "HEAD")
    # Shrunk since the baseline, then grown back: within it.
    commit(repo, {"csrc/scale.cu": KERNEL})
    shrunk = git(repo, "rev-parse", "HEAD")
    commit(repo, {"csrc/scale.cu": KERNEL + SECOND})

    code, out, _ = run("diff", shrunk, "HEAD", "--repo", str(repo), "--format", "json")
    verdict = json.loads(out)["verdict"]
    assert code == 0
    assert verdict["conclusion"] == "success"
    [changed] = verdict["changed"]
    assert changed["lines"]["ecosystems"][0]["baseline"] > 0

    # A new area gates; so does growth past the baseline.
    commit(repo, {"kernels/new.cu": SECOND, "csrc/scale.cu": KERNEL + SECOND + SECOND})
    code, out, _err = run("diff", base, "HEAD", "--repo", str(repo))
    assert code == 1
    assert "kernels/new.cu" in out
    assert "csrc/scale.cu" in out
    assert "Lines within `.github/lockin-baseline.yml` do not count" in out


def test_the_baseline_is_read_at_base_never_from_head(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    base = commit(repo, {"csrc/scale.cu": KERNEL})
    commit(repo, {"csrc/scale.cu": KERNEL + SECOND})
    code, _, _ = run("baseline", str(repo))
    assert code == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "baseline written with the growth")

    code, out, _ = run("diff", base, "HEAD", "--repo", str(repo))
    assert code == 1
    assert "csrc/scale.cu" in out


def test_an_invalid_baseline_is_one_clear_error(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    base = commit(repo, {".github/lockin-baseline.yml": "version: 1\nlayers: [kernel]\n"})
    commit(repo, {"k.cu": KERNEL})
    code, out, err = run("diff", base, "HEAD", "--repo", str(repo))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert ".github/lockin-baseline.yml" in err
    assert "run `lockin baseline` again" in err


def test_ratchet_and_report_only_from_the_policy_at_base(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    base = commit(
        repo,
        {"csrc/scale.cu": KERNEL, ".github/lockin.yml": "ratchet:\n  percent: 10\n"},
    )
    commit(repo, {"csrc/shift.cu": SECOND})
    code, out, _ = run("diff", base, "HEAD", "--repo", str(repo), "--format", "json")
    ratchet = json.loads(out)["verdict"]["ratchet"]
    assert ratchet["base"] > 0
    assert ratchet["growth"] > 0
    assert ratchet["failed"] == (ratchet["growth"] * 100 > 10 * ratchet["base"])
    assert code == (1 if ratchet["failed"] else 0)

    report_only = commit(repo, {".github/lockin.yml": "enforcement: report-only\n"})
    commit(repo, {"kernels/new.cu": SECOND})
    code, out, _ = run("diff", report_only, "HEAD", "--repo", str(repo))
    assert code == 0
    assert "Verdict: neutral" in out
