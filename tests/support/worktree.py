"""This checkout as it is on disk (uncommitted and untracked files included, ignored ones
not), as one commit of a scratch repository: what `pre-commit` clones a hook repository
from, so that the tests try the hook as it is being written, not as last committed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def _git(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **IDENTITY, **(env or {})},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def snapshot(into: Path) -> tuple[Path, str]:
    """A repository at `into` holding the work tree as one commit: (its path, the commit)."""
    into.mkdir(parents=True)
    index = into.with_suffix(".index")
    env = {"GIT_INDEX_FILE": str(index)}
    _git("add", "--all", ".", cwd=ROOT, env=env)
    tree = _git("write-tree", cwd=ROOT, env=env)
    sha = _git("commit-tree", tree, "-m", "work tree snapshot", cwd=ROOT)
    _git("init", "-q", cwd=into)
    _git("fetch", "-q", str(ROOT), sha, cwd=into)
    _git("update-ref", "refs/heads/main", sha, cwd=into)
    return into, sha
