"""The pre-commit hook as a user sets it up: the README's `.pre-commit-config.yaml` (pointing
at this checkout instead of GitHub) and its `pre-commit install`, then real `git commit`s.
pre-commit clones the hook repository and installs lockin into its own environment, so this
is the hook exactly as published (dependencies come from the package index)."""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from tests.cli.gitrepo import IDENTITY, commit, init, write
from tests.cli.test_cli import BASE_FILES, KERNEL
from tests.support.readme import blocks, commands
from tests.support.worktree import snapshot

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
BIN = Path(sys.executable).parent  # pre-commit is installed beside the tests' Python


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    return snapshot(tmp_path_factory.mktemp("hook") / "lockin")


@pytest.fixture(scope="module")
def environ(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # One pre-commit cache for the module: the hook's environment is built once.
    home = tmp_path_factory.mktemp("pre-commit-home")
    return {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(home),
    }


def readme_config(hook_repo: tuple[Path, str]) -> str:
    (block,) = [b for b in blocks("yaml", "pre-commit") if "repos:" in b]
    config = yaml.safe_load(block)
    (repo,) = config["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == ["lockin", "lockin-record"]
    # The README's repository and tag, replaced by this checkout and its snapshot commit.
    path, sha = hook_repo
    return block.replace(repo["repo"], str(path)).replace(f"rev: {repo['rev']}", f"rev: {sha}")


@pytest.fixture
def project(tmp_path: Path, hook_repo: tuple[Path, str], environ: dict[str, str]) -> Path:
    repo = init(tmp_path / "project")
    commit(repo, {**BASE_FILES, ".pre-commit-config.yaml": readme_config(hook_repo)}, "base")
    for line in commands("pre-commit"):
        subprocess.run(shlex.split(line), cwd=repo, env=environ, check=True, capture_output=True)
    return repo


def git_commit(repo: Path, environ: dict[str, str], message: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *IDENTITY, "commit", "-m", message],
        cwd=repo,
        env=environ,
        capture_output=True,
        text=True,
    )


def stage(repo: Path, files: dict[str, str | bytes | None]) -> None:
    write(repo, files)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)


def test_commit_adding_a_kernel_without_a_decision_is_refused_with_the_cli_messages(
    project: Path, environ: dict[str, str]
) -> None:
    stage(project, {"ops/new.cu": KERNEL})
    out = io.StringIO()
    assert main(["diff", "--staged", "--repo", str(project)], out=out, err=io.StringIO()) == 1
    refused = git_commit(project, environ, "add a kernel")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    shown = refused.stdout + refused.stderr
    assert "Failed" in shown
    for line in out.getvalue().splitlines():
        if "--write-record" in line:
            # The one line that differs: under pre-commit, whose environment holds lockin,
            # the command that writes the record goes through pre-commit.
            assert "pre-commit run lockin-record --hook-stage manual" in shown
            continue
        assert line.rstrip() in shown
    # Nothing was committed.
    head = subprocess.run(
        ["git", "log", "--format=%s"], cwd=project, capture_output=True, text=True
    )
    assert head.stdout.split() == ["base"]


def test_commit_inside_a_recorded_scope_or_without_gpu_code_goes_through(
    project: Path, environ: dict[str, str]
) -> None:
    stage(project, {"csrc/new.cu": KERNEL})
    done = git_commit(project, environ, "a kernel where a decision covers it")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout + done.stderr
    stage(project, {"model.py": "import torch\n\nx = torch.zeros(3)\n"})
    assert git_commit(project, environ, "portable").returncode == 0
    log = subprocess.run(["git", "log", "--format=%s"], cwd=project, capture_output=True, text=True)
    assert log.stdout.splitlines()[:2] == ["portable", "a kernel where a decision covers it"]


def test_refused_commit_says_how_to_fix_and_a_record_staged_with_the_kernel_passes(
    project: Path, environ: dict[str, str]
) -> None:
    stage(project, {"ops/new.cu": KERNEL})
    refused = git_commit(project, environ, "add a kernel")
    assert refused.returncode == 1
    fix = "pre-commit run lockin-record --hook-stage manual"
    assert fix in refused.stdout + refused.stderr
    # The command the refusal names writes the drafted record into the work tree.
    wrote = subprocess.run(
        shlex.split(fix), cwd=project, env=environ, capture_output=True, text=True
    )
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    record = project / "docs/decisions/compute-api-ops.md"
    draft = record.read_text()
    assert "status: proposed" in draft
    assert '  - "ops/**"' in draft
    # Filled in and staged with the kernel, in the same commit: the hook reads the index.
    record.write_text(
        draft.replace("status: proposed", "status: accepted").replace(
            "owner:  #", 'owner: "@ops-team"  #'
        )
    )
    stage(project, {})
    done = git_commit(project, environ, "a kernel and its decision")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout + done.stderr
    files = subprocess.run(
        ["git", "show", "--name-only", "--format="], cwd=project, capture_output=True, text=True
    )
    assert sorted(files.stdout.split()) == ["docs/decisions/compute-api-ops.md", "ops/new.cu"]
