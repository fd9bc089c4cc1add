"""Temporary git repositories built with the real git."""

from __future__ import annotations

import subprocess
from pathlib import Path

IDENTITY = [
    "-c",
    "user.name=Test",
    "-c",
    "user.email=test@example.com",
    "-c",
    "commit.gpgsign=false",
]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def init(repo: Path) -> Path:
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    return repo


def write(repo: Path, files: dict[str, str | bytes | None]) -> None:
    """Write (or, for None, delete) files in the work tree."""
    for rel, content in files.items():
        path = repo / rel
        if content is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def commit(repo: Path, files: dict[str, str | bytes | None], message: str = "change") -> str:
    write(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def drop_object(repo: Path, name: str) -> None:
    """Delete the loose object ``name`` (a blob id, or ``rev:path``) from the object store,
    as a snapshot without its large blobs or a partial clone lacks it."""
    sha = git(repo, "rev-parse", name)
    (Path(git(repo, "rev-parse", "--absolute-git-dir")) / "objects" / sha[:2] / sha[2:]).unlink()
