"""`lockin diff --staged`: what `git commit` would record (the index against HEAD), judged by
the same gate and reported with the same messages as a diff of two revisions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.gitrepo import commit, git, init, write
from tests.cli.test_cli import BASE_FILES, KERNEL, assert_one_line_error, run


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = init(tmp_path / "repo")
    commit(path, BASE_FILES, "base")
    return path


def test_staged_kernel_without_a_decision_fails_like_a_diff_of_commits(repo: Path) -> None:
    write(repo, {"ops/new.cu": KERNEL})
    git(repo, "add", "ops/new.cu")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 1
    # Committed, the same change gets the same verdict and the same lines.
    git(repo, "commit", "-q", "-m", "add a kernel")
    code_after, out_after, _ = run("diff", "HEAD~1", "HEAD", "--repo", str(repo))
    assert code_after == 1
    verdict = [line for line in out.splitlines() if "ops/new.cu" in line]
    assert verdict
    assert verdict == [line for line in out_after.splitlines() if "ops/new.cu" in line]


def test_only_the_index_counts_not_the_work_tree(repo: Path) -> None:
    write(repo, {"ops/new.cu": KERNEL, "ops/readme.txt": "notes\n"})
    git(repo, "add", "ops/readme.txt")
    code, out, _ = run("diff", "--staged", "--repo", str(repo), "--format", "json")
    assert code == 0
    assert "ops/new.cu" not in out  # not staged


def test_staged_kernel_inside_a_recorded_scope_passes(repo: Path) -> None:
    write(repo, {"csrc/new.cu": KERNEL})
    git(repo, "add", "-A")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 0
    assert "docs/decisions/0001-csrc.md" in out


def test_policy_comes_from_head_not_from_the_index(repo: Path) -> None:
    # Staging a looser policy does not loosen the gate for that same commit.
    write(repo, {".github/lockin.yml": "allowance: 1000\n", "ops/new.cu": KERNEL})
    git(repo, "add", "-A")
    assert run("diff", "--staged", "--repo", str(repo))[0] == 1


def test_first_commit_is_compared_with_the_empty_tree(tmp_path: Path) -> None:
    repo = init(tmp_path / "fresh")
    write(repo, {"k.cu": KERNEL})
    git(repo, "add", "k.cu")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 1
    assert "k.cu" in out


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        (["diff", "--staged", "main"], "--staged compares the index with HEAD"),
        (["diff"], "the following arguments are required: base, head (or --staged)"),
    ],
)
def test_staged_usage_errors_are_one_line(argv: list[str], text: str, repo: Path) -> None:
    code, _, err = run(*argv, "--repo", str(repo))
    assert code == 2
    assert_one_line_error(err, text)
